//! The training view: its settings (`setup`), the run's buttons and readouts, the loss and
//! accuracy against steps, and the attention of every head on one example (`charts`), all
//! redrawn from the run as it trains.

use super::charts::{head_spec, RunChart};
use super::generate::GeneratePanel;
use super::knockout::{self, Knockout};
use super::knockout_view::KnockoutPanel;
use super::setup::{field_of, range_message, Field, SetupForm};
use super::{
    open_in_lesson, reset, set_example, set_workers, single_step, start_experiment, take_link_error, toggle, with_run,
    Run, Trained,
};
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::ink::Ink;
use crate::core::train::model::{first_layer_scores, Positions};
use crate::core::train::session::{digits_of, Experiment, Point, Progress, Settled, Setup};
use crate::core::train::tasks::token_text;
use crate::figures::Heatmap;
use crate::hosted::page_lang_and_ink;
use crate::i18n::{fill, t, AblateMsg, Lang, LearnMsg};
use crate::stage_texts::heads_listed;
use crate::trainer::pool::{sized, Device, Limit};
use leptos::prelude::*;
use ndarray::Array2;

/// What the view shows of the run, read after each change.
#[derive(Clone, PartialEq)]
struct Snapshot {
    setup: Setup,
    steps: usize,
    loss: Option<f64>,
    accuracy: f64,
    speed: f64,
    running: bool,
    /// Workers per pool, as chosen, and the run's pool's (fewer for a small batch).
    workers: usize,
    pool_workers: usize,
    /// Why training stopped, when a worker failed.
    failed: Option<String>,
    /// The browser would not keep the model "Open in the lesson" asked for.
    open_failed: bool,
    diverged: Option<usize>,
    losses: Vec<(usize, f64)>,
    accuracies: Vec<(usize, f64)>,
    example: Vec<usize>,
    /// The example the heads' weights are of (the one typed, once the pool has answered).
    attended: Vec<usize>,
    /// `[layer][head]`, (n, n).
    weights: Vec<Vec<Array2<f32>>>,
    experiment: Option<ExperimentShown>,
    /// The experiment on heads.
    knockout: Knockout,
    /// The step of the model the page holds, when the run is at rest with it.
    rested: Option<usize>,
    /// The page paused the run where its held-out accuracy settled (said until trained on).
    settled: Option<Settled>,
}

/// A quantity against steps: (step, value) points.
type Curve = Vec<(usize, f64)>;

/// The scaling experiment as shown: its two runs' curves (with ÷√d_k first) and last numbers.
#[derive(Clone, PartialEq)]
struct ExperimentShown {
    losses: Vec<Curve>,
    accuracies: Vec<Curve>,
    gradients: Vec<Curve>,
    /// (steps, loss, accuracy, softmax gradient) of each run; `None` until the run has
    /// measured its first loss and gradient (a run of 0 steps has none to show).
    last: Vec<Option<(usize, f64, f64, f64)>>,
}

impl ExperimentShown {
    fn of(runs: &[Trained; 2]) -> Self {
        let curve = |r: &Progress, f: fn(&Point) -> f64| r.history.iter().map(|p| (p.step, f(p))).collect::<Vec<_>>();
        let runs = runs.each_ref().map(|r| &r.progress);
        Self {
            losses: runs.iter().map(|r| curve(r, |p| p.loss)).collect(),
            accuracies: runs.iter().map(|r| curve(r, |p| p.accuracy)).collect(),
            gradients: runs.iter().map(|r| r.gradients.clone()).collect(),
            last: runs.iter().map(|r| measured(r)).collect(),
        }
    }
}

/// A run's (steps, loss, accuracy, softmax gradient) once it has measured a loss and a
/// gradient; `None` before (a run of 0 steps, whose figures would be "NaN").
fn measured(run: &Progress) -> Option<(usize, f64, f64, f64)> {
    Some((run.steps, run.history.last()?.loss, run.accuracy, run.gradients.last()?.1))
}

