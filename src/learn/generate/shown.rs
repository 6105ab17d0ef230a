//! What the generator shows of the generation under way: what it wrote (for *reverse*, which
//! digits are right), the last step in a sentence, each step's row of attention per layer and
//! head, the next-token probabilities, the K/V cache, and the work each step took with the
//! cache and without. Every part reads the generation and draws nothing when there is none.

use super::texts;
use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::ink::Ink;
use crate::core::order::largest_first;
use crate::core::train::generate::{reversed, Generation, Step};
use crate::core::train::tasks::token_text;
use crate::core::train::Task;
use crate::figures::Heatmap;
use crate::i18n::{fill, t, GenerateMsg, Lang};
use leptos::prelude::*;
use ndarray::Array2;

/// The model's shape: (layers, heads, K/V heads, d_k).
type Shape = Memo<(usize, usize, usize, usize)>;

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

/// What the model wrote; for *reverse*, each generated digit against the digits backwards.
#[component]
pub fn Output(
    generation: RwSignal<Option<Generation>>,
    task: Memo<Task>,
    digits: Signal<usize>,
    lang: Lang,
) -> impl IntoView {
    let tr = move |m: GenerateMsg| t(lang, m);
    let output = move || generation.with(|g| Some(texts(g.as_ref()?.generated(), digits.get()).join(" ")));
    let marks = move || {
        if task.get() != Task::Reverse {
            return None;
        }
        let digits = digits.get();
        generation.with(|g| {
            let g = g.as_ref()?;
            let want = reversed(&g.tokens[..g.prompt], digits)?;
            let got = g.generated();
            let right = got.iter().zip(&want).filter(|(a, b)| a == b).count();
            let pairs = [("right", right.to_string()), ("total", got.len().to_string()), ("want", texts(&want, digits).join(" "))];
            let text = fill(tr(GenerateMsg::Correct), &pairs.each_ref().map(|(k, v)| (*k, v.as_str())));
            let cells = got
                .iter()
                .zip(want.iter().map(Some).chain(std::iter::repeat(None)))
                .map(|(t, w)| {
                    let ok = w == Some(t);
                    let mark = if ok { "✓" } else { "✗" };
                    view! { <span class="gen__token" class:gen__token--wrong=!ok>{token_text(*t, digits)} " " {mark}</span> }
                })
                .collect_view();
            Some(view! {
                <p class="gen__marks">{cells}</p>
                <p class="view__text" data-testid="gen-correct" data-correct=right data-total=got.len()>{text}</p>
            })
        })
    };
    view! {
        <p class="view__text"><strong>{tr(GenerateMsg::Output)} ": "</strong>
            <span data-testid="gen-output">{move || output().unwrap_or_default()}</span>
            {move || output().is_none().then(|| tr(GenerateMsg::NoneYet))}
        </p>
        {marks}
    }
}

/// The last step in a sentence (which token it read, which it chose, how likely that was), and
/// a note once the model's context is full.
#[component]
pub fn StepLine(
    steps: Memo<Vec<Step>>,
    tokens: Memo<Vec<usize>>,
    digits: Signal<usize>,
    generation: RwSignal<Option<Generation>>,
    /// The longest input the model reads.
    context: Signal<usize>,
    lang: Lang,
) -> impl IntoView {
    let tr = move |m: GenerateMsg| t(lang, m);
    let line = move || {
        let steps = steps.get();
        let last = steps.last()?;
        let texts = texts(&tokens.get(), digits.get());
        let percent = format!("{:.0}", last.probabilities.get(last.chosen).copied().unwrap_or(0.0) * 100.0);
        let pairs = [
            ("k", steps.len().to_string()),
            ("token", texts.get(last.position).cloned().unwrap_or_default()),
            ("p", last.position.to_string()),
            ("n", (last.position + 1).to_string()),
            ("chosen", token_text(last.chosen, digits.get())),
            ("percent", percent),
        ];
        Some(fill(tr(GenerateMsg::Step), &pairs.each_ref().map(|(k, v)| (*k, v.as_str()))))
    };
    let full = move || {
        let full = generation.with(|g| g.as_ref().is_some_and(|g| !g.can_step()));
        full.then(|| fill(tr(GenerateMsg::Full), &[("n", &context.get().to_string())]))
    };
    view! {
        <p class="view__text" data-testid="gen-step" aria-live="polite">{line}</p>
        {move || full().map(|f| view! { <p class="stage__note">{f}</p> })}
    }
}

