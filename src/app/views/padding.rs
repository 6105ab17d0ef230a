//! The padding mask, under the variants: the lesson's two sentences as one batch, the shorter
//! padded to the longer's length with its padded keys masked, and the check that its real
//! tokens' outputs are what it gives alone (`core::padding`).

use crate::app::page::{use_page, Shared};
use crate::core::model::ModelError;
use crate::core::padding::{pad_and_run, Padded};
use crate::core::variants::{Variant, Variants};
use crate::i18n::{fill, model_error, Code, Msg, ViewMsg};
use crate::ui::charts::PageMap;
use crate::ui::specs::weights;
use leptos::prelude::*;

/// What the panel shows: the padded run, its row and column labels, and its sentence (1 or 2).
struct Shown {
    run: Padded,
    labels: Vec<String>,
    which: usize,
}

/// The batch of the first and second sentence, padded.
#[component]
pub fn PaddingPanel(
    /// The variants, whose cross-attention trace holds the second sentence's X.
    computed: Memo<Option<Result<Shared<Variants>, ModelError>>>,
) -> impl IntoView {
    let page = use_page();
    let head = page.pick(|s| s.lesson().head());
    // The map and the sentence each remake the (small) padded run: no memo type of their own.
    let spec = Memo::new(move |_| {
        let s = padded(page, computed)?.ok()?;
        let h = s.run.padded.head(head.get())?;
        Some(weights(h.weights.clone(), &s.labels, &s.labels, &s.run.padded.blocked))
    });
    let text = move || match padded(page, computed)? {
        // No second sentence to pad against: why (said under cross-attention too).
        Err(Unpadded::NoSecond(e)) => Some(model_error(page.lang.get(), &e)),
        Err(Unpadded::SameLength(n)) => Some(fill(page.t(ViewMsg::PaddingSameLength), &[("n", &n.to_string())])),
        Ok(s) => {
            let (m, n) = (s.run.real, s.labels.len());
            let values = [s.which, m, n, m + 1].map(|v| v.to_string());
            let diff = format!("{:.1e}", s.run.max_difference);
            let pairs = [
                ("which", values[0].as_str()),
                ("m", &values[1]),
                ("n", &values[2]),
                ("from", &values[3]),
                ("diff", &diff),
            ];
            Some(fill(page.t(ViewMsg::PaddingShown), &pairs))
        }
    };
    // The padding mask in PyTorch, with the lengths on screen.
    let code = move || {
        let s = padded(page, computed)?.ok()?;
        let (m, n) = (s.run.real, s.labels.len());
        let lengths = [n, m, n.saturating_sub(m)].map(|v| v.to_string());
        let pairs = [("n", lengths[0].as_str()), ("m", &lengths[1]), ("pad", &lengths[2])];
        Some(fill(Code::PaddingMask.template(), &pairs))
    };
    view! {
        <div class="panel-block" data-testid="padding-panel">
            <h3 class="view__subtitle">{page.text(ViewMsg::PaddingTitle)}</h3>
            <p class="view__text">{page.text(ViewMsg::PaddingText)}</p>
            <p class="view__text" data-testid="padding-reading">{text}</p>
            <PageMap spec=spec name=page.label(Msg::MatWeights) testid="heatmap-padding" />
            {move || code().map(|code| view! {
                <details class="stage-code" data-testid="padding-code">
                    <summary class="stage-code__title">{page.text(Msg::CodeTitle)}</summary>
                    <pre class="stage-code__text" lang="en" translate="no"><code>{code}</code></pre>
                </details>
            })}
        </div>
    }
}

/// Why nothing is padded.
enum Unpadded {
    /// Both sentences have this many tokens.
    SameLength(usize),
    /// There is no second sentence's X (why there is no cross-attention).
    NoSecond(ModelError),
}

/// The shorter sentence padded and run, from the outcome and the variants, whose
/// cross-attention trace holds the second sentence's X; or why nothing is padded.
fn padded(
    page: crate::app::page::Page,
    computed: Memo<Option<Result<Shared<Variants>, ModelError>>>,
) -> Option<Result<Shown, Unpadded>> {
    let v = computed.with(|v| v.as_ref()?.as_ref().ok().cloned())?;
    if let Some(e) = v.0.cross_error() {
        return Some(Err(Unpadded::NoSecond(e.clone())));
    }
    page.outcome.with(|o| {
        let o = &o.as_ref()?.0;
        let cross = v.0.trace(Variant::Cross)?;
        let (first, second) = (&o.trace().x, cross.x_kv.as_ref()?);
        let lengths = (first.nrows(), second.nrows());
        // The shorter sentence is the padded one; equal lengths need no padding.
        let (short, tokens, which) = match lengths.0.cmp(&lengths.1) {
            std::cmp::Ordering::Less => (first, &o.tokens, 1),
            std::cmp::Ordering::Greater => (second, &v.0.kv_tokens, 2),
            std::cmp::Ordering::Equal => return Some(Err(Unpadded::SameLength(lengths.0))),
        };
        let length = lengths.0.max(lengths.1);
        let cfg = o.encoding.options.attention(o.layer, o.trace().n_heads());
        let run = pad_and_run(short, length, o.projections(), &cfg).ok()?;
        let mut labels = tokens.clone();
        labels.resize(length, "[PAD]".into());
        Some(Ok(Shown { run, labels, which }))
    })
}