impl Snapshot {
    fn of(run: &Run) -> Self {
        let s = &run.main.progress;
        // Computed by the pool's leader (the page only draws), with the example they are of.
        let (attended, weights) = run.main.attention.clone();
        Self {
            setup: s.setup,
            steps: s.steps,
            loss: s.history.last().map(|p| p.loss),
            accuracy: s.accuracy,
            speed: run.speed,
            running: run.running,
            workers: run.workers,
            pool_workers: run.pool_workers(),
            failed: run.failed.clone(),
            open_failed: run.open_failed,
            diverged: s.diverged.map(|d| d.step),
            losses: s.history.iter().map(|p| (p.step, p.loss)).collect(),
            accuracies: s.history.iter().map(|p| (p.step, p.accuracy)).collect(),
            example: run.example.clone(),
            attended,
            weights,
            experiment: run.experiment.as_ref().map(ExperimentShown::of),
            knockout: knockout::shown(),
            rested: (run.main.params_step == s.steps).then_some(s.steps),
            settled: run.settled.filter(|_| run.settled_note),
        }
    }
}

/// The whole view; `changed` ticks whenever the run changes.
#[component]
pub fn LearnApp(
    /// Bumped by the training loop after each step it keeps; the view reads the run again.
    changed: RwSignal<u64>,
) -> impl IntoView {
    let (lang, ink) = page_lang_and_ink();
    let tr = move |m: LearnMsg| t(lang, m);
    let snap = Memo::new(move |_| {
        changed.track();
        with_run(Snapshot::of)
    });
    // What changes only with a new run: the fields and the grid of heads follow these, not
    // every step.
    let setup = Memo::new(move |_| snap.with(|s| s.as_ref().map(|s| s.setup)).unwrap_or_default());
    let shape = Memo::new(move |_| {
        let s = setup.get();
        (s.n_layers, s.n_heads)
    });
    let example = Memo::new(move |_| snap.with(|s| s.as_ref().map(|s| s.example.clone())).unwrap_or_default());
    let error = RwSignal::new(take_link_error().map(|e| (field_of(e), range_message(lang, e))));
    let running = Memo::new(move |_| snap.with(|s| s.as_ref().is_some_and(|s| s.running)));
    let diverged = Memo::new(move |_| snap.with(|s| s.as_ref().and_then(|s| s.diverged)));
    let readout = move |f: fn(&Snapshot) -> String| move || snap.with(|s| s.as_ref().map(f).unwrap_or_default());
    let attended = Memo::new(move |_| snap.with(|s| s.as_ref().map(|s| s.attended.clone())).unwrap_or_default());
    let texts = move |tokens: Memo<Vec<usize>>| {
        let digits = digits_of(setup.get().task).1;
        tokens.get().iter().map(|&t| token_text(t, digits)).collect::<Vec<_>>()
    };
    let labels = move || texts(example);
    let on_example = move |ev: leptos::ev::Event| match setup.get_untracked().read_tokens(&event_target_value(&ev)) {
        Some(tokens) => {
            error.set(None);
            set_example(tokens);
        }
        None => {
            let s = setup.get_untracked();
            let max = (digits_of(s.task).1 - 1).to_string();
            let n = s.config().context.to_string();
            error.set(Some((Field::Example, fill(t(lang, LearnMsg::ErrExample), &[("max", &max), ("n", &n)]))));
        }
    };
    let example_error = move || {
        error
            .get()
            .filter(|(f, _)| *f == Field::Example)
            .map(|(_, m)| view! { <p class="field__error" role="alert">{m}</p> })
    };

    let open_failed = Memo::new(move |_| snap.with(|s| s.as_ref().is_some_and(|s| s.open_failed)));
    let rested = Memo::new(move |_| snap.with(|s| s.as_ref().and_then(|s| s.rested)));
    let knocked = Memo::new(move |_| snap.with(|s| s.as_ref().map(|s| s.knockout.clone())).unwrap_or_default());
    let steps = Memo::new(move |_| snap.with(|s| s.as_ref().map_or(0, |s| s.steps)));
    // The heads off, and the model's held-out accuracy without them, once scored for this step.
    let heads_off =
        Memo::new(move |_| knocked.with(|k| k.off_at(steps.get()).map(|s| (heads_listed(&k.ablation), s.accuracy))));
    view! {
        // Two parts: what the learner sets and reads, and what the run draws (side by side on a
        // projector, see the stylesheet).
        <div class="learn">
          <div class="learn__side">
            <p class="view__text">{tr(LearnMsg::Intro)}</p>
            <SetupForm setup=setup lang=lang error=error />
            <ShiftCheck rested=rested lang=lang />
            <div class="learn__buttons">
                <button type="button" class="button button--primary" data-testid="learn-train"
                    aria-pressed=move || running.get().to_string() disabled=move || diverged.get().is_some()
                    on:click=move |_| toggle()>
                    {move || tr(if running.get() { LearnMsg::Pause } else { LearnMsg::Train })}
                </button>
                <button type="button" class="button" data-testid="learn-step" disabled=move || diverged.get().is_some()
                    on:click=move |_| { single_step(); }>{tr(LearnMsg::Step)}</button>
                <button type="button" class="button" data-testid="learn-reset" on:click=move |_| {
                    let setup = setup.get_untracked();
                    if setup.check().is_ok() {
                        error.set(None);
                        reset(setup);
                    }
                }>{tr(LearnMsg::Reset)}</button>
                <button type="button" class="button" data-testid="learn-open-lesson" title=tr(LearnMsg::OpenLessonHint)
                    on:click=move |_| open_in_lesson()>{tr(LearnMsg::OpenLesson)}</button>
            </div>
            <p class="field__error" role="alert" data-testid="learn-open-error">
                {move || open_failed.get().then(|| tr(LearnMsg::OpenFailed))}
            </p>
            <p class="field__error" role="alert" data-testid="learn-failed">
                {move || snap.with(|s| s.as_ref().and_then(|s| s.failed.clone())).map(|why| fill(tr(LearnMsg::WorkerFailed), &[("why", &why)]))}
            </p>
            <p class="learn__settled" role="status" data-testid="learn-settled">
                {move || snap.with(|s| s.as_ref().and_then(|s| s.settled.map(|at| (s.steps, at)))).map(|(steps, at)| {
                    let acc = format!("{:.0}", at.accuracy * 100.0);
                    fill(tr(LearnMsg::Settled), &[("steps", &steps.to_string()), ("acc", &acc), ("since", &at.since.to_string())])
                })}
            </p>
            <p class="field__error" role="alert" data-testid="learn-diverged">
                {move || diverged.get().map(|step| fill(tr(LearnMsg::Diverged), &[("step", &step.to_string())]))}
            </p>
            <dl class="readouts">
                <div class="readouts__item"><dt>{tr(LearnMsg::Steps)}</dt><dd data-testid="learn-steps" data-rested=move || rested.get().map(|s| s.to_string())>{readout(|s| s.steps.to_string())}</dd></div>
                <div class="readouts__item"><dt>{tr(LearnMsg::Loss)}</dt><dd data-testid="learn-loss">{readout(|s| s.loss.map_or("–".into(), |l| format!("{l:.4}")))}</dd></div>
                <div class="readouts__item">
                    <dt>{move || match heads_off.get() {
                        Some((heads, _)) => fill(t(lang, AblateMsg::AccuracyOff), &[("heads", &heads)]),
                        None => tr(LearnMsg::Accuracy).to_string(),
                    }}</dt>
                    <dd data-testid="learn-accuracy" data-heads-off=move || heads_off.get().map(|(h, _)| h)>
                        {move || heads_off.get().map_or_else(|| readout(|s| format!("{:.3}", s.accuracy))(), |(_, a)| format!("{a:.3}"))}
                    </dd>
                </div>
                <div class="readouts__item"><dt>{tr(LearnMsg::Speed)}</dt><dd data-testid="learn-speed">{readout(|s| format!("{:.0}", s.speed))}</dd></div>
            </dl>
            <WorkersField snap=snap lang=lang />
          </div>
          <div class="learn__main">
            <div class="stage__grid">
                <RunChart caption=tr(LearnMsg::LossChart) testid="learn-loss-chart" ink=ink
                    runs=Signal::derive(move || snap.with(|s| s.as_ref().map(|s| vec![s.losses.clone()]).unwrap_or_default())) top=None />
                <RunChart caption=tr(LearnMsg::AccuracyChart) testid="learn-accuracy-chart" ink=ink
                    runs=Signal::derive(move || snap.with(|s| s.as_ref().map(|s| vec![s.accuracies.clone()]).unwrap_or_default())) top=Some(1.0) />
            </div>
            <ExperimentPanel snap=snap lang=lang ink=ink />
            <div class="field">
                <label class="field__label" for="learn-example">{tr(LearnMsg::Example)}</label>
                <input id="learn-example" data-testid="learn-example" type="text"
                    prop:value=move || labels().join(" ") on:change=on_example />
                {example_error}
            </div>
            <h3 class="view__subtitle">{tr(LearnMsg::Weights)}</h3>
            <div class="stage__heads">
                {move || {
                    let (layers, heads) = shape.get();
                    (0..layers).flat_map(|l| (0..heads).map(move |h| (l, h))).map(|(l, h)| {
                        // Redrawn only when this head's weights change (a new model from the
                        // pool, another example), not at every report.
                        let spec = Memo::new(move |_| {
                            let values = snap.with(|s| s.as_ref().and_then(|s| s.weights.get(l)?.get(h).cloned()))?;
                            Some(head_spec(values, texts(attended)))
                        });
                        let spec: Signal<Option<HeatmapSpec>> = spec.into();
                        let name = fill(tr(LearnMsg::HeadMap), &[("l", &(l + 1).to_string()), ("h", &(h + 1).to_string())]);
                        // A switched-off head's map is as computed; its caption says it is off.
                        let caption = Signal::derive(move || match knocked.with(|k| k.ablation.has(l, h)) {
                            true => format!("{name} · {}", tr(LearnMsg::HeadOff)),
                            false => name.clone(),
                        });
                        view! { <Heatmap spec=spec name=caption testid="learn-head" ink=ink lang=lang spread=true /> }
                    }).collect_view()
                }}
            </div>
            <KnockoutPanel knockout=knocked shape=shape steps=steps running=running lang=lang />
            <GeneratePanel rested=rested lang=lang ink=ink />
          </div>
        </div>
    }
}

