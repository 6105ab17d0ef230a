//! The training view: the task and the model's settings (each checked, its error beside it),
//! the run's buttons and readouts, the loss and accuracy against steps, and the attention of
//! every head on one example, all redrawn from the run as it trains.

use super::{query, reset, single_step, toggle, update_run, with_run, Run};
use crate::chart::colormap::Scale;
use crate::chart::heatmap::{draw, DrawOptions, HeatmapSpec, Sizing};
use crate::chart::ink::Ink;
use crate::chart::training::draw_runs;
use crate::core::train::session::{digits_of, Session, Setup, SetupError};
use crate::core::train::Task;
use crate::i18n::{fill, t, Lang, LearnMsg};
use leptos::{html, prelude::*};
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
    diverged: Option<usize>,
    losses: Vec<(usize, f64)>,
    accuracies: Vec<(usize, f64)>,
    example: Vec<usize>,
    /// `[layer][head]`, (n, n).
    weights: Vec<Vec<Array2<f32>>>,
}

impl Snapshot {
    fn of(run: &Run) -> Self {
        let s = &run.session;
        let weights =
            s.weights(&run.example).into_iter().map(|l| l.into_iter().map(|a| a.mapv(|v| v as f32)).collect());
        Self {
            setup: s.setup,
            steps: s.steps,
            loss: s.history.last().map(|p| p.loss),
            accuracy: s.accuracy(),
            speed: run.speed,
            running: run.running,
            diverged: s.diverged.map(|d| d.step),
            losses: s.history.iter().map(|p| (p.step, p.loss)).collect(),
            accuracies: s.history.iter().map(|p| (p.step, p.accuracy)).collect(),
            example: run.example.clone(),
            weights: weights.collect(),
        }
    }
}

/// A control of the setup, to put its error beside it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Field {
    Task,
    DModel,
    Heads,
    Dk,
    Layers,
    LearningRate,
    Batch,
    Seed,
    Example,
}

/// The page's language and chart colours, as the page set them when it mounted this view.
fn page_lang_and_ink() -> (Lang, Ink) {
    let html = document().document_element();
    let lang = html.as_ref().and_then(|h| h.get_attribute("lang")).map_or(Lang::En, |l| Lang::from_tag(&l));
    let style = html.and_then(|h| window().get_computed_style(&h).ok().flatten());
    let ink = style.and_then(|s| Ink::from_variables(&|name| s.get_property_value(name).ok())).unwrap_or(Ink::PLAIN);
    (lang, ink)
}

/// A token's label: its digit, or "|" for the separator.
fn label(token: usize, digits: usize) -> String {
    if token == digits {
        "|".into()
    } else {
        token.to_string()
    }
}

/// The example the learner typed: digits below the task's alphabet (and "|" where the task has
/// a separator), as many as the model's context.
fn parse_example(text: &str, setup: &Setup) -> Option<Vec<usize>> {
    let (_, digits) = digits_of(setup.task);
    let vocab = setup.task.vocab(digits);
    let tokens: Option<Vec<usize>> = text
        .split_whitespace()
        .map(|w| if w == "|" && vocab > digits { Some(digits) } else { w.parse().ok().filter(|&d: &usize| d < digits) })
        .collect();
    tokens.filter(|t| !t.is_empty() && t.len() <= setup.config().context)
}

/// The message for a setting that is not a number at all.
fn unreadable(field: Field) -> LearnMsg {
    match field {
        Field::Task | Field::Layers => LearnMsg::ErrLayers,
        Field::DModel => LearnMsg::ErrDModel,
        Field::Heads | Field::Dk => LearnMsg::ErrHeads,
        Field::LearningRate => LearnMsg::ErrLearningRate,
        Field::Batch => LearnMsg::ErrBatch,
        Field::Seed => LearnMsg::ErrSeed,
        Field::Example => LearnMsg::ErrExample,
    }
}

/// The message for a setting out of range.
fn setup_message(e: SetupError) -> LearnMsg {
    match e {
        SetupError::DModel => LearnMsg::ErrDModel,
        SetupError::Heads => LearnMsg::ErrHeads,
        SetupError::Layers => LearnMsg::ErrLayers,
        SetupError::LearningRate => LearnMsg::ErrLearningRate,
        SetupError::Batch => LearnMsg::ErrBatch,
    }
}

