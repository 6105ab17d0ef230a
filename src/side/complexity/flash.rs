//! FlashAttention made visible: the current head computed tile by tile by the core's online
//! softmax, step by step, with the running max and sum of the rows in the current tile.

use crate::core::flash::{tile_head, TiledCheck};
use crate::i18n::{fill, ViewMsg};
use crate::number::{show, Room};
use crate::settings::TILE_CHOICES;
use crate::side::handover::use_handed;
use crate::ui::charts::PageMap;
use crate::ui::specs::signed;
use crate::ui::use_lesson_state;
use leptos::prelude::*;
use std::time::Duration;

/// What the panel shows: the check, and the head's scores with their labels.
#[derive(Debug, Clone, PartialEq)]
struct Run {
    check: TiledCheck,
    /// The head's scaled scores: (n_q, n_kv).
    scaled: ndarray::Array2<f32>,
    tokens: Vec<String>,
    kv_tokens: Vec<String>,
}

/// The tiled computation of the chosen head and its animation.
#[component]
pub fn FlashPanel() -> impl IntoView {
    let page = use_lesson_state();
    let tile = page.pick(|s| s.cost().tile());
    let head = use_handed().head;
    // The chosen head tiled with the trace's own mask, scaling and temperature, checked
    // against it, and what the heatmap shows.
    let run = Memo::new(move |_| {
        page.outcome.with(|o| {
            let o = &o.as_ref()?.0;
            let h = o.trace().head(head.get())?;
            Some(Run {
                check: tile_head(o.trace(), h, tile.get()),
                scaled: h.scaled_scores.clone(),
                tokens: o.tokens.clone(),
                kv_tokens: o.kv_tokens.clone(),
            })
        })
    });
    let steps = Memo::new(move |_| run.with(|r| r.as_ref().map_or(0, |r| r.check.tiled.steps.len())));
    let (step, set_step) = signal(0usize);
    // A new computation starts the animation over.
    Effect::new(move |_| {
        steps.track();
        set_step.set(0);
    });
    let (playing, set_playing) = signal(false);
    let timer = StoredValue::new(None::<IntervalHandle>);
    let stop = move || {
        if let Some(h) = timer.get_value() {
            h.clear();
        }
        timer.set_value(None);
        set_playing.set(false);
    };
    let play = move |_| {
        if playing.get_untracked() {
            stop();
            return;
        }
        if step.get_untracked() + 1 >= steps.get_untracked() {
            set_step.set(0);
        }
        let handle = set_interval_with_handle(
            move || {
                if step.get_untracked() + 1 < steps.get_untracked() {
                    set_step.update(|s| *s += 1);
                } else if let Some(h) = timer.get_value() {
                    h.clear();
                    timer.set_value(None);
                    set_playing.set(false);
                }
            },
            Duration::from_millis(700),
        );
        if let Ok(h) = handle {
            timer.set_value(Some(h));
            set_playing.set(true);
        }
    };
    on_cleanup(move || {
        if let Some(h) = timer.get_value() {
            h.clear();
        }
    });

    // The scores computed up to this step; the rest greyed out.
    let spec = Memo::new(move |_| {
        run.with(|r| {
            r.as_ref().map(|Run { check, scaled, tokens, kv_tokens }| {
                let t = &check.tiled;
                let mut spec = signed(scaled.clone(), tokens, kv_tokens.clone());
                let upto = &t.steps[..(step.get() + 1).min(t.steps.len())];
                let done = |i: usize, j: usize| {
                    upto.iter().any(|s| (s.rows.0..s.rows.1).contains(&i) && (s.cols.0..s.cols.1).contains(&j))
                };
                spec.blocked = Some(ndarray::Array2::from_shape_fn(scaled.dim(), |(i, j)| !done(i, j)));
                spec
            })
        })
    });
    let current = move || run.with(|r| r.as_ref().and_then(|r| r.check.tiled.steps.get(step.get()).cloned()));
    let step_text = move || {
        current().map(|s| {
            fill(
                page.t(ViewMsg::FlashStep),
                &[
                    ("i", &(step.get() + 1).to_string()),
                    ("n", &steps.get().to_string()),
                    ("r0", &(s.rows.0 + 1).to_string()),
                    ("r1", &s.rows.1.to_string()),
                    ("c0", &(s.cols.0 + 1).to_string()),
                    ("c1", &s.cols.1.to_string()),
                ],
            )
        })
    };

    view! {
        <div class="panel-block" data-testid="flash-panel">
            <h3 class="view__subtitle">{page.text(ViewMsg::FlashTitle)}</h3>
            <p class="view__text">{page.text(ViewMsg::FlashText)}</p>
            <div class="view__controls view__controls--inline">
                <label class="field__label" for="tile">{page.text(ViewMsg::FlashTile)}</label>
                <select id="tile" data-testid="flash-tile" prop:value=move || tile.get().to_string()
                    on:change=move |ev| { if let Ok(t) = event_target_value(&ev).parse::<usize>() { stop(); page.apply(|s, _| s.cost_mut().set_tile(t)); } }>
                    {TILE_CHOICES.map(|t| view! { <option value=t.to_string()>{format!("{t} × {t}")}</option> })}
                </select>
                <button type="button" class="button" data-testid="flash-prev" disabled=move || { step.get() == 0 }
                    on:click=move |_| { stop(); set_step.update(|s| *s = s.saturating_sub(1)) }>"◀"</button>
                <button type="button" class="button button--primary" data-testid="flash-play" on:click=play>
                    {move || page.t(if playing.get() { ViewMsg::FlashPause } else { ViewMsg::FlashPlay })}
                </button>
                <button type="button" class="button" data-testid="flash-next" disabled=move || { step.get() + 1 >= steps.get() }
                    on:click=move |_| { stop(); set_step.update(|s| *s += 1) }>"▶"</button>
            </div>
            <p class="stage__stat" data-testid="flash-step" aria-live="polite">{step_text}</p>
            <dl class="readouts">
                <div class="readouts__item">
                    <dt>{page.text(ViewMsg::FlashError)}</dt>
                    <dd data-testid="flash-max-error">{move || run.with(|r| r.as_ref().map_or_else(|| "—".into(), |r| format!("{:.1e}", r.check.max_error)))}</dd>
                </div>
                <div class="readouts__item">
                    <dt>{move || run.with(|r| r.as_ref().map(|r| fill(page.t(ViewMsg::FlashPeak), &[("tile", &r.check.tiled.peak_scores.to_string()), ("full", &r.scaled.len().to_string())])))}</dt>
                </div>
            </dl>
            <div class="stage__grid">
                <PageMap spec=spec name=page.label(ViewMsg::FlashScores) testid="heatmap-flash" />
                <table class="running" data-testid="flash-running">
                    <thead><tr><th>{page.text(ViewMsg::FlashRows)}</th><th>"m"</th><th>"l"</th></tr></thead>
                    <tbody>
                        {move || current().map(|s| (s.rows.0..s.rows.1).zip(s.running_max.iter().zip(&s.running_sum)).map(|(i, (m, l))| view! {
                            <tr><td>{i + 1}</td><td>{if m.is_finite() { show(*m, Room::Reading) } else { "−∞".into() }}</td><td>{show(*l, Room::Reading)}</td></tr>
                        }).collect_view())}
                    </tbody>
                </table>
            </div>
        </div>
    }
}
