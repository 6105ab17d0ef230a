"""Reference gradients for the training core, from JAX (run once; the fixture is committed,
so CI needs no JAX).

    python3 -m pip install "jax[cpu]"
    python3 tests/reference/train_jax.py   # writes tests/fixtures/train/jax_gradients.json
                                           # and jax_gradients_mlp.json

The model is the one `attention_core::train` defines, written here independently: token and
position embeddings, `layers` attention layers with `heads` heads (causal mask, optional
division by sqrt(d_k)), each optionally followed by an MLP (x + relu(x W1 + b1) W2 + b2, four
times d_model wide), the residual stream, an unembedding, and the mean cross-entropy over the
(position, token) targets of a batch. The parameters come from NumPy with a fixed seed and are
stored in the fixture beside the loss and jax.grad of every tensor, in float64.
"""

import json
import pathlib

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

CONFIG = {"vocab": 7, "context": 8, "d_model": 12, "heads": 3, "layers": 2, "scaled": True, "mlp": False}
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
        for w in ("wq", "wk", "wv", "wo"):
            params[f"layer{l + 1}.{w}"] = rng.normal(0, sd, (d, d))
        if CONFIG["mlp"]:
            f = 4 * d
            params[f"layer{l + 1}.mlp.w1"] = rng.normal(0, sd, (d, f))
            params[f"layer{l + 1}.mlp.b1"] = rng.normal(0, 0.1, (1, f))
            params[f"layer{l + 1}.mlp.w2"] = rng.normal(0, 1.0 / np.sqrt(f), (f, d))
            params[f"layer{l + 1}.mlp.b2"] = rng.normal(0, 0.1, (1, d))
    params["unembed"] = rng.normal(0, sd, (d, v))
    return params


def logits(params, tokens):
    d, h = CONFIG["d_model"], CONFIG["heads"]
    dk = d // h
    c = 1.0 / np.sqrt(dk) if CONFIG["scaled"] else 1.0
    n = len(tokens)
    x = params["embed"][jnp.array(tokens)] + params["pos"][:n]
    causal = jnp.tril(jnp.ones((n, n), dtype=bool))
    for l in range(CONFIG["layers"]):
        p = lambda w: params[f"layer{l + 1}.{w}"]
        q, k, v = x @ p("wq"), x @ p("wk"), x @ p("wv")
        heads = []
        for i in range(h):
            cols = slice(i * dk, (i + 1) * dk)
            s = (q[:, cols] @ k[:, cols].T) * c
            s = jnp.where(causal, s, -jnp.inf)
            heads.append(jax.nn.softmax(s, axis=-1) @ v[:, cols])
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


if __name__ == "__main__":
    main()