/// The whole view; `changed` ticks whenever the run changes.
#[component]
pub fn LearnApp(changed: RwSignal<u64>) -> impl IntoView {
    let (lang, ink) = page_lang_and_ink();
    let tr = move |m: LearnMsg| t(lang, m);
    let snap = Memo::new(move |_| {
        changed.track();
        with_run(Snapshot::of)
    });
    let setup = move || snap.with(|s| s.as_ref().map(|s| s.setup)).unwrap_or_default();
    let error = RwSignal::new(None::<(Field, LearnMsg)>);
    // A new setup: a fresh run when every setting is in range, else the message beside the
    // control that was changed, and the last good run stays.
    let apply = move |field: Field, change: &dyn Fn(&mut Setup) -> bool| {
        let mut next = setup();
        if !change(&mut next) {
            error.set(Some((field, unreadable(field))));
            return;
        }
        match Session::new(next) {
            Ok(session) => {
                error.set(None);
                query::write(&next);
                reset(session);
            }
            Err(e) => error.set(Some((field, setup_message(e)))),
        }
    };
    let number = move |field: Field, set: fn(&mut Setup, usize)| {
        move |ev: leptos::ev::Event| {
            let value = event_target_value(&ev).trim().parse::<usize>();
            apply(field, &|s| value.as_ref().map(|&v| set(s, v)).is_ok());
        }
    };
    let error_of = move |field: Field| {
        move || {
            error
                .get()
                .filter(|(f, _)| *f == field)
                .map(|(_, m)| view! { <p class="field__error" role="alert">{t(lang, m)}</p> })
        }
    };
    let task_names = [
        (Task::Reverse, LearnMsg::TaskReverse),
        (Task::Sort, LearnMsg::TaskSort),
        (Task::Previous, LearnMsg::TaskPrevious),
        (Task::Induction, LearnMsg::TaskInduction),
    ];
    let expect = move || match setup().task {
        Task::Reverse => tr(LearnMsg::ExpectReverse),
        Task::Sort => tr(LearnMsg::ExpectSort),
        Task::Previous => tr(LearnMsg::ExpectPrevious),
        Task::Induction => tr(LearnMsg::ExpectInduction),
    };
    let readout = move |f: fn(&Snapshot) -> String| move || snap.with(|s| s.as_ref().map(f).unwrap_or_default());
    let example_text = move || {
        snap.with(|s| {
            s.as_ref()
                .map(|s| {
                    let digits = digits_of(s.setup.task).1;
                    s.example.iter().map(|&t| label(t, digits)).collect::<Vec<_>>().join(" ")
                })
                .unwrap_or_default()
        })
    };
    let on_example = move |ev: leptos::ev::Event| match parse_example(&event_target_value(&ev), &setup()) {
        Some(tokens) => {
            error.set(None);
            update_run(|run| run.example = tokens);
        }
        None => error.set(Some((Field::Example, LearnMsg::ErrExample))),
    };
    let example_error = move || {
        let s = setup();
        let (_, digits) = digits_of(s.task);
        let max = (digits - 1).to_string();
        let n = s.config().context.to_string();
        error.get().filter(|(f, _)| *f == Field::Example).map(|_| {
            view! { <p class="field__error" role="alert">{fill(t(lang, LearnMsg::ErrExample), &[("max", &max), ("n", &n)])}</p> }
        })
    };

    view! {
        <div class="learn">
            <p class="view__text">{tr(LearnMsg::Intro)}</p>
            <div class="learn__setup">
                <div class="field">
                    <label class="field__label" for="learn-task">{tr(LearnMsg::Task)}</label>
                    <select id="learn-task" data-testid="learn-task" on:change=move |ev| {
                        let task = Task::from_slug(&event_target_value(&ev));
                        apply(Field::Task, &|s| task.map(|t| {
                            s.task = t;
                            // Induction needs its second layer.
                            if t == Task::Induction { s.layers = 2; }
                        }).is_some());
                    }>
                        {task_names.iter().map(|&(task, name)| view! {
                            <option value=task.slug() selected=move || setup().task == task>{tr(name)}</option>
                        }).collect_view()}
                    </select>
                </div>
                <p class="view__text learn__expect" data-testid="learn-expect">{expect}</p>
                <div class="learn__fields">
                    <div class="field">
                        <label class="field__label" for="learn-dmodel">{tr(LearnMsg::DModel)}</label>
                        <input id="learn-dmodel" data-testid="learn-dmodel" type="number" min="16" max="128"
                            prop:value=move || setup().d_model.to_string() on:change=number(Field::DModel, |s, v| s.d_model = v) />
                        {error_of(Field::DModel)}
                    </div>
                    <div class="field">
                        <label class="field__label" for="learn-heads">{tr(LearnMsg::Heads)}</label>
                        <input id="learn-heads" data-testid="learn-heads" type="number" min="1" max="8"
                            prop:value=move || setup().heads.to_string() on:change=number(Field::Heads, |s, v| s.heads = v) />
                        {error_of(Field::Heads)}
                    </div>
                    <div class="field">
                        <label class="field__label" for="learn-dk">{move || fill(tr(LearnMsg::DkIs), &[("dk", &setup().d_k().to_string())])}</label>
                        <input id="learn-dk" data-testid="learn-dk" type="number" min="2" max="128"
                            prop:value=move || setup().d_k().to_string() on:change=number(Field::Dk, |s, v| s.d_model = v * s.heads) />
                        {error_of(Field::Dk)}
                    </div>
                    <div class="field">
                        <label class="field__label" for="learn-layers">{tr(LearnMsg::Layers)}</label>
                        <select id="learn-layers" data-testid="learn-layers" on:change=number(Field::Layers, |s, v| s.layers = v)>
                            <option value="1" selected=move || setup().layers == 1>"1"</option>
                            <option value="2" selected=move || setup().layers == 2>"2"</option>
                        </select>
                        {error_of(Field::Layers)}
                    </div>
                    <div class="field">
                        <label class="field__label" for="learn-lr">{tr(LearnMsg::LearningRate)}</label>
                        <input id="learn-lr" data-testid="learn-lr" type="number" step="any" min="0" max="1"
                            prop:value=move || setup().learning_rate.to_string()
                            on:change=move |ev| {
                                let value = event_target_value(&ev).trim().parse::<f64>();
                                apply(Field::LearningRate, &|s| value.as_ref().map(|&v| s.learning_rate = v).is_ok());
                            } />
                        {error_of(Field::LearningRate)}
                    </div>
                    <div class="field">
                        <label class="field__label" for="learn-batch">{tr(LearnMsg::Batch)}</label>
                        <input id="learn-batch" data-testid="learn-batch" type="number" min="1" max="256"
                            prop:value=move || setup().batch.to_string() on:change=number(Field::Batch, |s, v| s.batch = v) />
                        {error_of(Field::Batch)}
                    </div>
                    <div class="field">
                        <label class="field__label" for="learn-seed">{tr(LearnMsg::Seed)}</label>
                        <input id="learn-seed" data-testid="learn-seed" type="number" min="0"
                            prop:value=move || setup().seed.to_string()
                            on:change=move |ev| {
                                let value = event_target_value(&ev).trim().parse::<u64>();
                                apply(Field::Seed, &|s| value.as_ref().map(|&v| s.seed = v).is_ok());
                            } />
                        {error_of(Field::Seed)}
                    </div>
                </div>
                <label class="switch">
                    <input type="checkbox" data-testid="learn-scale" prop:checked=move || setup().scaled
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            apply(Field::Task, &|s| { s.scaled = on; true });
                        } />
                    " " {tr(LearnMsg::Scale)}
                </label>
            </div>
            <div class="learn__buttons">
                <button type="button" class="button button--primary" data-testid="learn-train"
                    aria-pressed=move || snap.with(|s| s.as_ref().is_some_and(|s| s.running)).to_string()
                    disabled=move || snap.with(|s| s.as_ref().is_some_and(|s| s.diverged.is_some()))
                    on:click=move |_| toggle()>
                    {move || tr(if snap.with(|s| s.as_ref().is_some_and(|s| s.running)) { LearnMsg::Pause } else { LearnMsg::Train })}
                </button>
                <button type="button" class="button" data-testid="learn-step" on:click=move |_| { single_step(); }>{tr(LearnMsg::Step)}</button>
                <button type="button" class="button" data-testid="learn-reset" on:click=move |_| {
                    if let Ok(session) = Session::new(setup()) {
                        error.set(None);
                        reset(session);
                    }
                }>{tr(LearnMsg::Reset)}</button>
            </div>
            <p class="field__error" role="alert" data-testid="learn-diverged">
                {move || snap.with(|s| s.as_ref().and_then(|s| s.diverged)).map(|step| fill(tr(LearnMsg::Diverged), &[("step", &step.to_string())]))}
            </p>
            <dl class="readouts">
                <div class="readouts__item"><dt>{tr(LearnMsg::Steps)}</dt><dd data-testid="learn-steps">{readout(|s| s.steps.to_string())}</dd></div>
                <div class="readouts__item"><dt>{tr(LearnMsg::Loss)}</dt><dd data-testid="learn-loss">{readout(|s| s.loss.map_or("–".into(), |l| format!("{l:.4}")))}</dd></div>
                <div class="readouts__item"><dt>{tr(LearnMsg::Accuracy)}</dt><dd data-testid="learn-accuracy">{readout(|s| format!("{:.3}", s.accuracy))}</dd></div>
                <div class="readouts__item"><dt>{tr(LearnMsg::Speed)}</dt><dd data-testid="learn-speed">{readout(|s| format!("{:.0}", s.speed))}</dd></div>
            </dl>
            <div class="stage__grid">
                <RunChart caption=tr(LearnMsg::LossChart) testid="learn-loss-chart" ink=ink
                    points=Signal::derive(move || snap.with(|s| s.as_ref().map(|s| s.losses.clone()).unwrap_or_default())) top=None />
                <RunChart caption=tr(LearnMsg::AccuracyChart) testid="learn-accuracy-chart" ink=ink
                    points=Signal::derive(move || snap.with(|s| s.as_ref().map(|s| s.accuracies.clone()).unwrap_or_default())) top=Some(1.0) />
            </div>
            <div class="field">
                <label class="field__label" for="learn-example">{tr(LearnMsg::Example)}</label>
                <input id="learn-example" data-testid="learn-example" type="text" prop:value=example_text on:change=on_example />
                {example_error}
            </div>
            <h3 class="view__subtitle">{tr(LearnMsg::Weights)}</h3>
            <div class="stage__heads">
                {move || {
                    let (layers, heads) = snap.with(|s| s.as_ref().map_or((0, 0), |s| (s.setup.layers, s.setup.heads)));
                    (0..layers).flat_map(|l| (0..heads).map(move |h| (l, h))).map(|(l, h)| {
                        let spec = Signal::derive(move || snap.with(|s| s.as_ref().and_then(|s| head_spec(s, l, h))));
                        let caption = fill(tr(LearnMsg::HeadMap), &[("l", &(l + 1).to_string()), ("h", &(h + 1).to_string())]);
                        view! { <HeadMap spec=spec caption=caption ink=ink /> }
                    }).collect_view()
                }}
            </div>
        </div>
    }
}

