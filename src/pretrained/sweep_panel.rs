//! The head-importance sweep of the model view: every head switched off alone in turn, each
//! scored by a readout the student picks (how far the final representations move, one token's
//! weight on another in a layer, or the similarity to a second sentence), drawn as a layers ×
//! heads grid beside the weight each head puts on the previous token, so a strong map with a
//! small effect (or the reverse) is there to see. It runs in a forward worker of its own
//! (`compute::sweeper`) with a progress bar; a cell switches that head off alone.

use super::study::Study;
use super::use_viewer;
use crate::compute::message::SweepQuestion;
use crate::compute::sweeper::{Heard, Sweeper};
use crate::core::ablate::{effect_scale, Ablation, Replacement};
use crate::core::intervene::{previous_token_weight, Readout};
use crate::core::model::{Encoding, Input, Model};
use crate::core::words::word_span;
use crate::figures::heads::{HeadValues, Measure};
use crate::i18n::{fill, t, AblateMsg, Lang};
use crate::models::ModelId;
use crate::shared::Shared;
use crate::stage_texts::replacement_name;
use leptos::prelude::*;

/// Which readout the student picked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Final,
    Weight,
    Similarity,
}

impl Kind {
    const ALL: [Kind; 3] = [Kind::Final, Kind::Weight, Kind::Similarity];

    fn slug(self) -> &'static str {
        match self {
            Kind::Final => "final",
            Kind::Weight => "weight",
            Kind::Similarity => "similarity",
        }
    }

    fn name(self) -> AblateMsg {
        match self {
            Kind::Final => AblateMsg::ReadoutFinal,
            Kind::Weight => AblateMsg::ReadoutWeight,
            Kind::Similarity => AblateMsg::ReadoutSimilarity,
        }
    }
}

/// The weight readout a class starts from: the case study's (it → animal, 它 → 动物) where the
/// sentence has both words, else the lesson's query and the key it looks at most.
fn first_weight(intact: &Encoding, lang: Lang, id: ModelId, query: usize) -> (usize, usize) {
    let study = Study::first(lang, id);
    let [word, target, _] = study.words();
    match (word_span(&intact.tokens, word), word_span(&intact.tokens, target)) {
        (Some(from), Some(to)) => (from.start, to.start),
        _ => (query, strongest_key(intact, intact.layers.len().saturating_sub(1), query)),
    }
}

/// The key a query looks at most in `layer` (the mean over its heads), the frame's ends and the
/// query itself left out where there are others.
fn strongest_key(intact: &Encoding, layer: usize, from: usize) -> usize {
    let n = intact.tokens.len();
    let Some(heads) = intact.layers.get(layer).map(|l| &l.trace.head_traces) else { return 0 };
    let inner = |j: &usize| !intact.shape.framed || (*j > 0 && *j + 1 < n);
    let mean = |j: usize| heads.iter().filter_map(|h| h.weights.get([from, j])).sum::<f32>();
    let candidates = (0..n).filter(|j| inner(j) && *j != from);
    candidates.max_by(|a, b| mean(*a).total_cmp(&mean(*b))).unwrap_or(0)
}

/// A finished sweep: what it measured, and the grid.
#[derive(Debug, Clone, PartialEq)]
struct Found {
    replacement: Replacement,
    readout: Readout,
    /// The readout with every head on (a weight or a similarity), for the scale's note.
    intact: Option<f32>,
    grid: Vec<Vec<f32>>,
}

