//! The training view's settings: the task (and what to expect of it), the model's sizes, the
//! optimiser's, the seed and the ÷√d_k switch. A change starts a fresh run when every setting is
//! in range (and goes into the URL); otherwise its message goes beside the control that was
//! changed, and the last good run stays.
//!
//! [`SetupForm`] lays the controls out; each is a component of its own that edits the setup
//! through an [`Editor`] (which checks the edit, starts the run or says what is wrong).

use super::{query, reset};
use crate::core::train::model::Positions;
use crate::core::train::session::{Setup, SetupError};
use crate::core::train::Task;
use crate::i18n::{fill, t, Lang, LearnMsg};
use leptos::prelude::*;

/// A control of the view, to put an error beside it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Field {
    Task,
    DModel,
    Heads,
    Dk,
    Layers,
    LearningRate,
    Batch,
    Seed,
    KvHeads,
    Positions,
    Example,
}

/// A task's name, as the task picker says it.
pub fn task_name(task: Task) -> LearnMsg {
    match task {
        Task::Reverse => LearnMsg::TaskReverse,
        Task::Sort => LearnMsg::TaskSort,
        Task::Previous => LearnMsg::TaskPrevious,
        Task::Induction => LearnMsg::TaskInduction,
    }
}

/// The message for a setting out of range, with its range.
pub fn range_message(lang: Lang, e: SetupError) -> String {
    let range = |msg, (lo, hi): (usize, usize)| fill(t(lang, msg), &[("lo", &lo.to_string()), ("hi", &hi.to_string())]);
    match e {
        SetupError::DModel => range(LearnMsg::ErrDModel, Setup::D_MODEL),
        SetupError::Heads => range(LearnMsg::ErrHeads, Setup::HEADS),
        SetupError::Layers => range(LearnMsg::ErrLayers, Setup::LAYERS),
        SetupError::LearningRate => t(lang, LearnMsg::ErrLearningRate).to_string(),
        SetupError::Batch => range(LearnMsg::ErrBatch, Setup::BATCH),
        SetupError::KvHeads => range(LearnMsg::ErrKvHeads, Setup::HEADS),
    }
}

/// The control a setup error belongs beside.
pub fn field_of(e: SetupError) -> Field {
    match e {
        SetupError::DModel => Field::DModel,
        SetupError::Heads => Field::Heads,
        SetupError::Layers => Field::Layers,
        SetupError::LearningRate => Field::LearningRate,
        SetupError::Batch => Field::Batch,
        SetupError::KvHeads => Field::KvHeads,
    }
}

/// The message for a value that is not a number at all, in `field`.
fn unreadable(lang: Lang, field: Field) -> String {
    match field {
        Field::DModel | Field::Task => range_message(lang, SetupError::DModel),
        Field::Heads | Field::Dk => range_message(lang, SetupError::Heads),
        Field::Layers => range_message(lang, SetupError::Layers),
        Field::LearningRate => range_message(lang, SetupError::LearningRate),
        Field::Batch => range_message(lang, SetupError::Batch),
        Field::Seed => t(lang, LearnMsg::ErrSeed).to_string(),
        Field::KvHeads | Field::Positions => range_message(lang, SetupError::KvHeads),
        Field::Example => String::new(),
    }
}

/// What every control of the form edits with: the setup the next run starts from, and the
/// error shown beside the control it was refused for.
#[derive(Clone, Copy)]
pub struct Editor {
    /// The setup the next run starts from.
    pub setup: Memo<Setup>,
    /// The page's language.
    pub lang: Lang,
    /// The field a typed value was refused for, with the message shown next to it.
    pub error: RwSignal<Option<(Field, String)>>,
}

impl Editor {
    /// Edit a copy of the setup with `change` (`false` when the typed value is not a number at
    /// all): in range, it goes into the URL and a fresh run starts; else `field` says why.
    fn apply(self, field: Field, change: &dyn Fn(&mut Setup) -> bool) {
        let mut next = self.setup.get_untracked();
        if !change(&mut next) {
            self.error.set(Some((field, unreadable(self.lang, field))));
            return;
        }
        match next.check() {
            Ok(()) => {
                self.error.set(None);
                query::write(&next);
                reset(next);
            }
            Err(e) => self.error.set(Some((field, range_message(self.lang, e)))),
        }
    }

    /// The message beside `field`, while there is one.
    fn error_of(self, field: Field) -> impl IntoView {
        move || {
            self.error
                .get()
                .filter(|(f, _)| *f == field)
                .map(|(_, m)| view! { <p class="field__error" role="alert">{m}</p> })
        }
    }

    fn tr(self, m: LearnMsg) -> &'static str {
        t(self.lang, m)
    }
}

/// "{label} ({lo}–{hi})": a label with its range.
fn ranged(lang: Lang, msg: LearnMsg, (lo, hi): (usize, usize)) -> String {
    fill(t(lang, msg), &[("lo", &lo.to_string()), ("hi", &hi.to_string())])
}

