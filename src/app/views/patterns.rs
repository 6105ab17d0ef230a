//! Head patterns built from explicit weights (see `core::patterns`): the four patterns side by
//! side, and for the chosen one the input and the W_Q, W_K that produce it.

use crate::app::heatmap::Heatmap;
use crate::app::specs::{caption, indices, signed, weights};
use crate::app::state::use_lab;
use crate::chart::heatmap::HeatmapSpec;
use crate::core::patterns::{build, Pattern, PatternHead};
use crate::i18n::{Msg, ViewMsg};
use leptos::prelude::*;

fn names(p: Pattern) -> (ViewMsg, ViewMsg, &'static str) {
    match p {
        Pattern::PreviousToken => (ViewMsg::PatPrev, ViewMsg::PatPrevText, "previous"),
        Pattern::Local => (ViewMsg::PatLocal, ViewMsg::PatLocalText, "local"),
        Pattern::Broadcast => (ViewMsg::PatBroadcast, ViewMsg::PatBroadcastText, "broadcast"),
        Pattern::Sparse => (ViewMsg::PatSparse, ViewMsg::PatSparseText, "sparse"),
    }
}

/// The four constructed heads and the weights of the chosen one.
#[component]
pub fn PatternsView() -> impl IntoView {
    let lab = use_lab();
    let tokens = lab.tokens;
    let seed = lab.pick(|s| s.seed);
    let anchor = lab.pick(|s| s.anchor);
    let (chosen, set_chosen) = signal(Pattern::PreviousToken);
    let head_of = move |p: Pattern| Memo::new(move |_| tokens.with(|t| build(p, t, seed.get(), anchor.get()).ok()));
    let heads: [Memo<Option<PatternHead>>; 4] = Pattern::ALL.map(head_of);
    let chosen_head = move || heads[Pattern::ALL.iter().position(|p| *p == chosen.get()).unwrap_or(0)];
    let detail = move |f: fn(&PatternHead, &[String]) -> HeatmapSpec| {
        Memo::new(move |_| chosen_head().with(|h| h.as_ref().map(|h| tokens.with(|t| f(h, t)))))
    };
    let x = detail(|h, t| signed(h.x.clone(), t, indices(h.x.ncols())));
    let w_q = detail(|h, _| signed(h.w_q.clone(), &indices(h.w_q.nrows()), indices(h.w_q.ncols())));
    let w_k = detail(|h, _| signed(h.w_k.clone(), &indices(h.w_k.nrows()), indices(h.w_k.ncols())));
    let cap = move |spec: Memo<Option<HeatmapSpec>>, name: &'static str| {
        Signal::derive(move || spec.with(|s| s.as_ref().map(|s| caption(name, s.values.dim())).unwrap_or_default()))
    };

    view! {
        <section class="view" data-testid="view-patterns">
            <h2 class="view__title">{lab.text(ViewMsg::PatternsTitle)}</h2>
            <p class="view__text">{lab.text(ViewMsg::PatternsIntro)}</p>
            <p class="stage__note">{lab.text(ViewMsg::PatternsWidth)}</p>
            <div class="field field--row view__narrow">
                <label class="field__label" for="anchor">{lab.text(ViewMsg::PatAnchor)}</label>
                <select id="anchor" data-testid="pattern-anchor" prop:value=move || anchor.get().to_string()
                    on:change=move |ev| { if let Ok(a) = event_target_value(&ev).parse::<usize>() { lab.settings.update(|s| s.anchor = a) } }>
                    {move || tokens.get().into_iter().enumerate().map(|(i, t)| view! {
                        <option value=i.to_string() selected=i == anchor.get_untracked()>{format!("{}. {t}", i + 1)}</option>
                    }).collect_view()}
                </select>
            </div>
            <div class="stage__heads stage__heads--pairs">
                {Pattern::ALL.into_iter().zip(heads).map(|(p, head)| {
                    let (name, text, slug) = names(p);
                    let spec = Memo::new(move |_| head.with(|h| h.as_ref().map(|h| tokens.with(|t| weights(h.head.weights.clone(), t, t, &ndarray::Array2::from_elem(h.head.weights.dim(), false))))));
                    let title = Signal::derive(move || spec.with(|s| s.as_ref().map(|s| caption(lab.t(name), s.values.dim())).unwrap_or_default()));
                    view! {
                        <div class="pattern" data-testid=format!("pattern-{slug}")>
                            <Heatmap spec=spec caption=title testid="heatmap-pattern" />
                            <p class="pattern__text">{move || lab.t(text)}</p>
                            <button type="button" class="button" aria-pressed=move || (chosen.get() == p).to_string()
                                data-testid=format!("pattern-show-{slug}") on:click=move |_| set_chosen.set(p)>
                                {lab.text(ViewMsg::PatShowWeights)}
                            </button>
                        </div>
                    }
                }).collect_view()}
            </div>
            <h3 class="view__subtitle">{move || lab.t(names(chosen.get()).0)}</h3>
            <div class="stage__grid stage__grid--three">
                <Heatmap spec=x caption=Signal::derive(move || caption(lab.t(Msg::MatInput), x.with(|s| s.as_ref().map_or((0, 0), |s| s.values.dim())))) testid="heatmap-pattern-x" />
                <Heatmap spec=w_q caption=cap(w_q, "W_Q") testid="heatmap-pattern-wq" />
                <Heatmap spec=w_k caption=cap(w_k, "W_K") testid="heatmap-pattern-wk" />
            </div>
        </section>
    }
}
