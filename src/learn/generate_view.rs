//! The training view's generator: the learner's model, as the run last came to rest, writes
//! from a prompt one token at a time (`core::train::generate`), greedily or sampled, with the
//! K/V cache or recomputing. It shows each new row of attention per layer and head, the
//! next-token probabilities, the cache growing a row a step, and the work each step took both
//! ways; for *reverse*, which generated digits are right.

use super::setup::task_name;
use super::with_run;
use crate::bridge::{read_pairs, with_pairs, YOURS_KEY};
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::ink::Ink;
use crate::core::order::largest_first;
use crate::core::train::generate::{reversed, Generation, Sampling, Step};
use crate::core::train::model::Config;
use crate::core::train::session::{digits_of, read_tokens};
use crate::core::train::tasks::token_text;
use crate::core::train::yours::YourModel;
use crate::core::train::Params;
use crate::core::train::Task;
use crate::figures::Heatmap;
use crate::hosted::{address, replace_query};
use crate::i18n::{fill, t, GenerateMsg, Lang};
use crate::settings::url::GENERATE_KEY;
use crate::shared::Shared;
use leptos::prelude::*;
use ndarray::Array2;
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

/// Each step's row of one head's attention, stacked: (steps, keys of the last step).
fn rows_spec(steps: &[Step], layer: usize, head: usize, texts: &[String]) -> Option<HeatmapSpec> {
    let keys = steps.last()?.position + 1;
    let mut values = Array2::zeros((steps.len(), keys));
    let mut blocked = Array2::from_elem((steps.len(), keys), false);
    for (i, step) in steps.iter().enumerate() {
        let row = step.weights.get(layer)?.get(head)?;
        for j in 0..keys {
            match row.get(j) {
                Some(w) => values[[i, j]] = *w as f32,
                None => blocked[[i, j]] = true,
            }
        }
    }
    Some(HeatmapSpec {
        values,
        row_labels: steps.iter().map(|s| texts.get(s.position).cloned().unwrap_or_default()).collect(),
        col_labels: texts.iter().take(keys).cloned().collect(),
        scale: Scale::Sequential { min: 0.0, max: 1.0 },
        blocked: Some(blocked),
    })
}

