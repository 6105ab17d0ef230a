//! The training view's settings: the task (and what to expect of it), the model's sizes, the
//! optimiser's, the seed and the ÷√d_k switch. A change starts a fresh run when every setting is
//! in range (and goes into the URL); otherwise its message goes beside the control that was
//! changed, and the last good run stays.

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
    let tr = move |m: LearnMsg| t(lang, m);
    // `change` edits a copy of the setup; `false` when the typed value is not a number.
    let apply = move |field: Field, change: &dyn Fn(&mut Setup) -> bool| {
        let mut next = setup.get_untracked();
        if !change(&mut next) {
            error.set(Some((field, unreadable(lang, field))));
            return;
        }
        match next.check() {
            Ok(()) => {
                error.set(None);
                query::write(&next);
                reset(next);
            }
            Err(e) => error.set(Some((field, range_message(lang, e)))),
        }
    };
    let number = move |field: Field, set: fn(&mut Setup, usize) -> Option<()>| {
        move |ev: leptos::ev::Event| {
            let value = event_target_value(&ev).trim().parse::<usize>();
            apply(field, &|s| value.as_ref().ok().and_then(|&v| set(s, v)).is_some());
        }
    };
    let error_of = move |field: Field| {
        move || {
            error
                .get()
                .filter(|(f, _)| *f == field)
                .map(|(_, m)| view! { <p class="field__error" role="alert">{m}</p> })
        }
    };
    // A switch of the setup: `part` reads it, `set` writes it.
    let switch = move |testid: &'static str, part: fn(&Setup) -> bool, set: fn(&mut Setup, bool), label: LearnMsg| {
        view! {
            <label class="switch">
                <input type="checkbox" data-testid=testid prop:checked=move || part(&setup.get())
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        apply(Field::Task, &|s| { set(s, on); true });
                    } />
                " " {tr(label)}
            </label>
        }
    };
    let ranged = move |msg: LearnMsg, (lo, hi): (usize, usize)| {
        fill(tr(msg), &[("lo", &lo.to_string()), ("hi", &hi.to_string())])
    };
    let tasks = [
        (Task::Reverse, LearnMsg::ExpectReverse),
        (Task::Sort, LearnMsg::ExpectSort),
        (Task::Previous, LearnMsg::ExpectPrevious),
        (Task::Induction, LearnMsg::ExpectInduction),
    ]
    .map(|(task, expect)| (task, task_name(task), expect));
    let expect = move || tasks.iter().find(|(task, ..)| *task == setup.get().task).map(|&(.., e)| tr(e));
    let positions = [
        (Positions::Learned, LearnMsg::PositionsLearned),
        (Positions::Sinusoidal, LearnMsg::PositionsSinusoidal),
        (Positions::Rotary, LearnMsg::PositionsRope),
    ];
    // What generating keeps per token, for the K/V heads chosen.
    let cache_size = move || {
        let s = setup.get();
        let (layers, kv, dk) = (s.n_layers, s.kv_heads(), s.d_k());
        let kind = match kv {
            _ if kv == s.n_heads => tr(LearnMsg::CacheMha).to_string(),
            1 => tr(LearnMsg::CacheMqa).to_string(),
            _ => fill(tr(LearnMsg::CacheGqa), &[("per", &(s.n_heads / kv.max(1)).to_string())]),
        };
        let numbers = |k: usize| (2 * layers * k * dk).to_string();
        fill(
            tr(LearnMsg::CacheSize),
            &[
                ("kind", &kind),
                ("layers", &layers.to_string()),
                ("kv", &kv.to_string()),
                ("dk", &dk.to_string()),
                ("n", &numbers(kv)),
                ("full", &numbers(s.n_heads)),
            ],
        )
    };
    let (d_lo, d_hi) = Setup::D_MODEL;
    let (h_lo, h_hi) = Setup::HEADS;
    let (b_lo, b_hi) = Setup::BATCH;
    let (l_lo, l_hi) = Setup::LAYERS;
    view! {
        <div class="learn__setup">
            <div class="field">
                <label class="field__label" for="learn-task">{tr(LearnMsg::Task)}</label>
                <select id="learn-task" data-testid="learn-task" on:change=move |ev| {
                    let task = Task::from_slug(&event_target_value(&ev));
                    apply(Field::Task, &|s| task.map(|t| {
                        s.task = t;
                        // Induction needs its second layer.
                        if t == Task::Induction { s.n_layers = 2; }
                    }).is_some());
                }>
                    {tasks.iter().map(|&(task, name, _)| view! {
                        <option value=task.slug() selected=move || setup.get().task == task>{tr(name)}</option>
                    }).collect_view()}
                </select>
                {error_of(Field::Task)}
            </div>
            <p class="view__text learn__expect" data-testid="learn-expect">{expect}</p>
            <div class="learn__fields">
                <div class="field">
                    <label class="field__label" for="learn-dmodel">{ranged(LearnMsg::DModel, Setup::D_MODEL)}</label>
                    <input id="learn-dmodel" data-testid="learn-dmodel" type="number" min=d_lo max=d_hi
                        prop:value=move || setup.get().d_model.to_string()
                        on:change=number(Field::DModel, |s, v| { s.d_model = v; Some(()) }) />
                    {error_of(Field::DModel)}
                </div>
                <div class="field">
                    <label class="field__label" for="learn-heads">{ranged(LearnMsg::Heads, Setup::HEADS)}</label>
                    <input id="learn-heads" data-testid="learn-heads" type="number" min=h_lo max=h_hi
                        prop:value=move || setup.get().n_heads.to_string()
                        on:change=number(Field::Heads, |s, v| { s.n_heads = v; Some(()) }) />
                    {error_of(Field::Heads)}
                </div>
                <div class="field">
                    <label class="field__label" for="learn-kv-heads">{move || fill(tr(LearnMsg::KvHeads), &[("hi", &setup.get().n_heads.to_string())])}</label>
                    <input id="learn-kv-heads" data-testid="learn-kv-heads" type="number" min="1" max=move || setup.get().n_heads
                        prop:value=move || setup.get().kv_heads().to_string()
                        on:change=number(Field::KvHeads, |s, v| { s.kv_heads = (v != s.n_heads).then_some(v); Some(()) }) />
                    {error_of(Field::KvHeads)}
                </div>
                <div class="field">
                    <label class="field__label" for="learn-positions">{tr(LearnMsg::Positions)}</label>
                    <select id="learn-positions" data-testid="learn-positions" on:change=move |ev| {
                        let chosen = Positions::from_slug(&event_target_value(&ev));
                        apply(Field::Positions, &|s| chosen.map(|p| s.positions = p).is_some());
                    }>
                        {positions.map(|(p, name)| view! {
                            <option value=p.slug() selected=move || setup.get().positions == p>{tr(name)}</option>
                        }).collect_view()}
                    </select>
                    {error_of(Field::Positions)}
                </div>
                <div class="field">
                    <label class="field__label" for="learn-dk">{move || fill(tr(LearnMsg::DkIs), &[("dk", &setup.get().d_k().to_string())])}</label>
                    <input id="learn-dk" data-testid="learn-dk" type="number" min="1" max=move || d_hi / setup.get().n_heads.max(1)
                        prop:value=move || setup.get().d_k().to_string()
                        on:change=number(Field::Dk, |s, v| { s.d_model = v.checked_mul(s.n_heads)?; Some(()) }) />
                    {error_of(Field::Dk)}
                </div>
                <div class="field">
                    <label class="field__label" for="learn-layers">{tr(LearnMsg::Layers)}</label>
                    <select id="learn-layers" data-testid="learn-layers" on:change=number(Field::Layers, |s, v| { s.n_layers = v; Some(()) })>
                        {(l_lo..=l_hi).map(|n| view! { <option value=n selected=move || setup.get().n_layers == n>{n}</option> }).collect_view()}
                    </select>
                    {error_of(Field::Layers)}
                </div>
                <div class="field">
                    <label class="field__label" for="learn-lr">{tr(LearnMsg::LearningRate)}</label>
                    <input id="learn-lr" data-testid="learn-lr" type="number" step="any" min="0" max="1"
                        prop:value=move || setup.get().learning_rate.to_string()
                        on:change=move |ev| {
                            let value = event_target_value(&ev).trim().parse::<f64>();
                            apply(Field::LearningRate, &|s| value.as_ref().map(|&v| s.learning_rate = v).is_ok());
                        } />
                    {error_of(Field::LearningRate)}
                </div>
                <div class="field">
                    <label class="field__label" for="learn-batch">{tr(LearnMsg::Batch)}</label>
                    <input id="learn-batch" data-testid="learn-batch" type="number" min=b_lo max=b_hi
                        prop:value=move || setup.get().batch.to_string()
                        on:change=number(Field::Batch, |s, v| { s.batch = v; Some(()) }) />
                    {error_of(Field::Batch)}
                </div>
                <div class="field">
                    <label class="field__label" for="learn-seed">{tr(LearnMsg::Seed)}</label>
                    <input id="learn-seed" data-testid="learn-seed" type="number" min="0"
                        prop:value=move || setup.get().seed.to_string()
                        on:change=move |ev| {
                            let value = event_target_value(&ev).trim().parse::<u64>();
                            apply(Field::Seed, &|s| value.as_ref().map(|&v| s.seed = v).is_ok());
                        } />
                    {error_of(Field::Seed)}
                </div>
            </div>
            <p class="field__hint" data-testid="learn-cache-size">{cache_size}</p>
            {switch("learn-scale", |s| s.scaled, |s, on| s.scaled = on, LearnMsg::Scale)}
            {switch("learn-mlp", |s| s.mlp, |s, on| s.mlp = on, LearnMsg::Mlp)}
        </div>
    }
}
