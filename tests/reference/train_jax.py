"""Reference gradients for the training core, from JAX (run once; the fixture is committed,
so CI needs no JAX).

    python3 -m pip install "jax[cpu]"
    python3 tests/reference/train_jax.py   # writes tests/fixtures/train/jax_gradients.json,
                                           # jax_gradients_mlp.json, jax_gradients_gqa_rope.json
                                           # and jax_gradients_mqa_sinusoidal.json

The model is the one `attention_core::train` defines, written here independently: token and
position embeddings, `layers` attention layers with `heads` heads (causal mask, optional
division by sqrt(d_k)), each optionally followed by an MLP (x + relu(x W1 + b1) W2 + b2, four
times d_model wide), the residual stream, an unembedding, and the mean cross-entropy over the
(position, token) targets of a batch. The parameters come from NumPy with a fixed seed and are
stored in the fixture beside the loss and jax.grad of every tensor, in float64.

Keys and values may have fewer heads than the queries (`kv_heads`: query head i reads K/V head
i // (heads // kv_heads)), and positions may be learned (added), sinusoidal (added, fixed) or
rotary (no addition; each head's query and key pairs (2j, 2j + 1) at position p rotated by
p * 10000 ** (-2j / d_k)).
"""

import json
import pathlib

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

CONFIG = {
    "vocab": 7,
    "context": 8,
    "d_model": 12,
    "heads": 3,
    "kv_heads": 3,
    "positions": "learned",
    "layers": 2,
    "scaled": True,
    "mlp": False,
}
BATCH = [
    {"tokens": [0, 3, 1, 6, 2, 2, 5, 4], "targets": [[1, 2], [3, 0], [5, 4], [7, 6]]},
    {"tokens": [6, 6, 0, 1, 5], "targets": [[0, 1], [2, 3], [4, 4]]},
    {"tokens": [2, 4, 1], "targets": [[2, 0]]},
]


def init(seed):
    rng = np.random.default_rng(seed)
    d, v, n = CONFIG["d_model"], CONFIG["vocab"], CONFIG["context"]
    sd = 1.0 / np.sqrt(d)
    params = {"embed": rng.normal(0, 0.5, (v, d)), "pos": rng.normal(0, 0.5, (n, d))}
    for l in range(CONFIG["layers"]):
        d_kv = CONFIG["kv_heads"] * (d // CONFIG["heads"])
        for w, cols in (("wq", d), ("wk", d_kv), ("wv", d_kv), ("wo", d)):
            params[f"layer{l + 1}.{w}"] = rng.normal(0, sd, (d, cols))
        if CONFIG["mlp"]:
            f = 4 * d
            params[f"layer{l + 1}.mlp.w1"] = rng.normal(0, sd, (d, f))
            params[f"layer{l + 1}.mlp.b1"] = rng.normal(0, 0.1, (1, f))
            params[f"layer{l + 1}.mlp.w2"] = rng.normal(0, 1.0 / np.sqrt(f), (f, d))
            params[f"layer{l + 1}.mlp.b2"] = rng.normal(0, 0.1, (1, d))
    params["unembed"] = rng.normal(0, sd, (d, v))
    return params


def sinusoidal(n, d):
    pe = np.zeros((n, d))
    for pos in range(n):
        for i in range(0, d, 2):
            angle = pos / 10000 ** (i / d)
            pe[pos, i] = np.sin(angle)
            if i + 1 < d:
                pe[pos, i + 1] = np.cos(angle)
    return jnp.array(pe)


def rope(x):
    """Rotate each pair (2j, 2j + 1) of one head's columns at row p by p * theta_j."""
    n, dk = x.shape
    out = []
    for j in range(dk // 2):
        theta = 10000.0 ** (-2.0 * j / dk)
        angle = jnp.arange(n) * theta
        a, b = x[:, 2 * j], x[:, 2 * j + 1]
        out += [a * jnp.cos(angle) - b * jnp.sin(angle), a * jnp.sin(angle) + b * jnp.cos(angle)]
    if dk % 2:
        out.append(x[:, dk - 1])
    return jnp.stack(out, axis=1)


def logits(params, tokens):
    d, h = CONFIG["d_model"], CONFIG["heads"]
    dk = d // h
    c = 1.0 / np.sqrt(dk) if CONFIG["scaled"] else 1.0
    n = len(tokens)
    x = params["embed"][jnp.array(tokens)]
    if CONFIG["positions"] == "learned":
        x = x + params["pos"][:n]
    elif CONFIG["positions"] == "sinusoidal":
        x = x + sinusoidal(n, d)
    causal = jnp.tril(jnp.ones((n, n), dtype=bool))
    per_group = h // CONFIG["kv_heads"]
    for l in range(CONFIG["layers"]):
        p = lambda w: params[f"layer{l + 1}.{w}"]
        q, k, v = x @ p("wq"), x @ p("wk"), x @ p("wv")
        heads = []
        for i in range(h):
            cols = slice(i * dk, (i + 1) * dk)
            g = i // per_group
            group = slice(g * dk, (g + 1) * dk)
            qi, kg = q[:, cols], k[:, group]
            if CONFIG["positions"] == "rope":
                qi, kg = rope(qi), rope(kg)
            s = (qi @ kg.T) * c
            s = jnp.where(causal, s, -jnp.inf)
            heads.append(jax.nn.softmax(s, axis=-1) @ v[:, group])
        x = x + jnp.concatenate(heads, axis=1) @ p("wo")
        if CONFIG["mlp"]:
            x = x + jax.nn.relu(x @ p("mlp.w1") + p("mlp.b1")) @ p("mlp.w2") + p("mlp.b2")
    return x @ params["unembed"]


def loss(params):
    total = sum(len(b["targets"]) for b in BATCH)
    out = 0.0
    for b in BATCH:
        lp = jax.nn.log_softmax(logits(params, b["tokens"]), axis=-1)
        for i, t in b["targets"]:
            out = out - lp[i, t] / total
    return out


def write(name):
    params = {k: jnp.array(v) for k, v in init(2024).items()}
    value, grads = jax.value_and_grad(loss)(params)
    fixture = {
        "jax": jax.__version__,
        "config": CONFIG,
        "batch": BATCH,
        "params": {k: np.asarray(v).tolist() for k, v in params.items()},
        "loss": float(value),
        "grads": {k: np.asarray(v).tolist() for k, v in grads.items()},
    }
    out = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "train" / name
    out.write_text(json.dumps(fixture, indent=1))
    print(f"loss {float(value):.6f}; {len(grads)} gradient tensors -> {out}")


def main():
    write("jax_gradients.json")
    # The same model with an MLP in each layer (its biases drawn non-zero, so their
    # gradients are checked away from the ReLU's kink at 0 too).
    CONFIG["mlp"] = True
    write("jax_gradients_mlp.json")
    # Grouped-query attention (four query heads reading two K/V heads) with rotary positions,
    # and multi-query attention (one K/V head) with the sinusoidal encoding added.
    CONFIG.update(d_model=16, heads=4, kv_heads=2, positions="rope")
    write("jax_gradients_gqa_rope.json")
    CONFIG.update(kv_heads=1, positions="sinusoidal", mlp=False)
    write("jax_gradients_mqa_sinusoidal.json")


if __name__ == "__main__":
    main()
