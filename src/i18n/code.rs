//! The PyTorch lines of each stage's code panel, as templates the live shapes fill in
//! (`app::stages::code`). The same in both languages; like every text, the published page
//! carries them, not the .wasm. `{…}` are the placeholders.

super::catalogue! {
    /// A template of the code panel.
    pub enum Code {
        PretrainedInput => r#"import math, torch
from transformers import AutoModel
# The hub's full-precision model. The page runs a smaller copy of it ({copy}), so the numbers
# this script prints come out close to the page's, not equal.
model = AutoModel.from_pretrained("{hub}")
token_ids = torch.tensor([[{ids}]])  # {tokens}
hidden = model(token_ids, output_hidden_states=True).hidden_states
x = hidden[{layer}]  # the input of layer {layer_1}: (1, {n}, {d})"#,
        Input => r#"import math, torch
from torch import nn

tokens = [{tokens}]
vocab = sorted(set(tokens{kv_vocab}))
token_ids = torch.tensor([[vocab.index(t) for t in tokens]])  # (1, {n})
# Fresh random weights: the page's steps, not its numbers (it draws its own from a seed).
embed = nn.Embedding(len(vocab), {d})
{positions}x = embed(token_ids){pe}  # (1, {n}, {d})"#,
        Sinusoids => r#"def positions(n):  # PE(p), p = 0 … n − 1
    angle = torch.arange(n).unsqueeze(1) / 10000 ** (torch.arange(0, {d}, 2) / {d})
    pe = torch.zeros(n, {d})
    pe[:, 0::2], pe[:, 1::2] = torch.sin(angle), torch.cos(angle)
    return pe
"#,
        Rotary => r#"def rotate(t):  # RoPE on (1, h, n, d_k): pair (2j, 2j + 1) at position p turned by p / 10000^(2j/d_k)
    angle = torch.arange(t.shape[2]).unsqueeze(1) / 10000 ** (torch.arange(0, 2 * {m}, 2) / {d_k})
    a, b = t[..., 0:2 * {m}:2], t[..., 1:2 * {m}:2]
    out = t.clone()
    out[..., 0:2 * {m}:2] = a * torch.cos(angle) - b * torch.sin(angle)
    out[..., 1:2 * {m}:2] = a * torch.sin(angle) + b * torch.cos(angle)
    return out
"#,
        RotateQk => r#"q, k = rotate(q), rotate(k)  # RoPE: each head's queries and keys turned by position"#,
        LearnedPositions => r#"pos_embed = nn.Embedding({max}, {d})  # one learned vector per position
def positions(n):
    return pos_embed(torch.arange(n))
"#,
        InputKv => r#"kv_tokens = [{kv_tokens}]
kv_ids = torch.tensor([[vocab.index(t) for t in kv_tokens]])  # (1, {n_kv})
x_kv = embed(kv_ids){pe_kv}  # (1, {n_kv}, {d})"#,
        Positions => r#" + positions({rows})"#,
        Projection => r#"w_q, w_k, w_v = (nn.Linear({d}, {d}, bias={bias}) for _ in range(3))
q = w_q(x).view(1, {n}, {h}, {d_k}).transpose(1, 2)  # (1, {h}, {n}, {d_k})
k = w_k({kv}).view(1, {n_kv}, {h}, {d_k}).transpose(1, 2)  # (1, {h}, {n_kv}, {d_k})
v = w_v({kv}).view(1, {n_kv}, {h}, {d_k}).transpose(1, 2)  # (1, {h}, {n_kv}, {d_k})"#,
        PretrainedProjection => r#"attn = model.encoder.layer[{layer}].attention  # the model's own modules (its full-precision weights)
q = attn.self.query(x).view(1, {n}, {h}, {d_k}).transpose(1, 2)  # (1, {h}, {n}, {d_k})
k = attn.self.key(x).view(1, {n_kv}, {h}, {d_k}).transpose(1, 2)  # (1, {h}, {n_kv}, {d_k})
v = attn.self.value(x).view(1, {n_kv}, {h}, {d_k}).transpose(1, 2)  # (1, {h}, {n_kv}, {d_k})"#,
        ProjectionGrouped => r#"w_q = nn.Linear({d}, {d}, bias={bias})
w_k, w_v = (nn.Linear({d}, {kv_heads} * {d_k}, bias={bias}) for _ in range(2))  # {kv_heads} K/V head(s) for {h} query heads
q = w_q(x).view(1, {n}, {h}, {d_k}).transpose(1, 2)  # (1, {h}, {n}, {d_k})
k = w_k({kv}).view(1, {n_kv}, {kv_heads}, {d_k}).transpose(1, 2)  # (1, {kv_heads}, {n_kv}, {d_k})
v = w_v({kv}).view(1, {n_kv}, {kv_heads}, {d_k}).transpose(1, 2)  # (1, {kv_heads}, {n_kv}, {d_k})
# Each group of {per} query heads reads one K/V head: repeat it for every head of its group.
k, v = k.repeat_interleave({per}, dim=1), v.repeat_interleave({per}, dim=1)  # (1, {h}, {n_kv}, {d_k})"#,
        Scores => r#"scores = q @ k.transpose(-2, -1)  # (1, {h}, {n}, {n_kv})"#,
        PaddingMask => r#"# A batch of two sentences of {n} and {m} tokens, the shorter padded to {n}.
keep = torch.tensor([[True] * {n}, [True] * {m} + [False] * {pad}])  # (2, {n}): False where padded
scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (2, h, {n}, {n})
scores = scores.masked_fill(~keep[:, None, None, :], float("-inf"))  # padded keys: weight 0
weights = torch.softmax(scores, dim=-1)  # a padded query's row is computed too, and ignored"#,
        Scaling => r#"scale = {scale}
scores = scores / scale  # (1, {h}, {n}, {n_kv})"#,
        SqrtDk => r#"math.sqrt({d_k})"#,
        Mask => r#"mask = torch.tril(torch.ones({n}, {n_kv}))
scores = scores.masked_fill(mask == 0, -1e9)"#,
        Softmax => r#"weights = torch.softmax(scores / {t}, dim=-1)  # (1, {h}, {n}, {n_kv})"#,
        Output => r#"out = weights @ v  # (1, {h}, {n}, {d_k})"#,
        PretrainedMultiHead => r#"w_o = attn.output.dense  # W_O and b_O (the model then adds x and applies LayerNorm)
concat = out.transpose(1, 2).reshape(1, {n}, {d})  # (1, {n}, {d})
y = w_o(concat)  # (1, {n}, {d})"#,
        MultiHead => r#"w_o = nn.Linear({d}, {d}, bias={bias})
concat = out.transpose(1, 2).reshape(1, {n}, {d})  # (1, {n}, {d})
y = w_o(concat)  # (1, {n}, {d})
# The same in one call, as models are written: torch.nn.functional.scaled_dot_product_attention(q, k, v)
# for the heads (is_causal=True for the causal mask), or nn.MultiheadAttention({d}, {h}) for all of it."#,
    }
}

impl Code {
    /// The template.
    pub fn template(self) -> &'static str {
        super::Text::pair(self).0
    }
}
