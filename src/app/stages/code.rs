//! "The code for this stage": the PyTorch lines that do what the stage shows, with the shapes
//! of the outcome on screen written into them, and a copy button. The text is made by a pure
//! function of the trace's own description, so it cannot disagree with the heatmaps.

use super::super::clipboard::copy_text;
use super::super::page::use_page;
use crate::core::attention::Mask;
use crate::core::scenario::{Outcome, Source};
use crate::i18n::Msg;
use crate::settings::{format_temperature, Stage};
use leptos::prelude::*;

/// The sizes and switches the code needs, read from an outcome's trace.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeShapes {
    pub n: usize,
    pub n_kv: usize,
    pub d_model: usize,
    pub heads: usize,
    pub d_k: usize,
    pub cross: bool,
    pub causal: bool,
    pub scaled: bool,
    pub temperature: f32,
    /// Trained weights: the layers have biases, and X is a hidden state of the model.
    pub trained: bool,
    /// The layer shown (0-based), for trained weights.
    pub layer: usize,
    pub positional: bool,
}

impl CodeShapes {
    /// What `o`'s trace was computed with.
    pub fn of(o: &Outcome) -> Self {
        let t = &o.trace;
        let (n, n_kv) = t.n();
        Self {
            n,
            n_kv,
            d_model: t.d_model(),
            heads: t.heads.len(),
            d_k: t.d_k,
            cross: t.is_cross(),
            causal: t.mask == Mask::Causal,
            scaled: t.scaled,
            temperature: t.temperature,
            trained: o.scenario.source == Source::Minilm,
            layer: o.scenario.layer,
            positional: o.positional.is_some(),
        }
    }
}

/// The PyTorch lines of `stage` for `s` (batch size 1; shapes in the comments).
pub fn stage_code(stage: Stage, s: &CodeShapes) -> String {
    let CodeShapes { n, n_kv, d_model: d, heads: h, d_k, .. } = *s;
    let kv = if s.cross { "x_kv" } else { "x" };
    let bias = if s.trained { "True" } else { "False" };
    let lines: Vec<String> = match stage {
        Stage::Input if s.trained => vec![
            "from transformers import AutoModel".into(),
            "model = AutoModel.from_pretrained(\"sentence-transformers/all-MiniLM-L6-v2\")".into(),
            format!("hidden = model(token_ids, output_hidden_states=True).hidden_states  # token_ids: (1, {n})"),
            format!("x = hidden[{}]  # (1, {n}, {d})", s.layer),
        ],
        Stage::Input => {
            let mut v = vec![
                "import math, torch".into(),
                "from torch import nn".into(),
                String::new(),
                format!("embed = nn.Embedding(vocab_size, {d})"),
            ];
            let pe = if s.positional { format!(" + pe[:{n}]") } else { String::new() };
            v.push(format!("x = embed(token_ids){pe}  # token_ids: (1, {n}) → x: (1, {n}, {d})"));
            if s.cross {
                v.push(format!(
                    "x_kv = embed(kv_ids){}  # (1, {n_kv}, {d})",
                    if s.positional { format!(" + pe[:{n_kv}]") } else { String::new() }
                ));
            }
            v
        }
        Stage::Projection => {
            let mut v = vec![format!("w_q, w_k, w_v = (nn.Linear({d}, {d}, bias={bias}) for _ in range(3))")];
            for (name, src, rows) in [("q", "x", n), ("k", kv, n_kv), ("v", kv, n_kv)] {
                v.push(format!(
                    "{name} = w_{name}({src}).view(1, {rows}, {h}, {d_k}).transpose(1, 2)  # (1, {h}, {rows}, {d_k})"
                ));
            }
            v
        }
        Stage::Scores => vec![format!("scores = q @ k.transpose(-2, -1)  # (1, {h}, {n}, {n_kv})")],
        Stage::Scaling => {
            let scale = if s.scaled { format!("math.sqrt({d_k})") } else { "1.0".into() };
            vec![format!("scale = {scale}"), format!("scores = scores / scale  # (1, {h}, {n}, {n_kv})")]
        }
        Stage::Softmax => {
            let mut v = vec![];
            if s.causal {
                v.push(format!("mask = torch.tril(torch.ones({n}, {n_kv}))"));
                v.push("scores = scores.masked_fill(mask == 0, -1e9)".into());
            }
            v.push(format!(
                "weights = torch.softmax(scores / {}, dim=-1)  # (1, {h}, {n}, {n_kv})",
                temperature(s.temperature)
            ));
            v
        }
        Stage::Output => vec![format!("out = weights @ v  # (1, {h}, {n}, {d_k})")],
        Stage::MultiHead => vec![
            format!("w_o = nn.Linear({d}, {d}, bias={bias})"),
            format!("concat = out.transpose(1, 2).reshape(1, {n}, {d})  # (1, {n}, {d})"),
            format!("y = w_o(concat)  # (1, {n}, {d})"),
        ],
    };
    lines.join("\n")
}

