//! Every head of a pretrained model at once (as BertViz's model view): a layers × heads grid of
//! small weight maps for the sentence, one click opening a head in the lesson, and, for a model
//! whose sentences are framed by special tokens, a switch that hides them ([CLS] and [SEP], or
//! <s> and </s>), with what share of the weight each end takes per layer and, measured, from
//! which layer on the two ends are one sink.

use super::ablate_panel::AblatePanel;
use super::depth_view::{DepthTable, SameWordPanel};
use super::{computing_line, retry, settled, use_viewer};
use crate::bridge::with_pairs;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::draw_thumbnail;
use crate::core::ablate::Ablation;
use crate::core::ends::{end_share, ends_merge, frame_tokens, without_ends};
use crate::core::intervene::change;
use crate::core::model::{Encoding, RunOptions};
use crate::fetch::status::LoadStatus;
use crate::figures::resize::use_width;
use crate::hosted::open_link;
use crate::i18n::{fill, model_error, t, AblateMsg, ModelMsg, Msg};
use crate::settings::{Stage, View};
use crate::shared::Shared;
use crate::stage_texts::off_training;
use leptos::html::Canvas;
use leptos::prelude::*;
use std::sync::Arc;

/// Two ends' hidden states closer than this in every component count as one (float32 noise
/// after twelve layers is far below it; e5's ends differ by 0.1 and more before they merge).
const SAME_STATE: f32 = 1e-3;

