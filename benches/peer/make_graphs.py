"""The peer's work for the benchmark: one multi-head attention layer as an ONNX graph, the same
computation as the core's trace (projections, QKᵀ per head, ÷√d_k, softmax, A·V, concat, W_O),
with the attention weights as a second output, as onnxruntime-web runs it.

Built from plain opset-17 operators (MatMul, Reshape, Transpose, Div, Softmax), which every
backend of onnxruntime-web runs. The weights are graph inputs, not initialisers, so the page
feeds the peer exactly the weights and input it gives the core. One graph per (d_model, heads)
of the benchmark, n dynamic. The graphs are committed; regenerate them with
    pip install onnx && python3 benches/peer/make_graphs.py
"""

import math
import pathlib

import onnx
from onnx import TensorProto, helper

OUT = pathlib.Path(__file__).resolve().parent
# (d_model, heads): heads = d_model / 64, as in the benchmark.
SHAPES = [(64, 1), (256, 4), (512, 8)]


def graph(d_model, heads):
    d_k = d_model // heads
    f = TensorProto.FLOAT
    inputs = [helper.make_tensor_value_info("x", f, ["n", d_model])]
    inputs += [helper.make_tensor_value_info(w, f, [d_model, d_model]) for w in ("w_q", "w_k", "w_v", "w_o")]
    outputs = [
        helper.make_tensor_value_info("output", f, ["n", d_model]),
        helper.make_tensor_value_info("weights", f, [heads, "n", "n"]),
    ]
    consts = [
        helper.make_tensor("split_heads", TensorProto.INT64, [3], [-1, heads, d_k]),
        helper.make_tensor("join_heads", TensorProto.INT64, [2], [-1, d_model]),
        helper.make_tensor("root_dk", f, [], [math.sqrt(d_k)]),
    ]
    nodes = []
    for name, w in (("q", "w_q"), ("k", "w_k"), ("v", "w_v")):
        nodes.append(helper.make_node("MatMul", ["x", w], [name]))
        nodes.append(helper.make_node("Reshape", [name, "split_heads"], [name + "_split"]))
    # (n, h, d_k) → (h, n, d_k) for Q and V, (h, d_k, n) for K (already transposed for QKᵀ).
    nodes.append(helper.make_node("Transpose", ["q_split"], ["q_heads"], perm=[1, 0, 2]))
    nodes.append(helper.make_node("Transpose", ["k_split"], ["k_heads_t"], perm=[1, 2, 0]))
    nodes.append(helper.make_node("Transpose", ["v_split"], ["v_heads"], perm=[1, 0, 2]))
    nodes.append(helper.make_node("MatMul", ["q_heads", "k_heads_t"], ["scores"]))
    nodes.append(helper.make_node("Div", ["scores", "root_dk"], ["scaled"]))
    nodes.append(helper.make_node("Softmax", ["scaled"], ["weights"], axis=-1))
    nodes.append(helper.make_node("MatMul", ["weights", "v_heads"], ["head_outputs"]))
    nodes.append(helper.make_node("Transpose", ["head_outputs"], ["by_token"], perm=[1, 0, 2]))
    nodes.append(helper.make_node("Reshape", ["by_token", "join_heads"], ["concat"]))
    nodes.append(helper.make_node("MatMul", ["concat", "w_o"], ["output"]))
    g = helper.make_graph(nodes, f"mha_d{d_model}_h{heads}", inputs, outputs, initializer=consts)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], producer_name="attention-lab")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


if __name__ == "__main__":
    for d_model, heads in SHAPES:
        path = OUT / f"mha_d{d_model}_h{heads}.onnx"
        onnx.save(graph(d_model, heads), path)
        print(f"wrote {path.name} ({path.stat().st_size} bytes)")
