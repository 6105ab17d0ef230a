"""Reference fixtures for the attention core, computed by ONNX Runtime.

Builds, for each case, an ONNX graph of MatMul projections feeding ONNX Runtime's own
`Attention` operator (opset 23) and a final MatMul by W_O, runs it on the CPU provider and
writes tests/fixtures/<name>.json in the format `cargo test --test golden` reads.

Only needed to regenerate the fixtures, never to run the tests:
    pip install numpy onnx onnxruntime
    python3 tests/reference/make_fixtures.py
"""

import json
import pathlib

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

OUT = pathlib.Path(__file__).resolve().parent.parent / "fixtures"

# name, d_model, heads, n_q, n_kv (None = self), mask, scaled, input scale
CASES = [
    ("single_token", 8, 2, 1, None, "none", True, 1.0),
    ("dk1_four_heads", 4, 4, 5, None, "none", True, 1.0),
    ("tiny_two_heads", 4, 2, 3, None, "none", True, 1.0),
    ("causal_4heads", 32, 4, 6, None, "causal", True, 1.0),
    ("causal_single_token", 8, 1, 1, None, "causal", True, 1.0),
    ("cross_nq3_nkv7", 16, 2, 3, 7, "none", True, 1.0),
    ("cross_nq9_nkv2", 16, 4, 9, 2, "none", True, 1.0),
    ("cross_causal_nq5_nkv8", 16, 2, 5, 8, "causal", True, 1.0),
    ("unscaled_dk256_saturated", 256, 1, 8, None, "none", False, 1.0),
    ("scaled_dk256", 256, 1, 8, None, "none", True, 1.0),
    ("unscaled_dk64_causal", 128, 2, 10, None, "causal", False, 1.0),
    ("magnitude30", 16, 2, 6, None, "none", True, 30.0),
    ("magnitude30_unscaled_causal", 16, 2, 6, None, "causal", False, 30.0),
    ("n64_4heads", 32, 4, 64, None, "none", True, 1.0),
    ("n64_causal_8heads", 64, 8, 64, None, "causal", True, 1.0),
]


def graph(d_model, heads, cross, causal, scale):
    """x (1, n_q, d) [, x_kv (1, n_kv, d)] and four weights → q, k, v, scores, weights, output."""
    f = TensorProto.FLOAT
    kv = "x_kv" if cross else "x"
    inputs = [helper.make_tensor_value_info("x", f, [1, None, d_model])]
    if cross:
        inputs.append(helper.make_tensor_value_info("x_kv", f, [1, None, d_model]))
    for w in ("w_q", "w_k", "w_v", "w_o"):
        inputs.append(helper.make_tensor_value_info(w, f, [d_model, d_model]))
    heads_attrs = dict(q_num_heads=heads, kv_num_heads=heads)
    nodes = [
        helper.make_node("MatMul", ["x", "w_q"], ["q"]),
        helper.make_node("MatMul", [kv, "w_k"], ["k"]),
        helper.make_node("MatMul", [kv, "w_v"], ["v"]),
        # The real thing: scaled (or not), masked, softmax; mode 3 returns the weights.
        helper.make_node(
            "Attention", ["q", "k", "v"], ["y", "", "", "weights"],
            is_causal=int(causal), qk_matmul_output_mode=3, scale=scale, **heads_attrs,
        ),
        # Raw QKᵀ per head: scale 1, no mask, mode 0 (the matmul's own output).
        helper.make_node(
            "Attention", ["q", "k", "v"], ["y_raw", "", "", "scores"],
            qk_matmul_output_mode=0, scale=1.0, **heads_attrs,
        ),
        helper.make_node("MatMul", ["y", "w_o"], ["output"]),
    ]
    rank = {"q": 3, "k": 3, "v": 3, "scores": 4, "weights": 4, "output": 3}
    outputs = [helper.make_tensor_value_info(n, f, [None] * r) for n, r in rank.items()]
    g = helper.make_graph(nodes, "attention_reference", inputs, outputs)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 23)])


def rounded(a):
    """Nested lists of floats with 9 significant digits: enough to round-trip any f32."""
    return json.loads(json.dumps(np.asarray(a, dtype=np.float32).tolist(), allow_nan=False),
                      parse_float=lambda s: float("%.9g" % float(s)))


def case(i, name, d_model, heads, n_q, n_kv, mask, scaled, magnitude):
    rng = np.random.default_rng(1000 + i)
    d_k = d_model // heads
    a = np.sqrt(6.0 / (2 * d_model))  # Glorot, as the core's seeded weights
    x = (magnitude * rng.standard_normal((n_q, d_model))).astype(np.float32)
    x_kv = None if n_kv is None else (magnitude * rng.standard_normal((n_kv, d_model))).astype(np.float32)
    w = {k: rng.uniform(-a, a, (d_model, d_model)).astype(np.float32) for k in ("w_q", "w_k", "w_v", "w_o")}
    scale = 1.0 / np.sqrt(d_k) if scaled else 1.0
    model = graph(d_model, heads, x_kv is not None, mask == "causal", float(scale))
    onnx.checker.check_model(model)
    options = ort.SessionOptions()
    options.log_severity_level = 3  # shape-inference notes about the unused past-KV outputs
    sess = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    feeds = {"x": x[None], **w}
    if x_kv is not None:
        feeds["x_kv"] = x_kv[None]
    q, k, v, scores, weights, output = sess.run(None, feeds)
    fixture = {
        "name": name,
        "d_model": d_model,
        "heads": heads,
        "mask": mask,
        "scaled": scaled,
        "x": rounded(x),
        **({} if x_kv is None else {"x_kv": rounded(x_kv)}),
        **{k: rounded(m) for k, m in w.items()},
        "expected": {
            "q": rounded(q[0]),
            "k": rounded(k[0]),
            "v": rounded(v[0]),
            "scores": rounded(scores[0]),
            "weights": rounded(weights[0]),
            "output": rounded(output[0]),
        },
        "generator": f"onnxruntime {ort.__version__}, onnx {onnx.__version__}, Attention opset 23",
    }
    assert np.allclose(weights[0].sum(-1), 1.0, atol=1e-5), name
    (OUT / f"{name}.json").write_text(json.dumps(fixture, separators=(",", ":")) + "\n")
    top = weights[0].max(-1).mean()
    print(f"{name:32s} n_q={n_q:3d} n_kv={n_kv or n_q:3d} d_k={d_k:4d} mean max weight {top:.3f}")


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    for i, c in enumerate(CASES):
        case(i, *c)
