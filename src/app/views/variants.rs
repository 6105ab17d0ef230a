//! Self, causal and cross attention side by side for the same tokens and weights: the shared
//! outcome's own trace for the variant it is, and `core::variants` for the other two (a model
//! that reads one sentence shows the first two, and says in the third why it has none).

use crate::app::page::{use_page, Shared};
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::core::model::ModelError;
use crate::core::trace::Trace;
use crate::core::variants::{variants, Variant, Variants};
use crate::i18n::{model_error, Msg, ViewMsg};
use crate::ui::charts::PageMap;
use crate::ui::specs::weights;
use leptos::prelude::*;
use std::sync::Arc;

/// The three variants of the current sentence(s), one column each.
#[component]
pub fn VariantsView() -> impl IntoView {
    let page = use_page();
    let kv_text = page.pick(|s| s.lesson().kv_text().to_string());
    // The variants are computed by the model that made the outcome: while the lesson's
    // settings do not compute (the page shows why) or compute in the worker, the outcome on
    // screen is the last good one, maybe of another model, and the last good variants stay.
    let computed = Memo::new(move |last: Option<&Option<Result<Shared<Variants>, ModelError>>>| {
        if page.error.with(Option::is_some) || page.computing.get() {
            return last.cloned().flatten();
        }
        let model = page.model.get();
        page.outcome.with(|o| {
            o.as_ref().map(|Shared(o)| kv_text.with(|kv| variants(&*model.0, o, kv).map(|v| Shared(Arc::new(v)))))
        })
    });
    let error = move || computed.with(|c| c.as_ref().and_then(|c| c.as_ref().err().cloned()));
    view! {
        <section class="view" data-testid="view-variants">
            <h2 class="view__title">{page.text(ViewMsg::VariantsTitle)}</h2>
            <p class="view__text">{page.text(ViewMsg::VariantsIntro)}</p>
            {move || error().map(|e| view! { <p class="error" role="alert" data-testid="variants-error">{page.t(Msg::ComputeError)} ": " {model_error(page.lang.get(), &e)}</p> })}
            <div class="stage__grid stage__grid--three">
                <Column variant=Variant::SelfAttention computed=computed title=ViewMsg::SelfTitle text=ViewMsg::SelfText />
                <Column variant=Variant::Causal computed=computed title=ViewMsg::CausalTitle text=ViewMsg::CausalText />
                <Column variant=Variant::Cross computed=computed title=ViewMsg::CrossTitle text=ViewMsg::CrossText />
            </div>
            <super::padding::PaddingPanel computed=computed />
        </section>
    }
}

/// One variant: its explanation, (for causal) the mask, and its weights for the chosen head.
#[component]
fn Column(
    /// The variant to show.
    variant: Variant,
    /// The computed variants, or why they did not compute (`None` before the first outcome).
    computed: Memo<Option<Result<Shared<Variants>, ModelError>>>,
    /// Its title.
    title: ViewMsg,
    /// Its explanation.
    text: ViewMsg,
) -> impl IntoView {
    let page = use_page();
    let head = page.pick(|s| s.lesson().head());
    let tokens = page.tokens;
    let pick = move |f: fn(&Trace, usize, &[String], &[String]) -> Option<HeatmapSpec>| {
        Memo::new(move |_| {
            computed.with(|v| {
                let v = &v.as_ref()?.as_ref().ok()?.0;
                let trace = v.trace(variant)?;
                let columns = if variant.is_cross() { v.kv_tokens.clone() } else { tokens.get() };
                tokens.with(|t| f(trace, head.get(), t, &columns))
            })
        })
    };
    let a = pick(|t, h, rows, cols| Some(weights(t.head(h)?.weights.clone(), rows, cols, &t.blocked)));
    let mask = pick(|t, _, rows, cols| {
        Some(HeatmapSpec {
            values: t.blocked.mapv(|b| if b { 0.0 } else { 1.0 }),
            row_labels: rows.to_vec(),
            col_labels: cols.to_vec(),
            scale: Scale::Sequential { min: 0.0, max: 1.0 },
            blocked: Some(t.blocked.clone()),
        })
    });
    // Why this variant has no trace when the others have (cross-attention, for a model that
    // reads one sentence or a second sentence it cannot read).
    let missing =
        move || {
            let e = computed.with(|v| v.as_ref()?.as_ref().ok()?.0.cross_error().cloned())?;
            variant.is_cross().then(|| view! {
            <p class="error" role="alert" data-testid="variant-cross-error">{model_error(page.lang.get(), &e)}</p>
        })
        };
    view! {
        <div class="variant" data-testid=format!("variant-{}", variant.slug())>
            <h3 class="variant__title">{move || page.t(title)}</h3>
            <p class="variant__text">{move || page.t(text)}</p>
            {missing}
            {(variant == Variant::Causal).then(|| view! {
                <PageMap spec=mask name=Signal::stored("M".to_string()) testid="heatmap-mask" />
                <p class="stage__note">{page.text(ViewMsg::MaskLegend)}</p>
            })}
            <PageMap spec=a name=page.label(Msg::MatWeights) testid=match variant {
                Variant::SelfAttention => "heatmap-self",
                Variant::Causal => "heatmap-causal",
                Variant::Cross => "heatmap-cross",
            } />
        </div>
    }
}