/// The grid of heads, or the model's loading state until it is ready.
#[component]
pub fn ModelView() -> impl IntoView {
    let viewer = use_viewer();
    let tr = move |m: ModelMsg| t(viewer.lang, m);
    let hide = RwSignal::new(false);
    let show_change = RwSignal::new(false);
    // The model on the lesson's sentence, run as the lesson runs it with every head on; then
    // with the switched-off heads off, from the first layer that has one.
    let intact = Memo::new(move |_| {
        let model = viewer.model.get()?;
        let (input, options) = viewer.settings.with_value(|s| (s.input(&*model.0), s.run_options(&*model.0)));
        let options = RunOptions { ablation: Ablation::default(), ..options };
        settled(crate::timed!(Compute, model.0.forward(&input, &options)))
    });
    let computed = Memo::new(move |_| {
        let ablation = viewer.ablation.get();
        let model = viewer.model.get()?;
        let whole = intact.get()?;
        let Ok(Shared(whole)) = whole else { return Some(whole) };
        if ablation.is_empty() {
            return Some(Ok(Shared(whole)));
        }
        let input = viewer.settings.with_value(|s| s.input(&*model.0));
        let options = RunOptions { ablation, ..whole.options.clone() };
        settled(crate::timed!(Compute, model.0.ablated(&input, &whole, &options)))
    });
    // While a pass is computed in the worker, the last one shown stays.
    let encoding = Memo::new(move |shown: Option<&Option<Shared<Encoding>>>| match computed.get() {
        Some(Ok(e)) => Some(e),
        Some(Err(_)) => None,
        None => shown.cloned().flatten(),
    });
    let whole = Memo::new(move |_| intact.with(|e| e.as_ref().and_then(|r| r.as_ref().ok().cloned())));
    // What the switched-off heads changed, when any is off.
    let change = Memo::new(move |_| {
        let shown = encoding.get()?.0;
        let whole = whole.get()?.0;
        (!shown.options.ablation.is_empty()).then(|| Shared(Arc::new(change(&whole, &shown))))
    });
    let error =
        move || computed.with(|e| e.as_ref().and_then(|r| r.as_ref().err().map(|e| model_error(viewer.lang, e))));
    let framed = Memo::new(move |_| encoding.with(|e| e.as_ref().is_some_and(|e| e.0.shape.framed)));
    // The frame's two tokens, as this model writes them.
    let ends = Memo::new(move |_| encoding.with(|e| e.as_ref().map(|e| frame_tokens(&e.0)).unwrap_or_default()));
    let with_ends = move |m: ModelMsg, more: &[(&str, &str)]| {
        ends.with(|(first, last)| fill(tr(m), &[&[("first", first.as_str()), ("last", last.as_str())], more].concat()))
    };
    let shares = Memo::new(move |_| {
        encoding.with(|e| {
            e.as_ref().filter(|e| e.0.shape.framed).map(|Shared(e)| {
                let per_layer = end_share(e)
                    .into_iter()
                    .enumerate()
                    .map(|(l, (first, last))| format!("L{} {:.0} % / {:.0} %", l + 1, first * 100.0, last * 100.0));
                // Said only when a later layer sees the merged ends.
                let merged = ends_merge(e, SAME_STATE).filter(|(from, _)| from + 1 < e.layers.len());
                (per_layer.collect::<Vec<_>>().join(" · "), merged)
            })
        })
    });
    let intro = move || {
        encoding.with(|e| {
            let shape = e.as_ref().map(|e| e.0.shape.clone())?;
            let (layers, heads) = (shape.n_layers.to_string(), shape.n_heads.to_string());
            let name = shape.origin.name();
            Some(fill(tr(ModelMsg::ModelIntro), &[("model", name), ("layers", &layers), ("heads", &heads)]))
        })
    };
    view! {
        <p class="view__text" data-testid="model-intro">{intro}</p>
        {move || encoding.with(|e| {
            let e = &e.as_ref()?.0;
            let note = off_training(&e.shape, &e.layers.first()?.trace, viewer.lang)?;
            Some(view! { <p class="stage__note" data-testid="off-training">{note}</p> })
        })}
        <LoadStatus id="pretrained-status" state=viewer.load lang=viewer.lang retry=retry(viewer) />
        {computing_line(viewer, move || computed.with(Option::is_none))}
        {move || error().map(|e| view! {
            <p class="error" role="alert" data-testid="model-view-error">{t(viewer.lang, Msg::ComputeError)} ": " {e}</p>
        })}
        {move || shares.get().map(|(s, merged)| view! {
            <p class="view__text" data-testid="special-share">{with_ends(ModelMsg::SpecialShare, &[("shares", &s)])}</p>
            {merged.map(|(from, _)| {
                let (layer, gap) = ((from + 1).to_string(), SAME_STATE.to_string());
                view! { <p class="view__text" data-testid="special-merged">{with_ends(ModelMsg::SpecialMerged, &[("layer", &layer), ("gap", &gap)])}</p> }
            })}
        })}
        <Show when=move || framed.get()>
            <label class="toggle">
                <input type="checkbox" data-testid="hide-special" prop:checked=move || hide.get()
                    on:change=move |ev| hide.set(event_target_checked(&ev)) />
                {move || with_ends(ModelMsg::HideSpecial, &[])}
            </label>
        </Show>
        <Show when=move || hide.get()>
            <p class="stage__note">{move || with_ends(ModelMsg::SpecialHidden, &[])}</p>
        </Show>
        // The intact run to subtract, when the maps are drawn as their change from it.
        {move || {
            let against = (show_change.get() && change.with(Option::is_some)).then(|| whole.get()).flatten().map(|w| w.0);
            let largest = change.with(|c| c.as_ref().map_or(0.0, |c| c.0.weights.iter().flatten().fold(0.0f32, |m, v| m.max(*v))));
            let note = against.as_ref().map(|_| {
                let first = viewer.ablation.with_untracked(|a| a.first_layer().unwrap_or(0) + 1).to_string();
                fill(t(viewer.lang, AblateMsg::ChangeNote), &[("layer", &first), ("max", &format!("{largest:.3}"))])
            });
            encoding.get().map(|Shared(e)| view! {
                {note.map(|n| view! { <p class="stage__note" data-testid="ablate-change-note">{n}</p> })}
                <HeadGrid encoding=Arc::clone(&e) hide=hide against=against largest=largest />
                <DepthTable encoding=e />
            })
        }}
        // Made once the intact run is here (its model and sentence stay while the view is open),
        // so a switch keeps the keyboard's focus when the maps above are drawn again.
        {move || whole.get().zip(viewer.model.get()).map(|(e, m)| view! { <AblatePanel model=m intact=e change=change show_change=show_change /> })}
        <SameWordPanel />
    }
}