/// The sweep's readout, button, progress, and the two grids once it has run.
#[component]
pub fn SweepPanel(
    /// The viewed model.
    model: Shared<dyn Model>,
    /// Its run on the sentence with every head on.
    intact: Shared<Encoding>,
    /// What a click on a cell switches off (that head alone).
    set: Callback<Ablation>,
    /// The second sentence, when one is typed and readable, and the two sentences' similarity
    /// with every head on.
    other: Memo<Option<(String, f32)>>,
) -> impl IntoView {
    let viewer = use_viewer();
    let lang = viewer.lang;
    let tr = move |m: AblateMsg| t(lang, m);
    let tokens: Vec<String> = intact.0.tokens.iter().map(|t| t.text.clone()).collect();
    let (layers, n) = (intact.0.layers.len(), tokens.len());
    let heads = intact.0.layers.first().map_or(0, |l| l.trace.n_heads());
    let kind = RwSignal::new(Kind::Final);
    let last = layers.saturating_sub(1);
    let query = viewer.settings.with_value(|s| s.lesson().query()).min(n.saturating_sub(1));
    let (first_from, first_to) = first_weight(&intact.0, lang, viewer.id, query);
    let from = RwSignal::new(first_from);
    let to = RwSignal::new(first_to);
    let layer = RwSignal::new(last);
    let progress = RwSignal::new(None::<(usize, usize)>);
    let found = RwSignal::new(None::<Found>);
    let failed = RwSignal::new(None::<String>);
    let sweeper = StoredValue::new_local(None::<Sweeper>);
    let asked = StoredValue::new(0u32);
    let readout = move || match kind.get() {
        Kind::Final => Some(Readout::Final),
        Kind::Weight => Some(Readout::Weight { layer: layer.get(), from: from.get(), to: to.get() }),
        Kind::Similarity => other.with(Option::is_some).then_some(Readout::Similarity),
    };
    let previous = previous_token_weight(&intact.0);
    let whole = intact.0.clone();
    let intact_value = move |readout: Readout| match readout {
        Readout::Final => None,
        Readout::Weight { layer, from, to } => {
            let heads = &whole.layers.get(layer)?.trace.head_traces;
            let sum: f32 = heads.iter().filter_map(|h| h.weights.get([from, to])).sum();
            Some(sum / heads.len().max(1) as f32)
        }
        Readout::Similarity => other.with_untracked(|o| o.as_ref().map(|(_, s)| *s)),
    };
    let input = viewer.settings.with_value(|s| s.input(&*model.0));
    let options = intact.0.options.clone();
    let run = move |_| {
        let Some(readout) = readout() else { return };
        let replacement = viewer.ablation.with_untracked(|a| a.replacement);
        let number = asked.get_value() + 1;
        asked.set_value(number);
        let question = SweepQuestion {
            number,
            model: viewer.id,
            input: Input { text: input.text.clone(), kv_text: None },
            options: options.clone(),
            replacement,
            readout,
            other: other.with_untracked(|o| o.as_ref().map(|(s, _)| s.clone())),
        };
        let all = layers * heads;
        let mut grid = vec![vec![f32::NAN; heads]; layers];
        let intact = intact_value(readout);
        let hear = move |heard: Heard| match heard {
            Heard::Head { layer, head, effect, done, of } => {
                if let Some(cell) = grid.get_mut(layer).and_then(|r| r.get_mut(head)) {
                    *cell = effect;
                }
                progress.try_set(Some((done, of)));
                if done == of {
                    found.try_set(Some(Found { replacement, readout, intact, grid: grid.clone() }));
                    progress.try_set(None);
                    sweeper.try_set_value(None);
                }
            }
            Heard::Failed(why) => {
                failed.try_set(Some(why));
                progress.try_set(None);
                sweeper.try_set_value(None);
            }
        };
        let hear = std::cell::RefCell::new(hear);
        failed.set(None);
        match Sweeper::start(&question, move |h| (hear.borrow_mut())(h)) {
            Some(Ok(s)) => {
                progress.set(Some((0, all)));
                sweeper.set_value(Some(s));
            }
            Some(Err(why)) => failed.set(Some(why)),
            None => failed.set(Some("this page has no forward worker".into())),
        }
    };
    // Closing the view ends a sweep under way.
    on_cleanup(move || drop(sweeper.try_update_value(|s| s.take())));
    let texts = tokens.clone();
    let token_options = move |chosen: RwSignal<usize>| {
        tokens
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let label = format!("{} · {text}", i + 1);
                view! { <option value=(i + 1).to_string() selected=move || chosen.get() == i>{label}</option> }
            })
            .collect_view()
    };
    // The choices are written from 1, as the page shows them.
    let pick = |signal: RwSignal<usize>| {
        move |ev: leptos::ev::Event| {
            if let Some(i) = event_target_value(&ev).parse::<usize>().ok().and_then(|i| i.checked_sub(1)) {
                signal.set(i);
            }
        }
    };
    let weight_fields = move || {
        (kind.get() == Kind::Weight).then(|| {
            view! {
                <div class="ablate__readout">
                    <label class="field"><span>{tr(AblateMsg::ReadoutFrom)}</span>
                        <select data-testid="readout-from" on:change=pick(from)>{token_options(from)}</select></label>
                    <label class="field"><span>{tr(AblateMsg::ReadoutTo)}</span>
                        <select data-testid="readout-to" on:change=pick(to)>{token_options(to)}</select></label>
                    <label class="field"><span>{tr(AblateMsg::ReadoutLayer)}</span>
                        <select data-testid="readout-layer" on:change=pick(layer)>
                            {(0..layers).map(|l| view! { <option value=(l + 1).to_string() selected=move || layer.get() == l>{l + 1}</option> }).collect_view()}
                        </select></label>
                </div>
            }
        })
    };
    let no_second = move || {
        (kind.get() == Kind::Similarity && other.with(Option::is_none))
            .then(|| view! { <p class="field__error" role="alert">{tr(AblateMsg::ReadoutNoSecond)}</p> })
    };
    let bar = move || {
        progress.get().map(|(done, all)| {
            let line = fill(tr(AblateMsg::SweepProgress), &[("done", &done.to_string()), ("all", &all.to_string())]);
            view! {
                <div class="model-progress" data-testid="ablate-sweep-progress">
                    <progress max=all.to_string() value=done.to_string()></progress>
                    <span>{line}</span>
                </div>
            }
        })
    };
    let grids = move || found.get().map(|f| view! { <FoundGrid found=f tokens=texts.clone() set=set lang=lang /> });
    view! {
        <div class="ablate__sweep">
            <h4 class="view__subtitle">{tr(AblateMsg::SweepTitle)}</h4>
            <p class="view__text">{tr(AblateMsg::SweepIntro)}</p>
            <label class="field">
                <span>{tr(AblateMsg::Readout)}</span>
                <select data-testid="ablate-readout" on:change=move |ev| {
                    let slug = event_target_value(&ev);
                    if let Some(k) = Kind::ALL.into_iter().find(|k| k.slug() == slug) {
                        kind.set(k);
                    }
                }>
                    {Kind::ALL.map(|k| view! { <option value=k.slug() selected=move || kind.get() == k>{tr(k.name())}</option> }).collect_view()}
                </select>
            </label>
            {weight_fields}
            {no_second}
            <button type="button" class="button" data-testid="ablate-sweep"
                disabled=move || progress.with(Option::is_some) || readout().is_none() on:click=run>{tr(AblateMsg::SweepRun)}</button>
            {bar}
            {move || failed.get().map(|why| view! {
                <p class="field__error" role="alert" data-testid="ablate-sweep-failed">{fill(tr(AblateMsg::SweepFailed), &[("why", &why)])}</p>
            })}
            {grids}
            <PreviousGrid previous=previous lang=lang />
        </div>
    }
}

