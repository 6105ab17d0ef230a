//! "The code for this stage": the PyTorch lines that do what the stage shows, with the shapes
//! of the outcome on screen written into them, and a copy button. The text is made by a pure
//! function of the trace's own description, so it cannot disagree with the heatmaps.

use super::super::clipboard::copy_text;
use super::super::page::use_page;
use crate::core::attention::Mask;
use crate::core::model::{Origin, Outcome};
use crate::i18n::{fill, Code, Msg};
use crate::settings::{format_temperature, Stage};
use leptos::prelude::*;

/// The sizes and switches the code needs, read from an outcome's trace.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeShapes {
    pub n: usize,
    pub n_kv: usize,
    pub d_model: usize,
    pub n_heads: usize,
    pub d_k: usize,
    pub cross: bool,
    pub causal: bool,
    pub scaled: bool,
    pub temperature: f32,
    /// The projections have biases.
    pub biases: bool,
    /// A pretrained model's id on the hub: X is a hidden state of that model.
    pub pretrained: Option<&'static str>,
    /// The layer shown (0-based), for a pretrained model.
    pub layer: usize,
    pub positional: bool,
}

impl CodeShapes {
    /// What `o`'s trace was computed with.
    pub fn of(o: &Outcome) -> Self {
        let t = o.trace();
        let (n, n_kv) = t.n();
        let pretrained = match o.shape().origin {
            Origin::Pretrained { hub, .. } => Some(hub),
            _ => None,
        };
        Self {
            n,
            n_kv,
            d_model: t.d_model(),
            n_heads: t.n_heads(),
            d_k: t.d_k,
            cross: t.is_cross(),
            causal: t.mask == Mask::Causal,
            scaled: t.scaled,
            temperature: t.temperature,
            biases: o.shape().biases,
            pretrained,
            layer: o.layer,
            positional: o.positional().is_some(),
        }
    }
}

/// The PyTorch lines of `stage` for `s` (batch size 1; shapes in the comments), from the
/// templates of `i18n::Code`.
pub fn stage_code(stage: Stage, s: &CodeShapes) -> String {
    let number = |v: usize| v.to_string();
    let positions = |rows: usize| {
        if s.positional {
            fill(Code::Positions.template(), &[("rows", &number(rows))])
        } else {
            String::new()
        }
    };
    let scale = if s.scaled { fill(Code::SqrtDk.template(), &[("d_k", &number(s.d_k))]) } else { "1.0".into() };
    let vars = [
        ("n", number(s.n)),
        ("n_kv", number(s.n_kv)),
        ("d", number(s.d_model)),
        ("h", number(s.n_heads)),
        ("d_k", number(s.d_k)),
        ("layer", number(s.layer)),
        ("bias", (if s.biases { "True" } else { "False" }).into()),
        ("hub", s.pretrained.unwrap_or_default().into()),
        ("kv", (if s.cross { "x_kv" } else { "x" }).into()),
        ("pe", positions(s.n)),
        ("pe_kv", positions(s.n_kv)),
        ("scale", scale),
        ("t", temperature(s.temperature)),
    ];
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let templates: &[Code] = match stage {
        Stage::Input if s.pretrained.is_some() => &[Code::PretrainedInput],
        Stage::Input if s.cross => &[Code::Input, Code::InputKv],
        Stage::Input => &[Code::Input],
        Stage::Projection => &[Code::Projection],
        Stage::Scores => &[Code::Scores],
        Stage::Scaling => &[Code::Scaling],
        Stage::Softmax if s.causal => &[Code::Mask, Code::Softmax],
        Stage::Softmax => &[Code::Softmax],
        Stage::Output => &[Code::Output],
        Stage::MultiHead => &[Code::MultiHead],
    };
    templates.iter().map(|c| fill(c.template(), &vars)).collect::<Vec<_>>().join("\n")
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
            n_heads: 4,
            d_k: 16,
            cross: false,
            causal: false,
            scaled: true,
            temperature: 1.0,
            biases: false,
            pretrained: None,
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
    fn pretrained_weights_have_biases_and_read_a_hidden_state() {
        let hub = Some("sentence-transformers/all-MiniLM-L6-v2");
        let s = CodeShapes { biases: true, pretrained: hub, d_model: 384, n_heads: 12, d_k: 32, layer: 2, ..shapes() };
        let input = stage_code(Stage::Input, &s);
        assert!(
            input.contains("x = hidden[2]  # (1, 11, 384)")
                && input.contains("(\"sentence-transformers/all-MiniLM-L6-v2\")")
        );
        assert!(stage_code(Stage::MultiHead, &s).contains("nn.Linear(384, 384, bias=True)"));
    }
}
