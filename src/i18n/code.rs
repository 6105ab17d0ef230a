//! The PyTorch lines of each stage's code panel, as templates the live shapes fill in
//! (`app::stages::code`). The same in both languages; like every text, the published page
//! carries them, not the .wasm. `{…}` are the placeholders.

super::catalogue! {
    /// A template of the code panel.
    pub enum Code {
        PretrainedInput => r#"from transformers import AutoModel
model = AutoModel.from_pretrained("{hub}")
hidden = model(token_ids, output_hidden_states=True).hidden_states  # token_ids: (1, {n})
x = hidden[{layer}]  # (1, {n}, {d})"#,
        Input => r#"import math, torch
from torch import nn

embed = nn.Embedding(vocab_size, {d})
x = embed(token_ids){pe}  # token_ids: (1, {n}) → x: (1, {n}, {d})"#,
        InputKv => r#"x_kv = embed(kv_ids){pe_kv}  # (1, {n_kv}, {d})"#,
        Positions => r#" + pe[:{rows}]"#,
        Projection => r#"w_q, w_k, w_v = (nn.Linear({d}, {d}, bias={bias}) for _ in range(3))
q = w_q(x).view(1, {n}, {h}, {d_k}).transpose(1, 2)  # (1, {h}, {n}, {d_k})
k = w_k({kv}).view(1, {n_kv}, {h}, {d_k}).transpose(1, 2)  # (1, {h}, {n_kv}, {d_k})
v = w_v({kv}).view(1, {n_kv}, {h}, {d_k}).transpose(1, 2)  # (1, {h}, {n_kv}, {d_k})"#,
        Scores => r#"scores = q @ k.transpose(-2, -1)  # (1, {h}, {n}, {n_kv})"#,
        Scaling => r#"scale = {scale}
scores = scores / scale  # (1, {h}, {n}, {n_kv})"#,
        SqrtDk => r#"math.sqrt({d_k})"#,
        Mask => r#"mask = torch.tril(torch.ones({n}, {n_kv}))
scores = scores.masked_fill(mask == 0, -1e9)"#,
        Softmax => r#"weights = torch.softmax(scores / {t}, dim=-1)  # (1, {h}, {n}, {n_kv})"#,
        Output => r#"out = weights @ v  # (1, {h}, {n}, {d_k})"#,
        MultiHead => r#"w_o = nn.Linear({d}, {d}, bias={bias})
concat = out.transpose(1, 2).reshape(1, {n}, {d})  # (1, {n}, {d})
y = w_o(concat)  # (1, {n}, {d})"#,
    }
}

impl Code {
    /// The template.
    pub fn template(self) -> &'static str {
        super::Text::pair(self).0
    }
}