/// The task picker, what to expect of the task, and the model's settings.
#[component]
pub fn SetupForm(
    /// The setup the next run starts from.
    setup: Memo<Setup>,
    /// The page's language.
    lang: Lang,
    /// The field a typed value was refused for, with the message shown next to it.
    error: RwSignal<Option<(Field, String)>>,
) -> impl IntoView {
    let editor = Editor { setup, lang, error };
    let tr = move |m: LearnMsg| t(lang, m);
    let whole = |v: &str| v.parse::<usize>().ok();
    let (d_lo, d_hi) = Setup::D_MODEL;
    let (h_lo, h_hi) = Setup::HEADS;
    let (b_lo, b_hi) = Setup::BATCH;
    view! {
        <div class="learn__setup">
            <TaskPicker editor=editor />
            <div class="learn__fields">
                <SetupNumber editor=editor field=Field::DModel id="learn-dmodel" label=ranged(lang, LearnMsg::DModel, Setup::D_MODEL)
                    min=d_lo.to_string() max=d_hi.to_string() value={|s| s.d_model.to_string()}
                    set={move |s, v| whole(v).map(|v| s.d_model = v).is_some()} />
                <SetupNumber editor=editor field=Field::Heads id="learn-heads" label=ranged(lang, LearnMsg::Heads, Setup::HEADS)
                    min=h_lo.to_string() max=h_hi.to_string() value={|s| s.n_heads.to_string()}
                    set={move |s, v| whole(v).map(|v| s.n_heads = v).is_some()} />
                <SetupNumber editor=editor field=Field::KvHeads id="learn-kv-heads"
                    label=Signal::derive(move || fill(tr(LearnMsg::KvHeads), &[("hi", &setup.get().n_heads.to_string())]))
                    min="1" max=Signal::derive(move || setup.get().n_heads.to_string()) value={|s| s.kv_heads().to_string()}
                    set={move |s, v| whole(v).map(|v| s.kv_heads = (v != s.n_heads).then_some(v)).is_some()} />
                <PositionsPicker editor=editor />
                <SetupNumber editor=editor field=Field::Dk id="learn-dk"
                    label=Signal::derive(move || fill(tr(LearnMsg::DkIs), &[("dk", &setup.get().d_k().to_string())]))
                    min="1" max=Signal::derive(move || (d_hi / setup.get().n_heads.max(1)).to_string()) value={|s| s.d_k().to_string()}
                    set={move |s, v| whole(v).and_then(|v| v.checked_mul(s.n_heads)).map(|d| s.d_model = d).is_some()} />
                <LayersPicker editor=editor />
                <SetupNumber editor=editor field=Field::LearningRate id="learn-lr" label=tr(LearnMsg::LearningRate)
                    min="0" max="1" step="any" value={|s| s.learning_rate.to_string()}
                    set={|s, v| v.parse::<f64>().map(|v| s.learning_rate = v).is_ok()} />
                <SetupNumber editor=editor field=Field::Batch id="learn-batch" label=tr(LearnMsg::Batch)
                    min=b_lo.to_string() max=b_hi.to_string() value={|s| s.batch.to_string()}
                    set={move |s, v| whole(v).map(|v| s.batch = v).is_some()} />
                <SetupNumber editor=editor field=Field::Seed id="learn-seed" label=tr(LearnMsg::Seed)
                    min="0" value={|s| s.seed.to_string()}
                    set={|s, v| v.parse::<u64>().map(|v| s.seed = v).is_ok()} />
            </div>
            <CacheSize setup=setup lang=lang />
            <SetupSwitch editor=editor testid="learn-scale" part={|s| s.scaled} set={|s, on| s.scaled = on} label=LearnMsg::Scale />
            <SetupSwitch editor=editor testid="learn-mlp" part={|s| s.mlp} set={|s, on| s.mlp = on} label=LearnMsg::Mlp />
        </div>
    }
}

/// The task picker and what to expect of the chosen task (induction takes two layers).
#[component]
fn TaskPicker(editor: Editor) -> impl IntoView {
    let tasks = [
        (Task::Reverse, LearnMsg::ExpectReverse),
        (Task::Sort, LearnMsg::ExpectSort),
        (Task::Previous, LearnMsg::ExpectPrevious),
        (Task::Induction, LearnMsg::ExpectInduction),
    ];
    let setup = editor.setup;
    let expect = move || tasks.iter().find(|(task, _)| *task == setup.get().task).map(|&(_, e)| editor.tr(e));
    view! {
        <div class="field">
            <label class="field__label" for="learn-task">{editor.tr(LearnMsg::Task)}</label>
            <select id="learn-task" data-testid="learn-task" on:change=move |ev| {
                let task = Task::from_slug(&event_target_value(&ev));
                editor.apply(Field::Task, &|s| task.map(|t| {
                    s.task = t;
                    // Induction needs its second layer.
                    if t == Task::Induction { s.n_layers = 2; }
                }).is_some());
            }>
                {tasks.map(|(task, _)| view! {
                    <option value=task.slug() selected=move || setup.get().task == task>{editor.tr(task_name(task))}</option>
                }).collect_view()}
            </select>
            {editor.error_of(Field::Task)}
        </div>
        <p class="view__text learn__expect" data-testid="learn-expect">{expect}</p>
    }
}

