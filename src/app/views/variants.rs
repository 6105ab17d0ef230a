//! Self, causal and cross attention side by side for the same tokens: three real
//! computations that differ only in where K and V come from and which pairs are blocked.

use crate::app::heatmap::Heatmap;
use crate::app::specs::{caption, weights};
use crate::app::state::use_lab;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::core::attention::Mask;
use crate::core::scenario::{compute, Outcome};
use crate::i18n::{Msg, ViewMsg};
use crate::settings::MAX_TOKENS;
use leptos::prelude::*;

/// Which variant a column shows.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Variant {
    SelfAttention,
    Causal,
    Cross,
}

/// The three variants of the current sentence(s), one column each.
#[component]
pub fn VariantsView() -> impl IntoView {
    let lab = use_lab();
    view! {
        <section class="view" data-testid="view-variants">
            <h2 class="view__title">{lab.text(ViewMsg::VariantsTitle)}</h2>
            <p class="view__text">{lab.text(ViewMsg::VariantsIntro)}</p>
            <div class="stage__grid stage__grid--three">
                <Column variant=Variant::SelfAttention title=ViewMsg::SelfTitle text=ViewMsg::SelfText />
                <Column variant=Variant::Causal title=ViewMsg::CausalTitle text=ViewMsg::CausalText />
                <Column variant=Variant::Cross title=ViewMsg::CrossTitle text=ViewMsg::CrossText />
            </div>
        </section>
    }
}

/// One variant: its explanation, (for causal) the mask, and its weights for the chosen head.
#[component]
fn Column(
    /// The variant to compute.
    variant: Variant,
    /// Its title.
    title: ViewMsg,
    /// Its explanation.
    text: ViewMsg,
) -> impl IntoView {
    let lab = use_lab();
    let scenario = Memo::new(move |_| {
        lab.settings.with(|s| {
            let mut sc = s.scenario();
            sc.mask = if variant == Variant::Causal { Mask::Causal } else { Mask::None };
            sc.kv_text = (variant == Variant::Cross).then(|| s.kv_text.clone());
            sc
        })
    });
    let head = lab.pick(|s| s.head);
    let outcome = Memo::new(move |_| scenario.with(|sc| compute(sc, MAX_TOKENS).ok()));
    let pick = move |f: fn(&Outcome, usize) -> HeatmapSpec| {
        Memo::new(move |_| outcome.with(|o| o.as_ref().map(|o| f(o, head.get().min(o.trace.heads.len() - 1)))))
    };
    let a = pick(|o, h| weights(o.trace.heads[h].weights.clone(), &o.tokens, &o.kv_tokens, &o.trace.blocked));
    let mask = pick(|o, _| HeatmapSpec {
        values: o.trace.blocked.mapv(|b| if b { 0.0 } else { 1.0 }),
        row_labels: o.tokens.clone(),
        col_labels: o.kv_tokens.clone(),
        scale: Scale::Sequential { min: 0.0, max: 1.0 },
        blocked: Some(o.trace.blocked.clone()),
    });
    let captioned = move |spec: Memo<Option<HeatmapSpec>>, name: &'static str| {
        Signal::derive(move || spec.with(|s| s.as_ref().map(|s| caption(name, s.values.dim())).unwrap_or_default()))
    };
    let weights_name = Signal::derive(move || caption(lab.t(Msg::MatWeights), a.with(|s| s.as_ref().map_or((0, 0), |s| s.values.dim()))));
    let slug = match variant {
        Variant::SelfAttention => "self",
        Variant::Causal => "causal",
        Variant::Cross => "cross",
    };
    view! {
        <div class="variant" data-testid=format!("variant-{slug}")>
            <h3 class="variant__title">{move || lab.t(title)}</h3>
            <p class="variant__text">{move || lab.t(text)}</p>
            {(variant == Variant::Causal).then(|| view! {
                <Heatmap spec=mask caption=captioned(mask, "M") testid="heatmap-mask" />
                <p class="stage__note">{lab.text(ViewMsg::MaskLegend)}</p>
            })}
            <Heatmap spec=a caption=weights_name testid=match variant {
                Variant::SelfAttention => "heatmap-self",
                Variant::Causal => "heatmap-causal",
                Variant::Cross => "heatmap-cross",
            } />
        </div>
    }
}