/// The scaling experiment: its button, then, once started, what it does, its two runs' loss,
/// accuracy and softmax gradient against steps, and where each run stands.
#[component]
fn ExperimentPanel(
    /// The run as last read; its experiment part is drawn.
    snap: Memo<Option<Snapshot>>,
    /// The page's language.
    lang: Lang,
    /// The page's colours.
    ink: Ink,
) -> impl IntoView {
    let tr = move |m: LearnMsg| t(lang, m);
    let dk = Experiment::D_K.to_string();
    let root = format!("{:.1}", (Experiment::D_K as f64).sqrt());
    let shown = Memo::new(move |_| snap.with(|s| s.as_ref().and_then(|s| s.experiment.clone())));
    let curves = move |f: fn(&ExperimentShown) -> Vec<Curve>| {
        Signal::derive(move || shown.with(|e| e.as_ref().map(f).unwrap_or_default()))
    };
    let names = [LearnMsg::Scaled, LearnMsg::Unscaled];
    let results = move || {
        shown.with(|e| {
            e.as_ref().map(|e| {
                e.last
                    .iter()
                    .zip(names)
                    .filter_map(|(last, name)| last.map(|l| (l, name)))
                    .map(|((step, loss, acc, grad), name)| {
                        let text = fill(
                            tr(LearnMsg::ExperimentResult),
                            &[
                                ("name", tr(name)),
                                ("step", &step.to_string()),
                                ("loss", &format!("{loss:.4}")),
                                ("acc", &format!("{acc:.3}")),
                                ("grad", &format!("{grad:.4}")),
                            ],
                        );
                        view! { <li>{text}</li> }
                    })
                    .collect_view()
            })
        })
    };
    view! {
        <div class="learn__experiment">
            <button type="button" class="button" data-testid="learn-experiment" on:click=move |_| start_experiment()>
                {fill(tr(LearnMsg::ExperimentButton), &[("dk", &dk)])}
            </button>
            <Show when=move || shown.with(Option::is_some)>
                <p class="view__text">{fill(tr(LearnMsg::ExperimentIntro), &[("dk", &dk), ("root", &root)])}</p>
                <p class="legend" aria-hidden="true">
                    <span class="legend__item"><span class="legend__swatch legend__swatch--series-1"></span>{tr(LearnMsg::Scaled)}</span>
                    <span class="legend__item"><span class="legend__swatch legend__swatch--series-2"></span>{tr(LearnMsg::Unscaled)}</span>
                </p>
                <div class="stage__grid">
                    <RunChart caption=tr(LearnMsg::LossChart) testid="learn-experiment-loss" ink=ink runs=curves(|e| e.losses.clone()) top=None />
                    <RunChart caption=tr(LearnMsg::AccuracyChart) testid="learn-experiment-accuracy" ink=ink runs=curves(|e| e.accuracies.clone()) top=Some(1.0) />
                    <RunChart caption=tr(LearnMsg::GradientChart) testid="learn-experiment-gradient" ink=ink runs=curves(|e| e.gradients.clone()) top=None />
                </div>
                <ul class="learn__results" data-testid="learn-experiment-result">{results}</ul>
            </Show>
        </div>
    }
}