/// A number of the setup, typed: its label, its bounds for the browser's own checks, the value
/// `value` reads, and `set`, which writes a typed text into the setup (`false`: not a number).
#[component]
fn SetupNumber(
    editor: Editor,
    /// The control, to put its error beside it.
    field: Field,
    /// Its element id and `data-testid`.
    id: &'static str,
    #[prop(into)] label: Signal<String>,
    #[prop(into)] min: Signal<String>,
    #[prop(into, optional)] max: Option<Signal<String>>,
    #[prop(optional)] step: Option<&'static str>,
    value: fn(&Setup) -> String,
    set: impl Fn(&mut Setup, &str) -> bool + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let setup = editor.setup;
    view! {
        <div class="field">
            <label class="field__label" for=id>{label}</label>
            <input id=id data-testid=id type="number" min=min max=move || max.map(|m| m.get()) step=step
                prop:value=move || value(&setup.get())
                on:change=move |ev| {
                    let text = event_target_value(&ev);
                    editor.apply(field, &|s| set(s, text.trim()));
                } />
            {editor.error_of(field)}
        </div>
    }
}

/// How the model knows positions: learned, sinusoidal or rotary (RoPE).
#[component]
fn PositionsPicker(editor: Editor) -> impl IntoView {
    let positions = [
        (Positions::Learned, LearnMsg::PositionsLearned),
        (Positions::Sinusoidal, LearnMsg::PositionsSinusoidal),
        (Positions::Rotary, LearnMsg::PositionsRope),
    ];
    let setup = editor.setup;
    view! {
        <div class="field">
            <label class="field__label" for="learn-positions">{editor.tr(LearnMsg::Positions)}</label>
            <select id="learn-positions" data-testid="learn-positions" on:change=move |ev| {
                let chosen = Positions::from_slug(&event_target_value(&ev));
                editor.apply(Field::Positions, &|s| chosen.map(|p| s.positions = p).is_some());
            }>
                {positions.map(|(p, name)| view! {
                    <option value=p.slug() selected=move || setup.get().positions == p>{editor.tr(name)}</option>
                }).collect_view()}
            </select>
            {editor.error_of(Field::Positions)}
        </div>
    }
}

/// How many layers, from the ones the setup allows.
#[component]
fn LayersPicker(editor: Editor) -> impl IntoView {
    let (lo, hi) = Setup::LAYERS;
    let setup = editor.setup;
    view! {
        <div class="field">
            <label class="field__label" for="learn-layers">{editor.tr(LearnMsg::Layers)}</label>
            <select id="learn-layers" data-testid="learn-layers" on:change=move |ev| {
                let layers = event_target_value(&ev).trim().parse::<usize>().ok();
                editor.apply(Field::Layers, &|s| layers.map(|n| s.n_layers = n).is_some());
            }>
                {(lo..=hi).map(|n| view! { <option value=n selected=move || setup.get().n_layers == n>{n}</option> }).collect_view()}
            </select>
            {editor.error_of(Field::Layers)}
        </div>
    }
}

/// What generating keeps per token for the K/V heads chosen (multi-head, grouped or
/// multi-query), against all heads.
#[component]
fn CacheSize(setup: Memo<Setup>, lang: Lang) -> impl IntoView {
    let tr = move |m: LearnMsg| t(lang, m);
    let line = move || {
        let s = setup.get();
        let (layers, kv, dk) = (s.n_layers, s.kv_heads(), s.d_k());
        let kind = match kv {
            _ if kv == s.n_heads => tr(LearnMsg::CacheMha).to_string(),
            1 => tr(LearnMsg::CacheMqa).to_string(),
            _ => fill(tr(LearnMsg::CacheGqa), &[("per", &(s.n_heads / kv.max(1)).to_string())]),
        };
        let numbers = |k: usize| (2 * layers * k * dk).to_string();
        let pairs = [
            ("kind", kind),
            ("layers", layers.to_string()),
            ("kv", kv.to_string()),
            ("dk", dk.to_string()),
            ("n", numbers(kv)),
            ("full", numbers(s.n_heads)),
        ];
        fill(tr(LearnMsg::CacheSize), &pairs.each_ref().map(|(k, v)| (*k, v.as_str())))
    };
    view! { <p class="field__hint" data-testid="learn-cache-size">{line}</p> }
}

/// A switch of the setup: `part` reads it, `set` writes it.
#[component]
fn SetupSwitch(
    editor: Editor,
    testid: &'static str,
    part: fn(&Setup) -> bool,
    set: fn(&mut Setup, bool),
    label: LearnMsg,
) -> impl IntoView {
    let setup = editor.setup;
    view! {
        <label class="switch">
            <input type="checkbox" data-testid=testid prop:checked=move || part(&setup.get())
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    editor.apply(Field::Task, &|s| { set(s, on); true });
                } />
            " " {editor.tr(label)}
        </label>
    }
}
