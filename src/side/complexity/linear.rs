//! Linear attention next to softmax attention for the same Q and K of the chosen head: the
//! weights each implies, and a check that the O(n) way gives the direct way's output.

use crate::chart::heatmap::HeatmapSpec;
use crate::core::linear::linear_head;
use crate::i18n::{Msg, ViewMsg};
use crate::side::handover::use_handed;
use crate::stage_texts::linear_texts;
use crate::ui::charts::PageMap;
use crate::ui::specs::weights;
use crate::ui::use_lesson_state;
use leptos::prelude::*;

/// Both maps, the check's largest difference, and the two sentences about them.
type Compared = (HeatmapSpec, HeatmapSpec, f32, [String; 2]);

/// Softmax weights, linear-attention weights, and the agreement check.
#[component]
pub fn LinearPanel() -> impl IntoView {
    let page = use_lesson_state();
    let head = use_handed().head;
    // Both maps and the check from one linear-attention run, with the trace's own mask.
    let compared = Memo::new(move |_| {
        page.outcome.with(|o| {
            let o = &o.as_ref()?.0;
            let h = o.trace().head(head.get())?;
            let check = linear_head(h, o.trace().mask);
            let texts = linear_texts(o.trace(), h, &check.weights, page.lang.get());
            let soft = weights(h.weights.clone(), &o.tokens, &o.kv_tokens, &o.trace().blocked);
            let lin = weights(check.weights, &o.tokens, &o.kv_tokens, &o.trace().blocked);
            Some((soft, lin, check.max_error, texts))
        })
    });
    let map = move |pick: fn(&Compared) -> &HeatmapSpec| {
        Memo::new(move |_| compared.with(|c| c.as_ref().map(|c| pick(c).clone())))
    };
    let (soft, lin) = (map(|c| &c.0), map(|c| &c.1));
    let error = move || compared.with(|c| c.as_ref().map_or_else(|| "—".into(), |c| format!("{:.1e}", c.2)));
    view! {
        <div class="panel-block" data-testid="linear-panel">
            <h3 class="view__subtitle">{page.text(ViewMsg::LinearTitle)}</h3>
            {move || compared.with(|c| c.as_ref().map(|c| c.3.clone())).unwrap_or_default().map(|l| view! { <p class="view__text" data-testid="linear-text">{l}</p> })}
            <dl class="readouts">
                <div class="readouts__item">
                    <dt>{page.text(ViewMsg::LinearError)}</dt>
                    <dd data-testid="linear-max-error">{error}</dd>
                </div>
            </dl>
            <div class="stage__grid">
                <PageMap spec=soft name=page.label(Msg::MatWeights) testid="heatmap-softmax-compare" />
                <PageMap spec=lin name=page.label(ViewMsg::LinearWeights) testid="heatmap-linear" />
            </div>
        </div>
    }
}