/// One button per layer × head, each with its thumbnail.
#[component]
fn HeadGrid(
    /// The model's forward pass on the sentence.
    encoding: Arc<Encoding>,
    /// The special tokens are hidden.
    hide: RwSignal<bool>,
    /// The intact run, when each map is drawn as its change from it.
    against: Option<Arc<Encoding>>,
    /// The largest change of any weight (the change's colour scale).
    largest: f32,
) -> impl IntoView {
    let viewer = use_viewer();
    // The head opens in the lesson's softmax stage, on this model: a link for the page.
    let open = move |layer: usize, head: usize| {
        let search = crate::hosted::address();
        let (layer, head) = ((layer + 1).to_string(), (head + 1).to_string());
        let pairs = [
            ("model", viewer.id.slug()),
            ("layer", &layer),
            ("head", &head),
            ("view", View::Lesson.slug()),
            ("stage", Stage::Softmax.slug()),
        ];
        open_link(&with_pairs(&search, &pairs));
    };
    // Every thumbnail is drawn at the first one's size, as CSS sets it (`--thumb`), observed:
    // once at first, again when the screen changes (a projector, a turned phone).
    let first = NodeRef::<Canvas>::new();
    let size = use_width(first);
    let rows = encoding.layers.iter().enumerate().map(|(l, layer)| {
        let thumbs = (0..layer.trace.n_heads()).map(|h| {
            let canvas = if (l, h) == (0, 0) { first } else { NodeRef::new() };
            let e = Arc::clone(&encoding);
            let against = against.clone();
            let label = fill(
                t(viewer.lang, ModelMsg::HeadCell),
                &[("layer", &(l + 1).to_string()), ("head", &(h + 1).to_string())],
            );
            let off = encoding.options.ablation.has(l, h);
            view! {
                <button type="button" class="model-grid__head" class:model-grid__head--off=off
                    data-testid=format!("model-head-{}-{}", l + 1, h + 1) data-off=off.to_string()
                    title=label.clone() aria-label=label on:click=move |_| open(l, h)>
                    <Thumb encoding=e against=against largest=largest layer=l head=h hide=hide canvas=canvas size=size />
                </button>
            }
        });
        view! {
            <div class="model-grid__row">
                <span class="model-grid__layer">{t(viewer.lang, ModelMsg::Layer)} " " {l + 1}</span>
                {thumbs.collect_view()}
            </div>
        }
    });
    // The grid's shape for its CSS (set through the DOM: the page's policy refuses inline styles).
    let grid = NodeRef::<leptos::html::Div>::new();
    let heads = encoding.layers.first().map_or(1, |l| l.trace.n_heads()).to_string();
    let layers = encoding.layers.len().to_string();
    Effect::new(move |_| {
        if let Some(el) = grid.get() {
            let style = web_sys::HtmlElement::style(&el);
            let _ = (style.set_property("--heads", &heads), style.set_property("--layers", &layers));
        }
    });
    // What the maps are of, for a reader of the page (the tests among them).
    let (tokens, mask) = (crate::core::model::Token::texts(&encoding.tokens).join(" "), encoding.options.mask.slug());
    view! {
        <div class="model-grid" node_ref=grid data-testid="model-grid" data-tokens=tokens data-mask=mask>
            {rows.collect_view()}
        </div>
    }
}

/// One head's weights, drawn small; redrawn when the ends are hidden or shown.
#[component]
fn Thumb(
    /// The forward pass.
    encoding: Arc<Encoding>,
    /// The intact run, when the map is drawn as its change from it.
    against: Option<Arc<Encoding>>,
    /// The change's colour scale: the largest change of any weight.
    largest: f32,
    /// The head's layer, 0-based.
    layer: usize,
    /// The head within its layer, 0-based.
    head: usize,
    /// The special tokens are hidden.
    hide: RwSignal<bool>,
    /// Its canvas.
    canvas: NodeRef<Canvas>,
    /// The side every thumbnail is drawn at, CSS px, once measured.
    size: RwSignal<Option<f64>>,
) -> impl IntoView {
    let maps = use_viewer().ink.maps;
    Effect::new(move |_| {
        let hidden = hide.get();
        let Some(size) = size.get().filter(|s| *s >= 1.0) else { return };
        let Some(canvas) = canvas.get() else { return };
        let weights = |e: &Encoding| {
            let w = &e.layers.get(layer)?.trace.head_traces.get(head)?.weights;
            Some(if hidden { without_ends(w) } else { w.clone() })
        };
        let Some(mut shown) = weights(&encoding) else { return };
        let mut scale = Scale::Sequential { min: 0.0, max: 1.0 };
        if let Some(intact) = against.as_ref().and_then(|a| weights(a)).filter(|w| w.dim() == shown.dim()) {
            shown -= &intact;
            scale = Scale::Diverging { max_abs: if largest > 0.0 { largest } else { 1.0 } };
        }
        if shown.is_empty() {
            return;
        }
        if let Err(e) = draw_thumbnail(&canvas, &shown, scale, maps, size) {
            leptos::logging::error!("{e}");
        }
        let _ = canvas.set_attribute("data-drawn", "true");
    });
    view! { <canvas node_ref=canvas class="model-grid__thumb"></canvas> }
}
