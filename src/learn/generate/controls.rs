//! The generator's controls: which model writes, the prompt, how the next token is picked, and
//! the buttons that step. Each says what is wrong beside itself; a change of what the next
//! generation starts from drops the one under way.

use super::super::setup::task_name;
use super::{prompt_error, texts, Writer};
use crate::bridge::with_pairs;
use crate::core::train::generate::{Generation, Sampling};
use crate::core::train::session::read_tokens;
use crate::core::train::Task;
use crate::hosted::{address, replace_query};
use crate::i18n::{fill, t, GenerateMsg, Lang};
use crate::settings::url::GENERATE_KEY;
use crate::shared::Shared;
use leptos::prelude::*;

/// Which model writes: the run's, or the one the browser keeps for the lesson (`saved`); the
/// choice goes into the link (`settings::url::GENERATE_KEY`).
#[component]
pub fn SourcePicker(saved: Shared<Writer>, use_saved: RwSignal<bool>, lang: Lang) -> impl IntoView {
    let tr = move |m: GenerateMsg| t(lang, m);
    let label = fill(
        tr(GenerateMsg::SourceSaved),
        &[("task", t(lang, task_name(saved.0.task))), ("steps", &saved.0.steps.to_string())],
    );
    view! {
        <label class="field">
            <span>{tr(GenerateMsg::Source)}</span>
            <select data-testid="gen-source" on:change=move |ev| {
                let chosen = event_target_value(&ev);
                replace_query(&with_pairs(&address(), &[(GENERATE_KEY, &chosen)]));
                use_saved.set(chosen == "saved");
            }>
                <option value="run" selected=move || !use_saved.get()>{tr(GenerateMsg::SourceRun)}</option>
                <option value="saved" selected=move || use_saved.get()>{label}</option>
            </select>
        </label>
    }
}

/// The prompt, as the task writes its tokens; one the model cannot read keeps the last good
/// prompt and says why (`error`, which a generation that cannot start also sets).
#[component]
pub fn PromptField(
    prompt: RwSignal<Vec<usize>>,
    error: RwSignal<Option<String>>,
    generation: RwSignal<Option<Generation>>,
    task: Memo<Task>,
    /// How many digits the task has.
    digits: Signal<usize>,
    /// The longest input the model reads.
    context: Signal<usize>,
    lang: Lang,
) -> impl IntoView {
    let tr = move |m: GenerateMsg| t(lang, m);
    let on_change = move |ev: leptos::ev::Event| match read_tokens(
        task.get_untracked(),
        &event_target_value(&ev),
        context.get_untracked(),
    ) {
        Some(tokens) => {
            error.set(None);
            prompt.set(tokens);
            generation.set(None);
        }
        None => error.set(Some(prompt_error(lang, context.get_untracked(), digits.get_untracked()))),
    };
    let hint = move || match task.get() {
        Task::Reverse => Some(tr(GenerateMsg::HintReverse)),
        Task::Sort => Some(tr(GenerateMsg::HintSort)),
        Task::Induction => Some(tr(GenerateMsg::HintInduction)),
        Task::Previous => None,
    };
    view! {
        <div class="field">
            <label class="field__label" for="gen-prompt">{tr(GenerateMsg::Prompt)}</label>
            <input id="gen-prompt" type="text" class="field__text" data-testid="gen-prompt"
                aria-invalid=move || error.with(Option::is_some).to_string()
                prop:value=move || texts(&prompt.get(), digits.get()).join(" ") on:change=on_change />
            <p class="field__hint">{hint}</p>
            {move || error.get().map(|e| view! { <p class="field__error" role="alert" data-testid="gen-prompt-error">{e}</p> })}
        </div>
    }
}

/// Greedy or sampled, and when sampled its temperature, top-k and seed; a value out of range
/// keeps the last good sampling and says so.
#[component]
pub fn SamplingFields(
    sampled: RwSignal<bool>,
    sampling: RwSignal<Sampling>,
    generation: RwSignal<Option<Generation>>,
    lang: Lang,
) -> impl IntoView {
    let tr = move |m: GenerateMsg| t(lang, m);
    let wrong = RwSignal::new(false);
    let field = move |read: fn(&str, &mut Sampling) -> bool| {
        move |ev: leptos::ev::Event| {
            let mut next = sampling.get_untracked();
            if read(event_target_value(&ev).trim(), &mut next) {
                wrong.set(false);
                sampling.set(next);
                generation.set(None);
            } else {
                wrong.set(true);
            }
        }
    };
    view! {
        <div class="gen__sampling">
            <label class="field">
                <span>{tr(GenerateMsg::Pick)}</span>
                <select data-testid="gen-sampling" on:change=move |ev| {
                    sampled.set(event_target_value(&ev) == "sample");
                    generation.set(None);
                }>
                    <option value="greedy" selected=move || !sampled.get()>{tr(GenerateMsg::Greedy)}</option>
                    <option value="sample" selected=move || sampled.get()>{tr(GenerateMsg::Sampled)}</option>
                </select>
            </label>
            <Show when=move || sampled.get()>
                <label class="field"><span>{tr(GenerateMsg::Temperature)}</span>
                    <input type="number" step="any" min="0.05" max="5" data-testid="gen-temperature"
                        prop:value=move || sampling.get().temperature.to_string()
                        on:change=field(|v, s| v.parse::<f64>().ok().filter(|t| *t > 0.0 && *t <= 5.0).map(|t| s.temperature = t).is_some()) /></label>
                <label class="field"><span>{tr(GenerateMsg::TopK)}</span>
                    <input type="number" min="0" data-testid="gen-top-k" prop:value=move || sampling.get().top_k.to_string()
                        on:change=field(|v, s| v.parse::<usize>().map(|k| s.top_k = k).is_ok()) /></label>
                <label class="field"><span>{tr(GenerateMsg::Seed)}</span>
                    <input type="number" min="0" data-testid="gen-seed" prop:value=move || sampling.get().seed.to_string()
                        on:change=field(|v, s| v.parse::<u64>().map(|k| s.seed = k).is_ok()) /></label>
            </Show>
            {move || wrong.get().then(|| view! { <p class="field__error" role="alert">{tr(GenerateMsg::ErrSampling)}</p> })}
        </div>
    }
}

/// One token more, as many as fit, or start again; `step(until_full)` does the stepping.
#[component]
pub fn StepButtons(
    /// Whether there is a model to write with.
    has_model: Memo<bool>,
    generation: RwSignal<Option<Generation>>,
    step: impl Fn(bool) + Copy + Send + Sync + 'static,
    lang: Lang,
) -> impl IntoView {
    let tr = move |m: GenerateMsg| t(lang, m);
    let cannot = move || !has_model.get() || generation.with(|g| g.as_ref().is_some_and(|g| !g.can_step()));
    view! {
        <div class="learn__buttons">
            <button type="button" class="button button--primary" data-testid="gen-next" disabled=cannot
                on:click=move |_| step(false)>{tr(GenerateMsg::Next)}</button>
            <button type="button" class="button" data-testid="gen-run" disabled=cannot
                on:click=move |_| step(true)>{tr(GenerateMsg::Run)}</button>
            <button type="button" class="button" data-testid="gen-reset" on:click=move |_| generation.set(None)>{tr(GenerateMsg::Reset)}</button>
        </div>
    }
}
