//! Head patterns built from explicit weights (see `core::patterns`): the four patterns side by
//! side, and for the chosen one the input and the W_Q, W_K that produce it.

use crate::app::controls::TokenOptions;
use crate::app::page::use_page;
use crate::chart::heatmap::HeatmapSpec;
use crate::core::patterns::{build, Pattern, PatternHead};
use crate::i18n::{Msg, ViewMsg};
use crate::ui::charts::PageMap;
use crate::ui::specs::{indices, signed, weights};
use leptos::prelude::*;

/// The catalogue name and explanation of a pattern.
fn names(p: Pattern) -> (ViewMsg, ViewMsg) {
    match p {
        Pattern::PreviousToken => (ViewMsg::PatPrev, ViewMsg::PatPrevText),
        Pattern::Local => (ViewMsg::PatLocal, ViewMsg::PatLocalText),
        Pattern::Broadcast => (ViewMsg::PatBroadcast, ViewMsg::PatBroadcastText),
        Pattern::Sparse => (ViewMsg::PatSparse, ViewMsg::PatSparseText),
    }
}

/// The four constructed heads and the weights of the chosen one.
#[component]
pub fn PatternsView() -> impl IntoView {
    let page = use_page();
    let tokens = page.tokens;
    let seed = page.pick(|s| s.choice().random().seed);
    let anchor = page.pick(|s| s.patterns().anchor());
    let (chosen, set_chosen) = signal(Pattern::PreviousToken);
    let head_of = move |p: Pattern| Memo::new(move |_| tokens.with(|t| build(p, t, seed.get(), anchor.get()).ok()));
    let heads: [Memo<Option<PatternHead>>; 4] = Pattern::ALL.map(head_of);
    let chosen_head = move || heads[chosen.get().index()];
    let detail = move |f: fn(&PatternHead, &[String]) -> HeatmapSpec| {
        Memo::new(move |_| chosen_head().with(|h| h.as_ref().map(|h| tokens.with(|t| f(h, t)))))
    };
    let x = detail(|h, t| signed(h.x.clone(), t, indices(h.x.ncols())));
    let w_q = detail(|h, _| signed(h.w_q.clone(), &indices(h.w_q.nrows()), indices(h.w_q.ncols())));
    let w_k = detail(|h, _| signed(h.w_k.clone(), &indices(h.w_k.nrows()), indices(h.w_k.ncols())));

    view! {
        <section class="view" data-testid="view-patterns">
            <h2 class="view__title">{page.text(ViewMsg::PatternsTitle)}</h2>
            <p class="view__text">{page.text(ViewMsg::PatternsIntro)}</p>
            <p class="stage__note">{page.text(ViewMsg::PatternsWidth)}</p>
            <div class="field field--row view__narrow">
                <label class="field__label" for="anchor">{page.text(ViewMsg::PatAnchor)}</label>
                <select id="anchor" data-testid="pattern-anchor" prop:value=move || anchor.get().to_string()
                    on:change=move |ev| { if let Ok(a) = event_target_value(&ev).parse::<usize>() { page.apply(|s, c| s.set_anchor(a, c)); } }>
                    <TokenOptions selected=anchor />
                </select>
            </div>
            <div class="stage__heads stage__heads--pairs">
                {Pattern::ALL.into_iter().zip(heads).map(|(p, head)| {
                    let (name, text) = names(p);
                    let spec = Memo::new(move |_| head.with(|h| h.as_ref().map(|h| tokens.with(|t| weights(h.head.weights.clone(), t, t, &ndarray::Array2::from_elem(h.head.weights.dim(), false))))));
                    view! {
                        <div class="pattern" data-testid=format!("pattern-{}", p.slug())>
                            <PageMap spec=spec name=page.label(name) testid="heatmap-pattern" file=format!("pattern-{}", p.slug()) />
                            <p class="pattern__text">{move || page.t(text)}</p>
                            <button type="button" class="button" aria-pressed=move || (chosen.get() == p).to_string()
                                data-testid=format!("pattern-show-{}", p.slug()) on:click=move |_| set_chosen.set(p)>
                                {page.text(ViewMsg::PatShowWeights)}
                            </button>
                        </div>
                    }
                }).collect_view()}
            </div>
            <h3 class="view__subtitle">{move || page.t(names(chosen.get()).0)}</h3>
            <div class="stage__grid stage__grid--three">
                <PageMap spec=x name=page.label(Msg::MatInput) testid="heatmap-pattern-x" />
                <PageMap spec=w_q name=Signal::stored("W_Q".to_string()) testid="heatmap-pattern-wq" />
                <PageMap spec=w_k name=Signal::stored("W_K".to_string()) testid="heatmap-pattern-wk" />
            </div>
            // After the figures: the kinds trained models have beyond these.
            <p class="view__text">{page.text(ViewMsg::PatternsBeyond)}</p>
        </section>
    }
}