/// T as the settings show it, written as a Python float (always with a decimal point).
fn temperature(t: f32) -> String {
    let s = format_temperature(t);
    if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

/// The stage's code, folded under its title, with a copy button.
#[component]
pub fn StageCode(
    /// The stage whose code is shown.
    stage: Stage,
) -> impl IntoView {
    let page = use_page();
    let code = Memo::new(move |_| {
        page.outcome.with(|o| o.as_ref().map(|o| stage_code(stage, &CodeShapes::of(&o.0))).unwrap_or_default())
    });
    let (copied, set_copied) = signal(None::<bool>);
    let copy = move |_| {
        let text = code.get_untracked();
        leptos::task::spawn_local(async move { set_copied.set(Some(copy_text(&text).await)) });
    };
    view! {
        <details class="stage-code" data-testid="stage-code">
            <summary class="stage-code__title">{page.text(Msg::CodeTitle)}</summary>
            <pre class="stage-code__text" lang="en" translate="no"><code data-testid="stage-code-text">{code}</code></pre>
            <div class="stage-code__actions">
                <button type="button" class="button button--small" data-testid="stage-code-copy" on:click=copy>
                    {page.text(Msg::CodeCopy)}
                </button>
                <span role="status">{move || copied.get().map(|ok| page.t(if ok { Msg::CodeCopied } else { Msg::CodeCopyRefused }))}</span>
            </div>
            {(stage == Stage::Softmax).then(|| view! { <p class="stage-code__note">{page.text(Msg::CodeMaskNote)}</p> })}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes() -> CodeShapes {
        CodeShapes {
            n: 11,
            n_kv: 11,
            d_model: 64,
            heads: 4,
            d_k: 16,
            cross: false,
            causal: false,
            scaled: true,
            temperature: 1.0,
            trained: false,
            layer: 0,
            positional: true,
        }
    }

    #[test]
    fn the_heads_are_split_with_the_live_shapes() {
        let code = stage_code(Stage::Projection, &shapes());
        assert!(code.contains("q = w_q(x).view(1, 11, 4, 16).transpose(1, 2)  # (1, 4, 11, 16)"), "{code}");
        assert!(code.contains("bias=False"));
    }

    #[test]
    fn scaling_and_the_mask_follow_the_switches() {
        let s = CodeShapes { scaled: false, causal: true, temperature: 2.0, ..shapes() };
        assert!(stage_code(Stage::Scaling, &s).starts_with("scale = 1.0"));
        assert!(stage_code(Stage::Scaling, &shapes()).starts_with("scale = math.sqrt(16)"));
        let softmax = stage_code(Stage::Softmax, &s);
        assert!(softmax.contains("masked_fill(mask == 0, -1e9)") && softmax.contains("scores / 2.0"), "{softmax}");
        assert!(!stage_code(Stage::Softmax, &shapes()).contains("mask"));
    }

    #[test]
    fn cross_attention_reads_keys_and_values_from_the_second_input() {
        let s = CodeShapes { cross: true, n_kv: 5, ..shapes() };
        let code = stage_code(Stage::Projection, &s);
        assert!(code.contains("k = w_k(x_kv).view(1, 5, 4, 16)"), "{code}");
        assert!(stage_code(Stage::Scores, &s).ends_with("# (1, 4, 11, 5)"));
    }

    #[test]
    fn trained_weights_have_biases_and_read_a_hidden_state() {
        let s = CodeShapes { trained: true, d_model: 384, heads: 12, d_k: 32, layer: 2, ..shapes() };
        assert!(stage_code(Stage::Input, &s).contains("x = hidden[2]  # (1, 11, 384)"));
        assert!(stage_code(Stage::MultiHead, &s).contains("nn.Linear(384, 384, bias=True)"));
    }
}