/// A cached matrix (t, d_kv) with the tokens on its rows.
fn cache_spec(m: &Array2<f64>, texts: &[String]) -> HeatmapSpec {
    let values = m.mapv(|v| v as f32);
    HeatmapSpec {
        scale: Scale::diverging_for(values.iter()),
        row_labels: texts.iter().take(m.nrows()).cloned().collect(),
        col_labels: (1..=m.ncols()).map(|c| c.to_string()).collect(),
        values,
        blocked: None,
    }
}

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
    let writer = Memo::new(move |_| match use_saved.get() {
        true => saved_for_memo.clone(),
        false => {
            rested.get()?;
            run_writer().map(|w| Shared(Arc::new(w)))
        }
    });
    let task = Memo::new(move |_| writer.with(|w| w.as_ref().map(|w| w.0.task)).unwrap_or(Task::Reverse));
    let config = Memo::new(move |_| writer.with(|w| w.as_ref().map(|w| w.0.config)));
    let digits = move || digits_of(task.get()).1;
    let texts_of = move |tokens: &[usize]| tokens.iter().map(|&t| token_text(t, digits())).collect::<Vec<_>>();
    let prompt = RwSignal::new(writer.with_untracked(|w| w.as_ref().map(|w| w.0.first_prompt())).unwrap_or_default());
    let error = RwSignal::new(None::<String>);
    let sampled = RwSignal::new(false);
    let sampling = RwSignal::new(Sampling { temperature: 1.0, top_k: 0, seed: 1 });
    let sampling_error = RwSignal::new(false);
    let cached = RwSignal::new(true);
    let generation = RwSignal::new(None::<Generation>);
    let last_ms = RwSignal::new(None::<f64>);
    // What a prompt the model cannot read is told.
    let prompt_error = move || {
        let (context, digits) = (config.get_untracked().map_or(0, |c| c.context), digits_of(task.get_untracked()).1);
        let pairs = [("n", context.to_string()), ("max", (digits - 1).to_string())];
        fill(tr(GenerateMsg::ErrPrompt), &pairs.each_ref().map(|(k, v)| (*k, v.as_str())))
    };
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
    // The generation under way, or a new one from the prompt on the model.
    let started = move || -> Option<()> {
        if generation.with_untracked(Option::is_some) {
            return Some(());
        }
        let chosen = if sampled.get_untracked() { sampling.get_untracked() } else { Sampling::GREEDY };
        let made = writer.with_untracked(|w| {
            let w = &w.as_ref()?.0;
            Some(Generation::start(&w.params, &w.config, &prompt.get_untracked(), chosen))
        })?;
        match made {
            Ok(g) => {
                generation.set(Some(g));
                Some(())
            }
            Err(_) => {
                error.set(Some(prompt_error()));
                None
            }
        }
    };
    let step = move |until_full: bool| {
        if started().is_none() {
            return;
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
    let on_prompt = move |ev: leptos::ev::Event| {
        let context = config.get_untracked().map_or(0, |c| c.context);
        match read_tokens(task.get_untracked(), &event_target_value(&ev), context) {
            Some(tokens) => {
                error.set(None);
                prompt.set(tokens);
                generation.set(None);
            }
            None => error.set(Some(prompt_error())),
        }
    };
    let sampling_field = move |read: fn(&str, &mut Sampling) -> bool| {
        move |ev: leptos::ev::Event| {
            let mut next = sampling.get_untracked();
            if read(event_target_value(&ev).trim(), &mut next) {
                sampling_error.set(false);
                sampling.set(next);
                generation.set(None);
            } else {
                sampling_error.set(true);
            }
        }
    };
    let hint = move || match task.get() {
        Task::Reverse => Some(tr(GenerateMsg::HintReverse)),
        Task::Sort => Some(tr(GenerateMsg::HintSort)),
        Task::Induction => Some(tr(GenerateMsg::HintInduction)),
        Task::Previous => None,
    };
    // What the view reads of the generation.
    let tokens = Memo::new(move |_| generation.with(|g| g.as_ref().map(|g| g.tokens.clone())).unwrap_or_default());
    let steps = Memo::new(move |_| generation.with(|g| g.as_ref().map(|g| g.steps.clone())).unwrap_or_default());
    let output = move || {
        generation.with(|g| {
            let g = g.as_ref()?;
            Some(texts_of(g.generated()).join(" "))
        })
    };
    // Reverse: each generated digit against the digits backwards.
    let marks = move || {
        if task.get() != Task::Reverse {
            return None;
        }
        generation.with(|g| {
            let g = g.as_ref()?;
            let want = reversed(&g.tokens[..g.prompt], digits())?;
            let got = g.generated();
            let right = got.iter().zip(&want).filter(|(a, b)| a == b).count();
            let text = fill(
                tr(GenerateMsg::Correct),
                &[("right", &right.to_string()), ("total", &got.len().to_string()), ("want", &texts_of(&want).join(" "))],
            );
            let cells = got
                .iter()
                .zip(want.iter().map(Some).chain(std::iter::repeat(None)))
                .map(|(t, w)| {
                    let ok = w == Some(t);
                    let mark = if ok { "✓" } else { "✗" };
                    view! { <span class="gen__token" class:gen__token--wrong=!ok>{token_text(*t, digits())} " " {mark}</span> }
                })
                .collect_view();
            Some(view! {
                <p class="gen__marks">{cells}</p>
                <p class="view__text" data-testid="gen-correct" data-correct=right data-total=got.len()>{text}</p>
            })
        })
    };
    let step_line = move || {
        let steps = steps.get();
        let last = steps.last()?;
        let texts = texts_of(&tokens.get());
        let percent = format!("{:.0}", last.probabilities.get(last.chosen).copied().unwrap_or(0.0) * 100.0);
        let pairs = [
            ("k", steps.len().to_string()),
            ("token", texts.get(last.position).cloned().unwrap_or_default()),
            ("p", last.position.to_string()),
            ("n", (last.position + 1).to_string()),
            ("chosen", token_text(last.chosen, digits())),
            ("percent", percent),
        ];
        Some(fill(tr(GenerateMsg::Step), &pairs.each_ref().map(|(k, v)| (*k, v.as_str()))))
    };
    let full = move || {
        generation.with(|g| {
            g.as_ref()
                .filter(|g| !g.can_step())
                .map(|_| fill(tr(GenerateMsg::Full), &[("n", &config.get().map_or(0, |c| c.context).to_string())]))
        })
    };
    let shape = Memo::new(move |_| {
        let Some(c) = config.get() else { return (0, 0, 0, 0) };
        (c.n_layers, c.n_heads, c.kv_heads, c.d_k())
    });
    let probabilities = move || {
        let last = steps.with(|s| s.last().cloned())?;
        let order = largest_first(&last.probabilities);
        let rows = order.into_iter().take(5).map(|t| {
            let p = last.probabilities[t];
            view! {
                <li class="gen__bar">
                    <span class="gen__bar-token">{token_text(t, digits())}</span>
                    <meter min="0" max="1" value=p.to_string()></meter>
                    <span>{format!("{:.1} %", p * 100.0)}</span>
                </li>
            }
        });
        Some(view! {
            <h4 class="view__subtitle">{tr(GenerateMsg::Probabilities)}</h4>
            <ol class="gen__bars" data-testid="gen-probabilities">{rows.collect_view()}</ol>
        })
    };
    let work = move || {
        let steps = steps.get();
        let last = steps.last()?;
        // How the last press computed: the mode the generation last stepped in.
        let with_cache = generation.with(|g| g.as_ref().is_some_and(|g| g.cached));
        let how = if with_cache { tr(GenerateMsg::WithCache) } else { tr(GenerateMsg::Recomputed) };
        let ratio = last.work.uncached as f64 / last.work.cached.max(1) as f64;
        let pairs = [
            ("cached", last.work.cached.to_string()),
            ("uncached", last.work.uncached.to_string()),
            ("ratio", format!("{ratio:.1}")),
            ("how", how.to_string()),
            ("ms", format!("{:.2}", last_ms.get().unwrap_or(0.0))),
        ];
        let table = steps.iter().map(|s| {
            view! { <tr><td>{s.position + 1}</td><td>{s.work.cached}</td><td>{s.work.uncached}</td></tr> }
        });
        Some(view! {
            <p class="view__text" data-testid="gen-work" data-cached=last.work.cached data-uncached=last.work.uncached>
                {fill(tr(GenerateMsg::Work), &pairs.each_ref().map(|(k, v)| (*k, v.as_str())))}
            </p>
            <p class="stage__note">{tr(GenerateMsg::WorkGrows)}</p>
            <table class="depth-table gen__work">
                <caption>{tr(GenerateMsg::WorkTable)}</caption>
                <thead><tr><th>{tr(GenerateMsg::WorkN)}</th><th>{tr(GenerateMsg::WorkCached)}</th><th>{tr(GenerateMsg::WorkUncached)}</th></tr></thead>
                <tbody>{table.collect_view()}</tbody>
            </table>
        })
    };
    let rows = move || {
        let (layers, heads, ..) = shape.get();
        (!steps.with(Vec::is_empty)).then(|| {
            let maps = (0..layers).flat_map(|l| (0..heads).map(move |h| (l, h))).map(|(l, h)| {
                let spec = Signal::derive(move || rows_spec(&steps.get(), l, h, &texts_of(&tokens.get())));
                let name = fill(tr(GenerateMsg::RowsMap), &[("l", &(l + 1).to_string()), ("h", &(h + 1).to_string())]);
                view! { <Heatmap spec=spec name=name testid="gen-rows" ink=ink lang=lang spread=true /> }
            });
            view! {
                <p class="view__text">{tr(GenerateMsg::Rows)}</p>
                <div class="stage__heads">{maps.collect_view()}</div>
            }
        })
    };
    let cache = move || {
        let (layers, _, kv, dk) = shape.get();
        let rows = generation.with(|g| g.as_ref().and_then(|g| g.cache.first()).map(|c| c.k.nrows()))?;
        let title = fill(
            tr(GenerateMsg::Cache),
            &[("rows", &rows.to_string()), ("kv", &kv.to_string()), ("dk", &dk.to_string())],
        );
        let maps = (0..layers).flat_map(|l| [(l, true), (l, false)]).map(|(l, is_k)| {
            let spec = Signal::derive(move || {
                let texts = texts_of(&tokens.get());
                generation.with(|g| {
                    let c = g.as_ref()?.cache.get(l)?;
                    Some(cache_spec(if is_k { &c.k } else { &c.v }, &texts))
                })
            });
            let name =
                fill(tr(if is_k { GenerateMsg::CacheK } else { GenerateMsg::CacheV }), &[("l", &(l + 1).to_string())]);
            view! { <Heatmap spec=spec name=name testid="gen-cache-map" ink=ink lang=lang spread=true /> }
        });
        Some(view! {
            <div data-testid="kv-cache" data-rows=rows>
                <h4 class="view__subtitle">{title}</h4>
                {(!cached.get()).then(|| view! { <p class="stage__note">{tr(GenerateMsg::CacheOff)}</p> })}
                <div class="stage__grid">{maps.collect_view()}</div>
            </div>
        })
    };
    let generative = move || task.get() != Task::Previous;
    let rested = Memo::new(move |_| writer.with(Option::is_some));
    view! {
        <section class="gen" data-testid="gen-panel">
            <h3 class="view__subtitle">{tr(GenerateMsg::Title)}</h3>
            <p class="view__text">{tr(GenerateMsg::Intro)}</p>
            <Show when=generative fallback=move || view! { <p class="view__text" data-testid="gen-not-generative">{tr(GenerateMsg::NotGenerative)}</p> }>
                {move || (!rested.get()).then(|| view! { <p class="stage__note">{tr(GenerateMsg::NeedsModel)}</p> })}
                {saved.clone().map(|w| {
                    let task_name = t(lang, task_name(w.0.task));
                    let label = fill(tr(GenerateMsg::SourceSaved), &[("task", task_name), ("steps", &w.0.steps.to_string())]);
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
                })}
                {old.map(|_| view! { <p class="stage__note" data-testid="gen-saved-old">{tr(GenerateMsg::SavedOld)}</p> })}
                <div class="field">
                    <label class="field__label" for="gen-prompt">{tr(GenerateMsg::Prompt)}</label>
                    <input id="gen-prompt" type="text" class="field__text" data-testid="gen-prompt"
                        aria-invalid=move || error.with(Option::is_some).to_string()
                        prop:value=move || texts_of(&prompt.get()).join(" ") on:change=on_prompt />
                    <p class="field__hint">{hint}</p>
                    {move || error.get().map(|e| view! { <p class="field__error" role="alert" data-testid="gen-prompt-error">{e}</p> })}
                </div>
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
                                on:change=sampling_field(|v, s| v.parse::<f64>().ok().filter(|t| *t > 0.0 && *t <= 5.0).map(|t| s.temperature = t).is_some()) /></label>
                        <label class="field"><span>{tr(GenerateMsg::TopK)}</span>
                            <input type="number" min="0" data-testid="gen-top-k" prop:value=move || sampling.get().top_k.to_string()
                                on:change=sampling_field(|v, s| v.parse::<usize>().map(|k| s.top_k = k).is_ok()) /></label>
                        <label class="field"><span>{tr(GenerateMsg::Seed)}</span>
                            <input type="number" min="0" data-testid="gen-seed" prop:value=move || sampling.get().seed.to_string()
                                on:change=sampling_field(|v, s| v.parse::<u64>().map(|k| s.seed = k).is_ok()) /></label>
                    </Show>
                    {move || sampling_error.get().then(|| view! { <p class="field__error" role="alert">{tr(GenerateMsg::ErrSampling)}</p> })}
                </div>
                <label class="switch">
                    <input type="checkbox" data-testid="gen-cache-toggle" prop:checked=move || cached.get()
                        on:change=move |ev| cached.set(event_target_checked(&ev)) />
                    " " {tr(GenerateMsg::CacheToggle)}
                </label>
                <div class="learn__buttons">
                    <button type="button" class="button button--primary" data-testid="gen-next"
                        disabled=move || !rested.get() || generation.with(|g| g.as_ref().is_some_and(|g| !g.can_step()))
                        on:click=move |_| step(false)>{tr(GenerateMsg::Next)}</button>
                    <button type="button" class="button" data-testid="gen-run"
                        disabled=move || !rested.get() || generation.with(|g| g.as_ref().is_some_and(|g| !g.can_step()))
                        on:click=move |_| step(true)>{tr(GenerateMsg::Run)}</button>
                    <button type="button" class="button" data-testid="gen-reset" on:click=move |_| generation.set(None)>{tr(GenerateMsg::Reset)}</button>
                </div>
                <p class="view__text"><strong>{tr(GenerateMsg::Output)} ": "</strong>
                    <span data-testid="gen-output">{move || output().unwrap_or_default()}</span>
                    {move || output().is_none().then(|| tr(GenerateMsg::NoneYet))}
                </p>
                {marks}
                <p class="view__text" data-testid="gen-step" aria-live="polite">{step_line}</p>
                {move || full().map(|f| view! { <p class="stage__note">{f}</p> })}
                <p class="stage__note" data-testid="gen-no-mask">{tr(GenerateMsg::NoMask)}</p>
                {rows}
                {probabilities}
                {cache}
                {work}
            </Show>
        </section>
    }
}