/// On the model at rest, what moving the example along does to layer 1's scores: nothing under
/// rotary positions (only offsets count), something with positions added, and impossible with
/// learned ones past the places trained on.
#[component]
fn ShiftCheck(rested: Memo<Option<usize>>, lang: Lang) -> impl IntoView {
    const SHIFT: usize = 7;
    let line = move || {
        rested.get()?;
        let (positions, context, far) = with_run(|run| {
            let t = &run.main;
            let config = t.progress.setup.config();
            let scores = |first| first_layer_scores(&t.params, &config, &run.example, first);
            let far = scores(0).zip(scores(SHIFT)).map(|(a, b)| {
                a.iter().zip(&b).flat_map(|(x, y)| x.iter().zip(y).map(|(u, v)| (u - v).abs())).fold(0.0, f64::max)
            });
            (config.positions, config.context, far)
        })?;
        let shift = SHIFT.to_string();
        Some(match (positions, far) {
            (Positions::Rotary, Some(far)) => {
                fill(t(lang, LearnMsg::ShiftRotary), &[("shift", &shift), ("far", &format!("{far:.1e}"))])
            }
            (_, Some(far)) => fill(t(lang, LearnMsg::ShiftAdded), &[("shift", &shift), ("far", &format!("{far:.3}"))]),
            (_, None) => fill(t(lang, LearnMsg::ShiftLearned), &[("n", &context.to_string())]),
        })
    };
    view! { <p class="field__hint" data-testid="learn-shift-check">{line}</p> }
}

