//! The training view's generator: the learner's model, as the run last came to rest, writes
//! from a prompt one token at a time (`core::train::generate`), greedily or sampled, with the
//! K/V cache or recomputing. It shows each new row of attention per layer and head, the
//! next-token probabilities, the cache growing a row a step, and the work each step took both
//! ways; for *reverse*, which generated digits are right.
//!
//! [`GeneratePanel`] owns the state (the model it writes with, the prompt, how it picks, the
//! generation under way) and lays out its parts: the controls (`controls`) and what they show
//! of the generation (`shown`), each taking what it reads as props.

mod controls;
mod shown;

use super::with_run;
use crate::bridge::{read_pairs, YOURS_KEY};
use crate::chart::ink::Ink;
use crate::core::train::generate::{Generation, Sampling};
use crate::core::train::model::Config;
use crate::core::train::session::digits_of;
use crate::core::train::tasks::token_text;
use crate::core::train::yours::YourModel;
use crate::core::train::Params;
use crate::core::train::Task;
use crate::hosted::address;
use crate::i18n::{fill, t, GenerateMsg, Lang};
use crate::settings::url::GENERATE_KEY;
use crate::shared::Shared;
use controls::{PromptField, SamplingFields, SourcePicker, StepButtons};
use leptos::prelude::*;
use shown::{AttentionRows, CacheMaps, Output, Probabilities, StepLine, Work};
use std::sync::Arc;

/// A model to generate with: the run's as it last came to rest, or the one saved for the lesson.
#[derive(Debug, Clone)]
pub struct Writer {
    pub params: Params,
    pub config: Config,
    pub task: Task,
    /// An example of its task (the prompt starts from its first half).
    pub example: Vec<usize>,
    /// The steps it trained for.
    pub steps: usize,
}

impl Writer {
    /// The prompt it starts from: the first half of its example and one token more, which is
    /// the digits and the separator (reverse, sort), or the run of digits and its first digit
    /// again (induction).
    fn first_prompt(&self) -> Vec<usize> {
        self.example.iter().take(self.example.len() / 2 + 1).copied().collect()
    }
}

/// The model the panel writes with, if any.
type Chosen = Memo<Option<Shared<Writer>>>;

/// What the browser keeps for the lesson (`bridge::YOURS_KEY`): `None` if nothing, `Err` with
/// its task and steps if it was saved without an unembedding (before generating existed).
fn saved_writer() -> Option<Result<Writer, (Task, usize)>> {
    let storage = window().local_storage().ok().flatten()?;
    let model = YourModel::parse(&storage.get_item(YOURS_KEY).ok().flatten()?)?;
    Some(match model.generator() {
        Some((params, config)) => {
            let (task, example, steps) = (model.task(), model.example_ids().to_vec(), model.steps());
            Ok(Writer { params, config, task, example, steps })
        }
        None => Err((model.task(), model.steps())),
    })
}

/// The run's model at rest, to generate with.
fn run_writer() -> Option<Writer> {
    with_run(|run| {
        let t = &run.main;
        let config = t.progress.setup.config();
        (t.params_step == t.progress.steps).then(|| Writer {
            params: t.params.clone(),
            config,
            task: t.progress.setup.task,
            example: run.example.clone(),
            steps: t.progress.steps,
        })
    })
    .flatten()
}

/// Tokens as their task writes them (`digits`: how many digits it has).
fn texts(tokens: &[usize], digits: usize) -> Vec<String> {
    tokens.iter().map(|&t| token_text(t, digits)).collect()
}

/// What a prompt the model cannot read is told: the longest it reads, the largest digit.
fn prompt_error(lang: Lang, context: usize, digits: usize) -> String {
    let pairs = [("n", context.to_string()), ("max", (digits - 1).to_string())];
    fill(t(lang, GenerateMsg::ErrPrompt), &pairs.each_ref().map(|(k, v)| (*k, v.as_str())))
}