/// A finished sweep: its largest effect, what a cell means, and the grid.
#[component]
fn FoundGrid(found: Found, tokens: Vec<String>, set: Callback<Ablation>, lang: Lang) -> impl IntoView {
    let tr = move |m: AblateMsg| t(lang, m);
    let Found { replacement, readout, intact, grid } = found;
    let mode = replacement_name(replacement, lang);
    let top = grid
        .iter()
        .enumerate()
        .flat_map(|(l, row)| row.iter().enumerate().map(move |(h, v)| (l, h, *v)))
        .filter(|(_, _, v)| v.is_finite())
        .max_by(|a, b| a.2.abs().total_cmp(&b.2.abs()));
    // One unit on this panel, as in the cells: thousandths.
    let thousandths = |v: f32| format!("{:.1}", v * 1000.0);
    let found = top.map(|(l, h, v)| {
        let (layer, head, effect) = ((l + 1).to_string(), (h + 1).to_string(), thousandths(v));
        let msg = if readout == Readout::Final { AblateMsg::SweepFound } else { AblateMsg::SweepFoundAny };
        fill(tr(msg), &[("layer", &layer), ("head", &head), ("effect", &effect), ("mode", mode)])
    });
    // The intact model's value, or a dash when the readout has none (never "NaN" on screen).
    let intact = intact.filter(|v| v.is_finite()).map_or_else(|| "—".to_string(), |v| format!("{v:.3}"));
    let word = |i: usize| tokens.get(i).cloned().unwrap_or_default();
    let scale = match readout {
        Readout::Final => tr(AblateMsg::SweepScale).to_string(),
        Readout::Weight { layer, from, to } => fill(
            tr(AblateMsg::ScaleWeight),
            &[("from", &word(from)), ("to", &word(to)), ("layer", &(layer + 1).to_string()), ("intact", &intact)],
        ),
        Readout::Similarity => fill(tr(AblateMsg::ScaleSimilarity), &[("intact", &intact)]),
    };
    let among = effect_scale(&grid).map(|s| {
        let (heads, largest, median) = (s.heads.to_string(), thousandths(s.largest), thousandths(s.median));
        fill(tr(AblateMsg::ScaleOf), &[("heads", &heads), ("largest", &largest), ("median", &median)])
    });
    let label = move |(l, h, v): (usize, usize, f32)| {
        let (layer, head, effect) = ((l + 1).to_string(), (h + 1).to_string(), thousandths(v));
        fill(t(lang, AblateMsg::SweepCell), &[("layer", &layer), ("head", &head), ("effect", &effect)])
    };
    let pick = move |(l, h): (usize, usize)| set.run(Ablation::one(l, h, replacement));
    view! {
        <p class="view__text" data-testid="ablate-sweep-found" data-readout=format!("{readout:?}")>{found}</p>
        <p class="stage__note">{scale}" "{among}</p>
        <HeadValues values=grid measure=Measure::Effect testid="ablate-grid" cell_testid="ablate-cell"
            text=|v| format!("{:.0}", v * 1000.0) label=Callback::new(label) pick=Callback::new(pick) lang=lang />
    }
}

/// The weight each head puts on the token just before the query: what a previous-token head
/// is named for, beside what switching it off does.
#[component]
fn PreviousGrid(previous: Vec<Vec<f32>>, lang: Lang) -> impl IntoView {
    let label = move |(l, h, v): (usize, usize, f32)| {
        let (layer, head, weight) = ((l + 1).to_string(), (h + 1).to_string(), format!("{v:.2}"));
        fill(t(lang, AblateMsg::PreviousCell), &[("layer", &layer), ("head", &head), ("weight", &weight)])
    };
    view! {
        <p class="view__text">{t(lang, AblateMsg::PreviousIntro)}</p>
        <HeadValues values=previous max=1.0 measure=Measure::Weight testid="previous-grid" cell_testid="previous-cell"
            text=|v| format!("{:.0}", v * 100.0) label=Callback::new(label) lang=lang />
    }
}