/// How many workers train the run: one per core unless the learner chooses fewer, no more than
/// the device's memory allows (`pool::sized`), with how many are in use and what holds the
/// choice to its most.
#[component]
fn WorkersField(
    /// The run as the view last read it (the workers chosen, the pool's).
    snap: Memo<Option<Snapshot>>,
    /// The page's language.
    lang: Lang,
) -> impl IntoView {
    let tr = move |m: LearnMsg| t(lang, m);
    let (default, limit) = sized(Device::here());
    let most = limit.most(default);
    let limit = match limit {
        Limit::Cores => fill(tr(LearnMsg::WorkersByCores), &[("n", &most.to_string())]),
        Limit::Memory { gb } => {
            fill(tr(LearnMsg::WorkersByMemory), &[("n", &most.to_string()), ("gb", &gb.to_string())])
        }
        Limit::Most => fill(tr(LearnMsg::WorkersAtMost), &[("n", &most.to_string())]),
        Limit::Untold { most } => {
            fill(tr(LearnMsg::WorkersUntoldMemory), &[("n", &default.to_string()), ("most", &most.to_string())])
        }
    };
    view! {
        <div class="field">
            <label class="field__label" for="learn-workers">{tr(LearnMsg::Workers)}</label>
            <select id="learn-workers" data-testid="learn-workers" title=tr(LearnMsg::WorkersHint)
                aria-describedby="learn-workers-limit"
                on:change=move |ev| {
                    if let Ok(n) = event_target_value(&ev).parse::<usize>() {
                        set_workers(n);
                    }
                }>
                {move || {
                    let chosen = snap.with(|s| s.as_ref().map_or(1, |s| s.workers));
                    (1..=most.max(chosen)).map(|n| {
                        view! { <option value=n.to_string() selected=n == chosen>{n.to_string()}</option> }
                    }).collect_view()
                }}
            </select>
            <p class="field__hint" data-testid="learn-workers-in-use">
                {move || snap.with(|s| s.as_ref().map(|s| fill(tr(LearnMsg::WorkersInUse), &[("n", &s.pool_workers.to_string())])))}
            </p>
            <p class="field__hint" id="learn-workers-limit" data-testid="learn-workers-limit">{limit}</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::train::session::Session;

    #[test]
    fn a_run_shows_its_figures_once_it_has_measured_them() {
        let mut session = Session::new(Setup::default()).expect("the default setup");
        let mut progress = Progress::of(&session);
        assert_eq!(measured(&progress), None, "0 steps: nothing to show yet");
        session.step().expect("a step of the default setup");
        progress = Progress::of(&session);
        progress.gradients.push((session.steps, 0.5));
        let (steps, loss, _, grad) = measured(&progress).expect("measured");
        assert!(steps == 1 && loss.is_finite() && grad == 0.5);
    }
}
