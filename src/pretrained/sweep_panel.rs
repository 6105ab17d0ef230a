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
use crate::i18n::{fill, t, AblateMsg, Lang, ModelMsg};
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

/// The shade of `value` on a scale up to `max`: 0 (none) to 4 (the largest).
fn shade(value: f32, max: f32) -> usize {
    if max <= 0.0 || !value.is_finite() {
        return 0;
    }
    ((value / max * 4.0).ceil().clamp(0.0, 4.0)) as usize
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
            let cells = move |l: usize| {
                let row = grid[l].clone();
                row.into_iter()
                    .enumerate()
                    .map(|(h, v)| {
                        let label = fill(
                            tr(AblateMsg::SweepCell),
                            &[
                                ("layer", &(l + 1).to_string()),
                                ("head", &(h + 1).to_string()),
                                ("effect", &format!("{v:.4}")),
                            ],
                        );
                        view! {
                            <button type="button" class=format!("ablate-cell ablate-cell--{}", shade(v, largest))
                                data-testid="ablate-cell" data-layer=l + 1 data-head=h + 1 data-effect=format!("{v:.6}")
                                title=label.clone() aria-label=label
                                on:click=move |_| set.run(Ablation::one(l, h, replacement))>
                                {format!("{:.0}", v * 1000.0)}
                            </button>
                        }
                    })
                    .collect_view()
            };
            let rows = (0..layers).map(|l| {
                view! {
                    <div class="ablate__row" role="group">
                        <span class="ablate__layer">{t(lang, ModelMsg::Layer)} " " {l + 1}</span>
                        {cells(l)}
                    </div>
                }
            });
            view! {
                <p class="view__text" data-testid="ablate-sweep-found">{found}</p>
                <p class="stage__note">{tr(AblateMsg::SweepScale)}</p>
                <div class="ablate__board" data-testid="ablate-grid">{rows.collect_view()}</div>
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
    let rows = previous.into_iter().enumerate().map(|(l, row)| {
        let cells = row.into_iter().enumerate().map(move |(h, v)| {
            let label = fill(
                t(lang, AblateMsg::PreviousCell),
                &[("layer", &(l + 1).to_string()), ("head", &(h + 1).to_string()), ("weight", &format!("{v:.2}"))],
            );
            view! {
                <span class=format!("ablate-cell ablate-cell--{}", shade(v, 1.0)) data-testid="previous-cell"
                    data-layer=l + 1 data-head=h + 1 data-weight=format!("{v:.4}") title=label.clone() aria-label=label>
                    {format!("{:.0}", v * 100.0)}
                </span>
            }
        });
        view! {
            <div class="ablate__row">
                <span class="ablate__layer">{t(lang, ModelMsg::Layer)} " " {l + 1}</span>
                {cells.collect_view()}
            </div>
        }
    });
    view! {
        <p class="view__text">{t(lang, AblateMsg::PreviousIntro)}</p>
        <div class="ablate__board" data-testid="previous-grid">{rows.collect_view()}</div>
    }
}
