//! The head-importance sweep of the model view: every head switched off alone in turn, each
//! scored by how far it moves the final representations (the mean of 1 − cosine over the
//! tokens), drawn as a layers × heads grid beside the weight each head puts on the previous
//! token, so a strong map with a small effect (or the reverse) is there to see. It runs in
//! slices of one head, yielding to the browser between them, with a progress bar; a cell opens
//! that head switched off alone.

use super::use_viewer;
use crate::core::ablate::{Ablation, Replacement};
use crate::core::intervene::{change, previous_token_weight};
use crate::core::model::{Encoding, Input, Model, RunOptions};
use crate::figures::heads::{HeadValues, Measure};
use crate::i18n::{fill, t, AblateMsg, Lang};
use crate::shared::Shared;
use crate::stage_texts::replacement_name;
use leptos::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use wasm_bindgen_futures::JsFuture;

/// Let the browser paint and answer input before the next head.
async fn yield_to_browser() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback(&resolve);
    });
    let _ = JsFuture::from(promise).await;
}

/// The sweep's button, its progress, and the two grids once it has run.
#[component]
pub fn SweepPanel(
    /// The viewed model.
    model: Shared<dyn Model>,
    /// Its run on the sentence with every head on.
    intact: Shared<Encoding>,
    /// What a click on a cell switches off (that head alone).
    set: Callback<Ablation>,
) -> impl IntoView {
    let viewer = use_viewer();
    let lang = viewer.lang;
    let tr = move |m: AblateMsg| t(lang, m);
    let (layers, heads) = (intact.0.layers.len(), intact.0.layers.first().map_or(0, |l| l.trace.n_heads()));
    let progress = RwSignal::new(None::<(usize, usize)>);
    let effects = RwSignal::new(None::<(Replacement, Vec<Vec<f32>>)>);
    let previous = previous_token_weight(&intact.0);
    // Closing the view stops a sweep under way.
    let alive = Arc::new(AtomicBool::new(true));
    let on_close = Arc::clone(&alive);
    on_cleanup(move || on_close.store(false, Ordering::Relaxed));
    let input: Input = viewer.settings.with_value(|s| s.input(&*model.0));
    let (m, whole) = (Arc::clone(&model.0), Arc::clone(&intact.0));
    let run = move |_| {
        if progress.get_untracked().is_some() {
            return;
        }
        let replacement = viewer.ablation.with_untracked(|a| a.replacement);
        let (m, whole, input, alive) = (Arc::clone(&m), Arc::clone(&whole), input.clone(), Arc::clone(&alive));
        progress.set(Some((0, layers * heads)));
        leptos::task::spawn_local(async move {
            let mut grid = vec![vec![0.0f32; heads]; layers];
            for (l, row) in grid.iter_mut().enumerate() {
                for (h, cell) in row.iter_mut().enumerate() {
                    if !alive.load(Ordering::Relaxed) {
                        return;
                    }
                    let options = RunOptions { ablation: Ablation::one(l, h, replacement), ..whole.options.clone() };
                    *cell = match m.ablated(&input, &whole, &options) {
                        Ok(off) => change(&whole, &off).mean_final_change(),
                        Err(_) => f32::NAN,
                    };
                    progress.try_set(Some((l * heads + h + 1, layers * heads)));
                    yield_to_browser().await;
                }
            }
            effects.try_set(Some((replacement, grid)));
            progress.try_set(None);
        });
    };
    let bar = move || {
        progress.get().map(|(done, all)| {
            let line = fill(tr(AblateMsg::SweepProgress), &[("done", &done.to_string()), ("all", &all.to_string())]);
            view! {
                <div class="model-progress" data-testid="ablate-sweep-progress">
                    <progress max=all.to_string() value=done.to_string()></progress>
                    <span>{line}</span>
                </div>
            }
        })
    };
    let grids = move || {
        effects.get().map(|(replacement, grid)| {
            let mode = replacement_name(replacement, lang);
            let largest = grid.iter().flatten().copied().filter(|v| v.is_finite()).fold(0.0f32, f32::max);
            let top = grid
                .iter()
                .enumerate()
                .flat_map(|(l, row)| row.iter().enumerate().map(move |(h, v)| (l, h, *v)))
                .filter(|(_, _, v)| v.is_finite())
                .max_by(|a, b| a.2.total_cmp(&b.2));
            let found = top.map(|(l, h, v)| {
                let (layer, head, value) = ((l + 1).to_string(), (h + 1).to_string(), format!("{v:.4}"));
                fill(
                    tr(AblateMsg::SweepFound),
                    &[("layer", &layer), ("head", &head), ("effect", &value), ("mode", mode)],
                )
            });
            let label = move |(l, h, v): (usize, usize, f32)| {
                let (layer, head, effect) = ((l + 1).to_string(), (h + 1).to_string(), format!("{v:.4}"));
                fill(tr(AblateMsg::SweepCell), &[("layer", &layer), ("head", &head), ("effect", &effect)])
            };
            let pick = move |(l, h): (usize, usize)| set.run(Ablation::one(l, h, replacement));
            view! {
                <p class="view__text" data-testid="ablate-sweep-found">{found}</p>
                <p class="stage__note">{tr(AblateMsg::SweepScale)}</p>
                <HeadValues values=grid max=largest measure=Measure::Effect testid="ablate-grid" cell_testid="ablate-cell"
                    text=|v| format!("{:.0}", v * 1000.0) label=Callback::new(label) pick=Callback::new(pick) lang=lang />
            }
        })
    };
    view! {
        <div class="ablate__sweep">
            <h4 class="view__subtitle">{tr(AblateMsg::SweepTitle)}</h4>
            <p class="view__text">{tr(AblateMsg::SweepIntro)}</p>
            <button type="button" class="button" data-testid="ablate-sweep"
                disabled=move || progress.with(Option::is_some) on:click=run>{tr(AblateMsg::SweepRun)}</button>
            {bar}
            {grids}
            <PreviousGrid previous=previous lang=lang />
        </div>
    }
}

/// The weight each head puts on the token just before the query: what a previous-token head
/// is named for, beside what switching it off does.
#[component]
fn PreviousGrid(previous: Vec<Vec<f32>>, lang: Lang) -> impl IntoView {
    let label = move |(l, h, v): (usize, usize, f32)| {
        let (layer, head, weight) = ((l + 1).to_string(), (h + 1).to_string(), format!("{v:.2}"));
        fill(t(lang, AblateMsg::PreviousCell), &[("layer", &layer), ("head", &head), ("weight", &weight)])
    };
    view! {
        <p class="view__text">{t(lang, AblateMsg::PreviousIntro)}</p>
        <HeadValues values=previous max=1.0 measure=Measure::Weight testid="previous-grid" cell_testid="previous-cell"
            text=|v| format!("{:.0}", v * 100.0) label=Callback::new(label) lang=lang />
    }
}
