//! FlashAttention made visible: the current head computed tile by tile by the core's online
//! softmax, step by step, with the running max and sum of the rows in the current tile.

use crate::app::heatmap::Heatmap;
use crate::app::specs::{caption, num, signed};
use crate::app::state::use_lab;
use crate::core::flash::tiled_attention;
use crate::i18n::{fill, ViewMsg};
use crate::settings::TILE_CHOICES;
use leptos::prelude::*;
use std::time::Duration;

/// The tiled computation of the chosen head and its animation.
#[component]
pub fn FlashPanel() -> impl IntoView {
    let lab = use_lab();
    let tile = lab.pick(|s| s.tile);
    let head = lab.pick(|s| s.head);
    let temperature = lab.pick(|s| s.temperature);
    // The tiled run and the full head it must equal.
    let run = Memo::new(move |_| {
        lab.outcome.with(|o| {
            o.as_ref().map(|o| {
                let o = &o.0;
                let h = &o.trace.heads[head.get().min(o.trace.heads.len() - 1)];
                let divisor = o.trace.scale * temperature.get();
                let t = tiled_attention(h.q.view(), h.k.view(), h.v.view(), &o.trace.blocked, divisor, tile.get(), tile.get(), true);
                let error = t.output.iter().zip(&h.output).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
                (t, error, h.scaled.clone(), o.tokens.clone(), o.kv_tokens.clone())
            })
        })
    });
    let steps = Memo::new(move |_| run.with(|r| r.as_ref().map_or(0, |r| r.0.steps.len())));
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
            r.as_ref().map(|(t, _, scaled, tokens, kv)| {
                let mut spec = signed(scaled.clone(), tokens, kv.clone());
                let upto = &t.steps[..(step.get() + 1).min(t.steps.len())];
                let done = |i: usize, j: usize| upto.iter().any(|s| (s.rows.0..s.rows.1).contains(&i) && (s.cols.0..s.cols.1).contains(&j));
                spec.blocked = Some(ndarray::Array2::from_shape_fn(scaled.dim(), |(i, j)| !done(i, j)));
                spec
            })
        })
    });
    let current = move || run.with(|r| r.as_ref().and_then(|r| r.0.steps.get(step.get()).cloned()));
    let step_text = move || {
        current().map(|s| {
            fill(
                lab.t(ViewMsg::FlashStep),
                &[("i", &(step.get() + 1).to_string()), ("n", &steps.get().to_string()), ("r0", &(s.rows.0 + 1).to_string()), ("r1", &s.rows.1.to_string()), ("c0", &(s.cols.0 + 1).to_string()), ("c1", &s.cols.1.to_string())],
            )
        })
    };

    view! {
        <div class="panel-block" data-testid="flash-panel">
            <h3 class="view__subtitle">{lab.text(ViewMsg::FlashTitle)}</h3>
            <p class="view__text">{lab.text(ViewMsg::FlashText)}</p>
            <div class="view__controls view__controls--inline">
                <label class="field__label" for="tile">{lab.text(ViewMsg::FlashTile)}</label>
                <select id="tile" data-testid="flash-tile" prop:value=move || tile.get().to_string()
                    on:change=move |ev| { if let Ok(t) = event_target_value(&ev).parse::<usize>() { if TILE_CHOICES.contains(&t) { stop(); lab.settings.update(|s| s.tile = t) } } }>
                    {TILE_CHOICES.map(|t| view! { <option value=t.to_string()>{format!("{t} × {t}")}</option> })}
                </select>
                <button type="button" class="button" data-testid="flash-prev" disabled=move || { step.get() == 0 }
                    on:click=move |_| { stop(); set_step.update(|s| *s = s.saturating_sub(1)) }>"◀"</button>
                <button type="button" class="button button--primary" data-testid="flash-play" on:click=play>
                    {move || lab.t(if playing.get() { ViewMsg::FlashPause } else { ViewMsg::FlashPlay })}
                </button>
                <button type="button" class="button" data-testid="flash-next" disabled=move || { step.get() + 1 >= steps.get() }
                    on:click=move |_| { stop(); set_step.update(|s| *s += 1) }>"▶"</button>
            </div>
            <p class="stage__stat" data-testid="flash-step" aria-live="polite">{step_text}</p>
            <dl class="readouts">
                <div class="readouts__item">
                    <dt>{lab.text(ViewMsg::FlashError)}</dt>
                    <dd data-testid="flash-max-error">{move || run.with(|r| r.as_ref().map_or_else(|| "—".into(), |r| format!("{:.1e}", r.1)))}</dd>
                </div>
                <div class="readouts__item">
                    <dt>{move || run.with(|r| r.as_ref().map(|(t, _, s, _, _)| fill(lab.t(ViewMsg::FlashPeak), &[("tile", &t.peak_scores.to_string()), ("full", &s.len().to_string())])))}</dt>
                </div>
            </dl>
            <div class="stage__grid">
                <Heatmap spec=spec caption=Signal::derive(move || caption(lab.t(ViewMsg::FlashScores), spec.with(|s| s.as_ref().map_or((0, 0), |s| s.values.dim())))) testid="heatmap-flash" />
                <table class="running" data-testid="flash-running">
                    <thead><tr><th>{lab.text(ViewMsg::FlashRows)}</th><th>"m"</th><th>"l"</th></tr></thead>
                    <tbody>
                        {move || current().map(|s| (s.rows.0..s.rows.1).zip(s.running_max.iter().zip(&s.running_sum)).map(|(i, (m, l))| view! {
                            <tr><td>{i + 1}</td><td>{if m.is_finite() { num(*m) } else { "−∞".into() }}</td><td>{num(*l)}</td></tr>
                        }).collect_view())}
                    </tbody>
                </table>
            </div>
        </div>
    }
}