/// Head `h` of layer `l` on the example, as a heatmap (future keys greyed: the causal mask).
fn head_spec(s: &Snapshot, l: usize, h: usize) -> Option<HeatmapSpec> {
    let values = s.weights.get(l)?.get(h)?.clone();
    let digits = digits_of(s.setup.task).1;
    let labels: Vec<String> = s.example.iter().map(|&t| label(t, digits)).collect();
    let n = labels.len();
    Some(HeatmapSpec {
        values,
        row_labels: labels.clone(),
        col_labels: labels,
        scale: Scale::Sequential { min: 0.0, max: 1.0 },
        blocked: Some(Array2::from_shape_fn((n, n), |(i, j)| j > i)),
    })
}

/// One head's attention on a canvas, redrawn when it changes.
#[component]
fn HeadMap(spec: Signal<Option<HeatmapSpec>>, caption: String, ink: Ink) -> impl IntoView {
    let figure = NodeRef::<html::Figure>::new();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let (Some(figure), Some(canvas)) = (figure.get(), canvas.get()) else { return };
        spec.with(|spec| {
            let Some(spec) = spec else { return };
            let width = f64::from(figure.client_width()).max(160.0);
            let opts = DrawOptions { ink, sizing: Sizing::DESK, highlight: (None, None) };
            if draw(&canvas, spec, width, opts).is_ok() {
                let _ = canvas.set_attribute("data-drawn", "true");
            }
        });
    });
    view! {
        <figure class="heatmap" data-testid="learn-head" node_ref=figure>
            <figcaption class="heatmap__caption">{caption.clone()}</figcaption>
            <canvas class="heatmap__canvas" node_ref=canvas role="img" aria-label=caption></canvas>
        </figure>
    }
}

/// A quantity of the run against its steps.
#[component]
fn RunChart(
    caption: &'static str,
    testid: &'static str,
    ink: Ink,
    points: Signal<Vec<(usize, f64)>>,
    top: Option<f64>,
) -> impl IntoView {
    let figure = NodeRef::<html::Figure>::new();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let (Some(figure), Some(canvas)) = (figure.get(), canvas.get()) else { return };
        let width = f64::from(figure.client_width()).clamp(200.0, 900.0);
        points.with(|p| {
            if draw_runs(&canvas, std::slice::from_ref(p), top, width, ink).is_ok() {
                let _ = canvas.set_attribute("data-drawn", "true");
            }
        });
    });
    view! {
        <figure class="chart" data-testid=testid node_ref=figure>
            <figcaption class="chart__caption">{caption}</figcaption>
            <canvas class="chart__canvas" node_ref=canvas role="img" aria-label=caption></canvas>
        </figure>
    }
}