/// Each step's new row of attention, one map per layer and head.
#[component]
pub fn AttentionRows(
    steps: Memo<Vec<Step>>,
    tokens: Memo<Vec<usize>>,
    digits: Signal<usize>,
    shape: Shape,
    lang: Lang,
    ink: Ink,
) -> impl IntoView {
    move || {
        let (layers, heads, ..) = shape.get();
        (!steps.with(Vec::is_empty)).then(|| {
            let maps = (0..layers).flat_map(|l| (0..heads).map(move |h| (l, h))).map(|(l, h)| {
                let spec = Signal::derive(move || rows_spec(&steps.get(), l, h, &texts(&tokens.get(), digits.get())));
                let name =
                    fill(t(lang, GenerateMsg::RowsMap), &[("l", &(l + 1).to_string()), ("h", &(h + 1).to_string())]);
                view! { <Heatmap spec=spec name=name testid="gen-rows" ink=ink lang=lang spread=true /> }
            });
            view! {
                <p class="view__text">{t(lang, GenerateMsg::Rows)}</p>
                <div class="stage__heads">{maps.collect_view()}</div>
            }
        })
    }
}

/// The five likeliest next tokens of the last step, as bars.
#[component]
pub fn Probabilities(steps: Memo<Vec<Step>>, digits: Signal<usize>, lang: Lang) -> impl IntoView {
    move || {
        let last = steps.with(|s| s.last().cloned())?;
        let rows = largest_first(&last.probabilities).into_iter().take(5).map(|t| {
            let p = last.probabilities[t];
            view! {
                <li class="gen__bar">
                    <span class="gen__bar-token">{token_text(t, digits.get())}</span>
                    <meter min="0" max="1" value=p.to_string()></meter>
                    <span>{format!("{:.1} %", p * 100.0)}</span>
                </li>
            }
        });
        Some(view! {
            <h4 class="view__subtitle">{t(lang, GenerateMsg::Probabilities)}</h4>
            <ol class="gen__bars" data-testid="gen-probabilities">{rows.collect_view()}</ol>
        })
    }
}

/// The K/V cache: K and V of each layer, a row a token.
#[component]
pub fn CacheMaps(
    generation: RwSignal<Option<Generation>>,
    tokens: Memo<Vec<usize>>,
    digits: Signal<usize>,
    shape: Shape,
    /// Whether the next step reads the cache (a note says so when it recomputes).
    cached: RwSignal<bool>,
    lang: Lang,
    ink: Ink,
) -> impl IntoView {
    let tr = move |m: GenerateMsg| t(lang, m);
    move || {
        let (layers, _, kv, dk) = shape.get();
        let rows = generation.with(|g| g.as_ref().and_then(|g| g.cache.first()).map(|c| c.k.nrows()))?;
        let pairs = [("rows", rows.to_string()), ("kv", kv.to_string()), ("dk", dk.to_string())];
        let title = fill(tr(GenerateMsg::Cache), &pairs.each_ref().map(|(k, v)| (*k, v.as_str())));
        let maps = (0..layers).flat_map(|l| [(l, true), (l, false)]).map(|(l, is_k)| {
            let spec = Signal::derive(move || {
                let texts = texts(&tokens.get(), digits.get());
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
    }
}

/// The work of the last step with the cache and without (and how the last press computed, in
/// how long), and of every step in a table.
#[component]
pub fn Work(
    steps: Memo<Vec<Step>>,
    generation: RwSignal<Option<Generation>>,
    /// How long the last press took, in milliseconds.
    last_ms: RwSignal<Option<f64>>,
    lang: Lang,
) -> impl IntoView {
    let tr = move |m: GenerateMsg| t(lang, m);
    move || {
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
    }
}
