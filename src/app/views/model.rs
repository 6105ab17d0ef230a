//! Every head of a pretrained model at once (as BertViz's model view): a layers × heads grid of
//! small weight maps for the sentence, one click opening a head in the lesson, and, for a model
//! whose sentences are framed by special tokens, a switch that hides them ([CLS] and [SEP], and
//! says what share of the weight they take first).

use crate::app::controls::ModelStatus;
use crate::app::page::{use_page, Shared};
use crate::chart::colormap::Scale;
use crate::chart::heatmap::draw_thumbnail;
use crate::core::model::Encoding;
use crate::core::study::{end_share, without_ends};
use crate::i18n::{fill, ModelMsg};
use crate::models::VIEWED;
use crate::settings::{Stage, View};
use leptos::html::Canvas;
use leptos::prelude::*;
use std::sync::Arc;

/// The side of one thumbnail, CSS px.
const THUMB: f64 = 56.0;

/// The grid of heads, or the model's loading state until it is ready.
#[component]
pub fn ModelView() -> impl IntoView {
    let page = use_page();
    let hide = RwSignal::new(false);
    let encoding = Memo::new(move |_| page.viewed.with(|e| e.as_ref().and_then(|r| r.as_ref().ok().cloned())));
    let framed = Memo::new(move |_| encoding.with(|e| e.as_ref().is_some_and(|e| e.0.shape.framed)));
    let shares = Memo::new(move |_| {
        encoding.with(|e| {
            e.as_ref().filter(|e| e.0.shape.framed).map(|Shared(e)| {
                end_share(e)
                    .iter()
                    .enumerate()
                    .map(|(l, s)| format!("L{} {:.0} %", l + 1, s * 100.0))
                    .collect::<Vec<_>>()
            })
        })
    });
    view! {
        <section class="view" data-testid="view-model">
            <h2 class="view__title">{page.text(ModelMsg::ModelTitle)}</h2>
            <p class="view__text">{page.text(ModelMsg::ModelIntro)}</p>
            <ModelStatus id=VIEWED />
            {move || shares.get().map(|s| view! {
                <p class="view__text" data-testid="special-share">{fill(page.t(ModelMsg::SpecialShare), &[("shares", &s.join(" · "))])}</p>
            })}
            <Show when=move || framed.get()>
                <label class="toggle">
                    <input type="checkbox" data-testid="hide-special" prop:checked=move || hide.get()
                        on:change=move |ev| hide.set(event_target_checked(&ev)) />
                    {page.text(ModelMsg::HideSpecial)}
                </label>
            </Show>
            <Show when=move || hide.get()>
                <p class="stage__note">{page.text(ModelMsg::SpecialHidden)}</p>
            </Show>
            {move || encoding.get().map(|Shared(e)| view! { <HeadGrid encoding=e hide=hide /> })}
        </section>
    }
}

/// One button per layer × head, each with its thumbnail.
#[component]
fn HeadGrid(encoding: Arc<Encoding>, hide: RwSignal<bool>) -> impl IntoView {
    let page = use_page();
    let open = move |layer: usize, head: usize| {
        // The head opens where the lesson can show it (the sentence was this model's already).
        page.apply(|s, c| {
            let _ = s.set_model(VIEWED, c) && s.set_layer(layer, c) && s.set_head(head, c);
            s.set_view(View::Lesson);
            s.lesson_mut().set_stage(Stage::Softmax);
            true
        });
    };
    let rows = encoding.layers.iter().enumerate().map(|(l, layer)| {
        let thumbs = (0..layer.trace.n_heads()).map(|h| {
            let e = Arc::clone(&encoding);
            let label = move || {
                fill(page.t(ModelMsg::HeadCell), &[("layer", &(l + 1).to_string()), ("head", &(h + 1).to_string())])
            };
            view! {
                <button type="button" class="model-grid__head" data-testid=format!("model-head-{}-{}", l + 1, h + 1)
                    title=label aria-label=label on:click=move |_| open(l, h)>
                    <Thumb encoding=e layer=l head=h hide=hide />
                </button>
            }
        });
        view! {
            <div class="model-grid__row">
                <span class="model-grid__layer">{move || page.t(ModelMsg::Layer)} " " {l + 1}</span>
                {thumbs.collect_view()}
            </div>
        }
    });
    view! { <div class="model-grid">{rows.collect_view()}</div> }
}

/// One head's weights, drawn small; redrawn when the ends are hidden or shown.
#[component]
fn Thumb(encoding: Arc<Encoding>, layer: usize, head: usize, hide: RwSignal<bool>) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let page = use_page();
    Effect::new(move |_| {
        let (hidden, maps) = (hide.get(), page.ink.get().maps);
        let Some(canvas) = canvas.get() else { return };
        let Some(w) = encoding.layers.get(layer).and_then(|l| l.trace.head_traces.get(head)).map(|h| &h.weights) else {
            return;
        };
        let shown = if hidden { without_ends(w) } else { w.clone() };
        if shown.is_empty() {
            return;
        }
        if let Err(e) = draw_thumbnail(&canvas, &shown, Scale::Sequential { min: 0.0, max: 1.0 }, maps, THUMB) {
            leptos::logging::error!("{e}");
        }
        let _ = canvas.set_attribute("data-drawn", "true");
    });
    view! { <canvas node_ref=canvas class="model-grid__thumb"></canvas> }
}
