//! The training view's experiment on heads (`knockout`): the mode, a switch per head, the
//! held-out scores with the heads off, and the sweep's grid beside where each head's weight
//! goes.

use super::knockout::{self, Knockout, Swept};
use crate::core::ablate::{effect_scale, Ablation, Replacement};
use crate::core::train::ablate::Tracking;
use crate::core::train::session::LEARNED;
use crate::figures::heads::{HeadSwitches, HeadValues, Measure, ModeSelect};
use crate::i18n::{fill, t, AblateMsg, Lang};
use crate::stage_texts::{heads_listed, replacement_name};
use leptos::prelude::*;

/// The panel; `knockout` is the experiment as last read, `shape` the model's (layers, heads),
/// `steps` the run's steps so far, `running` whether it trains.
#[component]
pub fn KnockoutPanel(
    knockout: Memo<Knockout>,
    shape: Memo<(usize, usize)>,
    steps: Memo<usize>,
    running: Memo<bool>,
    lang: Lang,
) -> impl IntoView {
    let tr = move |m: AblateMsg| t(lang, m);
    let ablation = Memo::new(move |_| knockout.with(|k| k.ablation.clone()));
    let mode = move || ablation.with(|a| a.replacement);
    let on_mode =
        move |r: Replacement| knockout::set(Ablation::new(ablation.with_untracked(|a| a.heads().to_vec()), r));
    let switches = move || {
        let (layers, heads) = shape.get();
        let toggle = Callback::new(move |(l, h)| knockout::set(ablation.with_untracked(|a| a.toggled(l, h))));
        view! { <HeadSwitches layers=layers heads=heads off=ablation toggle=toggle lang=lang /> }
    };
    let scores = move || {
        knockout.with(|k| {
            if k.ablation.is_empty() {
                return None;
            }
            let heads = heads_listed(&k.ablation);
            let text = match &k.live {
                None => tr(AblateMsg::LearnNoModel).to_string(),
                Some(live) => match (live.intact, live.off) {
                    (Some(intact), Some(off)) => fill(
                        tr(AblateMsg::LearnScores),
                        &[
                            ("step", &live.step.to_string()),
                            ("heads", &heads),
                            ("mode", replacement_name(live.ablation.replacement, lang)),
                            ("acc", &format!("{:.3}", off.accuracy)),
                            ("intact", &format!("{:.3}", intact.accuracy)),
                            ("loss", &format!("{:.3}", off.loss)),
                            ("intact_loss", &format!("{:.3}", intact.loss)),
                        ],
                    ),
                    _ => fill(tr(AblateMsg::LearnScoring), &[("step", &live.step.to_string()), ("heads", &heads)]),
                },
            };
            Some(view! { <p class="view__text" data-testid="ablate-summary" aria-live="polite">{text}</p> })
        })
    };
    let sweep = move || {
        let (layers, heads) = shape.get_untracked();
        knockout::sweep(layers, heads);
    };
    let sweeping = Memo::new(move |_| {
        knockout.with(|k| k.sweep_waiting.is_some() || k.sweep.as_ref().is_some_and(|s| s.done < s.of))
    });
    let bar = move || {
        knockout.with(|k| {
            // Waiting for the run to come to rest: none of them measured yet.
            let (done, all) = match (k.sweep_waiting, k.sweep.as_ref().filter(|s| s.done < s.of)) {
                (Some((layers, heads)), _) => (0, layers * heads),
                (None, Some(s)) => (s.done.saturating_sub(1), s.of - 1),
                (None, None) => return None,
            };
            let line = fill(tr(AblateMsg::SweepProgress), &[("done", &done.to_string()), ("all", &all.to_string())]);
            // Why nothing moves yet: it starts when the run rests.
            let waiting = k.sweep_waiting.is_some().then(|| view! { <span>{tr(AblateMsg::LearnNoModel)}</span> });
            Some(view! {
                <div class="model-progress" data-testid="ablate-sweep-progress">
                    <progress max=all.to_string() value=done.to_string()></progress>
                    <span>{line}</span>
                    {waiting}
                </div>
            })
        })
    };
    let results = move || {
        let swept = knockout.with(|k| k.sweep.clone().filter(|s| s.done == s.of))?;
        let old = (swept.step != steps.get()).then(|| {
            view! { <p class="stage__note">{fill(tr(AblateMsg::LearnSweepOld), &[("step", &swept.step.to_string())])}</p> }
        });
        Some(view! { {old} <SweepResults swept=swept lang=lang /> })
    };
    let failed = move || {
        knockout.with(|k| k.failed.clone()).map(|why| {
            view! { <p class="field__error" role="alert" data-testid="ablate-failed">{fill(tr(AblateMsg::ScoringFailed), &[("why", &why)])}</p> }
        })
    };
    view! {
        <section class="ablate" data-testid="ablate-panel">
            <h3 class="view__subtitle">{tr(AblateMsg::Title)}</h3>
            <p class="view__text">{tr(AblateMsg::LearnIntro)}</p>
            <ModeSelect mode=Signal::derive(mode) set=Callback::new(on_mode) lang=lang />
            {switches}
            <button type="button" class="button" data-testid="ablate-all-on"
                disabled=move || ablation.with(Ablation::is_empty)
                on:click=move |_| knockout::set(Ablation::new([], mode()))>{tr(AblateMsg::AllOn)}</button>
            {scores}
            <Show when=move || running.get() && !ablation.with(Ablation::is_empty)>
                <p class="stage__note">{tr(AblateMsg::LearnTraining)}</p>
            </Show>
            {failed}
            <div class="ablate__sweep">
                <h4 class="view__subtitle">{tr(AblateMsg::SweepTitle)}</h4>
                <p class="view__text">{tr(AblateMsg::LearnSweepIntro)}</p>
                <button type="button" class="button" data-testid="ablate-sweep" disabled=move || sweeping.get()
                    on:click=move |_| sweep()>{tr(AblateMsg::SweepRun)}</button>
                {bar}
                {results}
            </div>
            <p class="stage__note">{tr(AblateMsg::LearnCaveat)}</p>
        </section>
    }
}