/// The panel; `rested` is the step of the run's model at rest, if any. It writes with that
/// model, or with the one saved for the lesson (the link's `lgen=saved` chooses it).
#[component]
pub fn GeneratePanel(rested: Memo<Option<usize>>, lang: Lang, ink: Ink) -> impl IntoView {
    let tr = move |m: GenerateMsg| t(lang, m);
    let saved = saved_writer();
    let old = saved.as_ref().and_then(|s| s.as_ref().err().copied());
    let saved = saved.and_then(Result::ok).map(|w| Shared(Arc::new(w)));
    let asked = read_pairs(&address(), &[GENERATE_KEY]).into_iter().any(|(_, v)| v.as_deref() == Some("saved"));
    let use_saved = RwSignal::new(asked && saved.is_some());
    let saved_for_memo = saved.clone();
    let writer: Chosen = Memo::new(move |_| match use_saved.get() {
        true => saved_for_memo.clone(),
        false => {
            rested.get()?;
            run_writer().map(|w| Shared(Arc::new(w)))
        }
    });
    let task = Memo::new(move |_| writer.with(|w| w.as_ref().map(|w| w.0.task)).unwrap_or(Task::Reverse));
    let config = Memo::new(move |_| writer.with(|w| w.as_ref().map(|w| w.0.config)));
    let digits = Signal::derive(move || digits_of(task.get()).1);
    let context = Signal::derive(move || config.get().map_or(0, |c| c.context));
    let prompt = RwSignal::new(writer.with_untracked(|w| w.as_ref().map(|w| w.0.first_prompt())).unwrap_or_default());
    let error = RwSignal::new(None::<String>);
    let sampled = RwSignal::new(false);
    let sampling = RwSignal::new(Sampling { temperature: 1.0, top_k: 0, seed: 1 });
    let cached = RwSignal::new(true);
    let generation = RwSignal::new(None::<Generation>);
    let last_ms = RwSignal::new(None::<f64>);
    // Another model: the generation starts again (another task or shape: from its own prompt).
    Effect::new(move |previous: Option<Option<(Task, Config)>>| {
        let now = writer.with(|w| w.as_ref().map(|w| (w.0.task, w.0.config)));
        if previous.flatten() != now {
            if let Some(p) = writer.with_untracked(|w| w.as_ref().map(|w| w.0.first_prompt())) {
                prompt.set(p);
            }
        }
        generation.set(None);
        now
    });
    // One token more, or as many as fit; a new generation from the prompt if none is under way.
    let step = move |until_full: bool| {
        if generation.with_untracked(Option::is_none) {
            let chosen = if sampled.get_untracked() { sampling.get_untracked() } else { Sampling::GREEDY };
            let made = writer.with_untracked(|w| {
                let w = &w.as_ref()?.0;
                Some(Generation::start(&w.params, &w.config, &prompt.get_untracked(), chosen))
            });
            match made {
                Some(Ok(g)) => generation.set(Some(g)),
                Some(Err(_)) => {
                    return error.set(Some(prompt_error(lang, context.get_untracked(), digits.get_untracked())))
                }
                None => return,
            }
        }
        let t0 = super::now();
        generation.update(|g| {
            if let Some(g) = g {
                g.cached = cached.get_untracked();
                while g.step().is_some() && until_full {}
            }
        });
        last_ms.set(Some(super::now() - t0));
    };
    let tokens = Memo::new(move |_| generation.with(|g| g.as_ref().map(|g| g.tokens.clone())).unwrap_or_default());
    let steps = Memo::new(move |_| generation.with(|g| g.as_ref().map(|g| g.steps.clone())).unwrap_or_default());
    let shape = Memo::new(move |_| config.get().map_or((0, 0, 0, 0), |c| (c.n_layers, c.n_heads, c.kv_heads, c.d_k())));
    let has_model = Memo::new(move |_| writer.with(Option::is_some));
    // Sent here from the lesson (*Generate with this model*): the panel, far down the view, is
    // where the learner lands, once it is laid out (found in the document: the view may be gone
    // by the next frame).
    if asked {
        request_animation_frame(|| {
            if let Ok(Some(panel)) = document().query_selector("[data-testid='gen-panel']") {
                panel.scroll_into_view();
            }
        });
    }
    view! {
        <section class="gen" data-testid="gen-panel">
            <h3 class="view__subtitle">{tr(GenerateMsg::Title)}</h3>
            <p class="view__text">{tr(GenerateMsg::Intro)}</p>
            <Show when=move || task.get() != Task::Previous
                fallback=move || view! { <p class="view__text" data-testid="gen-not-generative">{tr(GenerateMsg::NotGenerative)}</p> }>
                {move || (!has_model.get()).then(|| view! { <p class="stage__note">{tr(GenerateMsg::NeedsModel)}</p> })}
                {saved.clone().map(|w| view! { <SourcePicker saved=w use_saved=use_saved lang=lang /> })}
                {old.map(|_| view! { <p class="stage__note" data-testid="gen-saved-old">{tr(GenerateMsg::SavedOld)}</p> })}
                <PromptField prompt=prompt error=error generation=generation task=task digits=digits context=context lang=lang />
                <SamplingFields sampled=sampled sampling=sampling generation=generation lang=lang />
                <label class="switch">
                    <input type="checkbox" data-testid="gen-cache-toggle" prop:checked=move || cached.get()
                        on:change=move |ev| cached.set(event_target_checked(&ev)) />
                    " " {tr(GenerateMsg::CacheToggle)}
                </label>
                <StepButtons has_model=has_model generation=generation step=step lang=lang />
                <Output generation=generation task=task digits=digits lang=lang />
                <StepLine steps=steps tokens=tokens digits=digits generation=generation context=context lang=lang />
                <p class="stage__note" data-testid="gen-no-mask">{tr(GenerateMsg::NoMask)}</p>
                <AttentionRows steps=steps tokens=tokens digits=digits shape=shape lang=lang ink=ink />
                <Probabilities steps=steps digits=digits lang=lang />
                <CacheMaps generation=generation tokens=tokens digits=digits shape=shape cached=cached lang=lang ink=ink />
                <Work steps=steps generation=generation last_ms=last_ms lang=lang />
            </Show>
        </section>
    }
}