/// A finished sweep: what it found, the grid of accuracy falls, and where each head's weight
/// goes.
#[component]
fn SweepResults(swept: Swept, lang: Lang) -> impl IntoView {
    let tr = move |m: AblateMsg| t(lang, m);
    let drops = swept.drops().unwrap_or_default();
    let intact = swept.intact.map_or(0.0, |s| s.accuracy);
    let top = drops
        .iter()
        .enumerate()
        .flat_map(|(l, row)| row.iter().enumerate().map(move |(h, d)| (l, h, *d)))
        .max_by(|a, b| a.2.total_cmp(&b.2));
    let step = swept.step.to_string();
    // One unit on this panel: percent, and percentage points for a fall, as in the cells.
    let percent = |v: f64| format!("{:.0}", v * 100.0);
    let found = top.map(|(l, h, drop)| {
        // A fall of a tenth or more is a head the task needs; less, and no single one is
        // (unless the model has not learned the task: then nothing can be shown to matter).
        if drop >= 0.1 {
            let acc = percent(intact - f64::from(drop));
            let pairs = [
                ("step", step.as_str()),
                ("intact", &percent(intact)),
                ("layer", &(l + 1).to_string()),
                ("head", &(h + 1).to_string()),
                ("acc", &acc),
                ("mode", replacement_name(swept.replacement, lang)),
            ];
            fill(tr(AblateMsg::LearnSweepFound), &pairs)
        } else {
            let pairs = [("step", step.as_str()), ("intact", &percent(intact)), ("drop", &percent(f64::from(drop)))];
            let msg = if intact >= LEARNED { AblateMsg::LearnSweepNone } else { AblateMsg::LearnSweepUnlearned };
            fill(tr(msg), &pairs)
        }
    });
    let scale = effect_scale(&drops).map(|s| {
        let pairs = [
            ("heads", s.heads.to_string()),
            ("largest", percent(f64::from(s.largest))),
            ("median", percent(f64::from(s.median))),
        ];
        fill(tr(AblateMsg::LearnScaleOf), &pairs.each_ref().map(|(k, v)| (*k, v.as_str())))
    });
    let replacement = swept.replacement;
    let label = move |(l, h, drop): (usize, usize, f32)| {
        let pairs = [
            ("layer", (l + 1).to_string()),
            ("head", (h + 1).to_string()),
            ("acc", format!("{:.0}", (intact - f64::from(drop)) * 100.0)),
            ("drop", format!("{:.0}", drop * 100.0)),
        ];
        fill(t(lang, AblateMsg::LearnSweepCell), &pairs.each_ref().map(|(k, v)| (*k, v.as_str())))
    };
    let pick = move |(l, h): (usize, usize)| knockout::set(Ablation::one(l, h, replacement));
    let Tracking { previous, answer } = swept.tracking.unwrap_or_default();
    let as_f32 =
        |g: Vec<Vec<f64>>| g.into_iter().map(|r| r.into_iter().map(|v| v as f32).collect()).collect::<Vec<_>>();
    let weight_label = move |(l, h, v): (usize, usize, f32)| {
        let pairs =
            [("layer", (l + 1).to_string()), ("head", (h + 1).to_string()), ("weight", format!("{:.0} %", v * 100.0))];
        fill(t(lang, AblateMsg::TrackCell), &pairs.each_ref().map(|(k, v)| (*k, v.as_str())))
    };
    view! {
        <p class="view__text" data-testid="ablate-sweep-found">{found}</p>
        <p class="stage__note">{tr(AblateMsg::LearnSweepScale)}" "{scale}</p>
        <HeadValues values=drops max=1.0 measure=Measure::Effect testid="ablate-grid" cell_testid="ablate-cell"
            text=|v| format!("{:.0}", v * 100.0) label=Callback::new(label) pick=Callback::new(pick) lang=lang />
        <p class="view__text">{tr(AblateMsg::TrackPreviousIntro)}</p>
        <HeadValues values=as_f32(previous) max=1.0 measure=Measure::Weight testid="previous-grid" cell_testid="previous-cell"
            text=|v| format!("{:.0}", v * 100.0) label=Callback::new(weight_label) lang=lang />
        <p class="view__text">{tr(AblateMsg::TrackAnswerIntro)}</p>
        <HeadValues values=as_f32(answer) max=1.0 measure=Measure::Weight testid="answer-grid" cell_testid="answer-cell"
            text=|v| format!("{:.0}", v * 100.0) label=Callback::new(weight_label) lang=lang />
    }
}
