//! The "it → animal" case study on the pretrained model: two sentences that differ in one word,
//! the weight from "it" to "animal" and to "street" in every layer × head, computed here from
//! the live model, beside the made-up table of a popular illustration, and what the numbers
//! honestly say.

use super::study::Study;
use super::{computing_line, retry, use_viewer};
use crate::core::bert::chars::is_cjk;
use crate::core::bert::MINILM_TOKENS;
use crate::core::model::ModelError;
use crate::core::study::head_reading;
use crate::core::study::{case_study, word_weight, CaseStudy, StudyProblem};
use crate::fetch::status::LoadStatus;
use crate::hosted::replace_query;
use crate::i18n::{fill, model_error, t, ClassMsg, LessonMsg, ModelMsg};
use crate::shared::Shared;
use crate::study_texts::{
    case_study_findings, pieces_notes, steady_findings, steady_head, w2, wrong_antecedent, Check,
};
use leptos::prelude::*;
use std::sync::Arc;

/// The illustration's weights from "it" (a popular blog's table: illustrative, not computed;
/// they add up to 1.05).
const ILLUSTRATION: [(&str, f32); 10] = [
    ("The", 0.01),
    ("animal", 0.45),
    ("didn't", 0.03),
    ("cross", 0.04),
    ("street", 0.06),
    ("because", 0.08),
    ("it", 0.26),
    ("was", 0.03),
    ("too", 0.02),
    ("tired", 0.07),
];

/// What the illustration's weights add up to, in per cent: "105".
fn illustration_percent() -> String {
    let sum: f32 = ILLUSTRATION.iter().map(|(_, w)| w).sum();
    format!("{}", (sum * 100.0).round() as i32)
}

/// How many heads are outlined as moving most.
const MOVERS: usize = 5;

/// The case study: its inputs (its own state, in the address bar), the table of every head
/// and what the numbers say.
#[component]
pub fn CaseStudy() -> impl IntoView {
    let viewer = use_viewer();
    let tr = move |m: ModelMsg| t(viewer.lang, m);
    let start = Study::first(viewer.lang, viewer.id);
    let start_kept = start.clone();
    let (first, ignored) = Study::from_query(&crate::hosted::address(), start.clone());
    let study_settings = RwSignal::new(first);
    // Each change goes into the address bar, beside the page's keys.
    Effect::new(move |_| {
        let query = study_settings.with(|s| s.into_query(&crate::hosted::address()));
        replace_query(&query);
    });
    let study = Memo::new(move |_| {
        let model = viewer.model.get()?;
        Some(study_settings.with(|s| {
            let (sentences, words) = (s.sentences(), s.words());
            let sentences = [sentences[0].as_str(), sentences[1].as_str()];
            let words = [words[0].as_str(), words[1].as_str(), words[2].as_str()];
            let study = crate::timed!(Compute, case_study(&*model.0, sentences, words, MOVERS))?;
            // The steady head tested on a sentence whose subject is the wrong answer, when target
            // a is the subject of the page's own pair (the learner's words may be anything).
            let subject_known = s.words() == start.words() || s.words() == Study::default().words();
            let check = steady_head(&study).filter(|_| subject_known).and_then(|h| {
                let (text, words) = wrong_antecedent(sentences[0]);
                let (on_subject, on_meant) = head_reading(&*model.0, text, words, h.layer, h.head)?;
                Some(Check { text, words, on_subject, on_meant })
            });
            Ok(Shared(Arc::new(Studied { study, check })))
        }))
        // While a sentence is computed in the worker: nothing yet (the view says so).
        .filter(|s| !matches!(s, Err(StudyProblem::Sentence(_, ModelError::Computing))))
    });
    let problem = move || {
        study.with(|s| match s {
            Some(Err(StudyProblem::Missing { word, sentence })) => {
                let w = study_settings.with(|s| s.words()[*word].clone());
                Some(fill(tr(ModelMsg::CorefMissing), &[("word", &w), ("which", &(sentence + 1).to_string())]))
            }
            Some(Err(StudyProblem::Sentence(i, e))) => {
                Some(format!("{} {}: {}", tr(ModelMsg::CorefSentenceA), i + 1, model_error(viewer.lang, e)))
            }
            _ => None,
        })
    };
    // While the worker computes, the last results stay.
    let ready = Memo::new(move |shown: Option<&Option<Shared<Studied>>>| {
        study.with(|s| match s {
            Some(Ok(studied)) => Some(studied.clone()),
            Some(Err(_)) => None,
            None => shown.cloned().flatten(),
        })
    });
    let notice =
        (!ignored.is_empty()).then(|| fill(t(viewer.lang, ClassMsg::UrlNotice), &[("keys", &ignored.join(", "))]));
    // The page's Chinese pair gets its own introduction (its words, and why 原因是).
    let chinese = move || {
        study_settings.with(|s| s.sentences() == start_kept.sentences() && s.sentences()[0].chars().any(is_cjk))
    };
    view! {
        <p class="view__text">{tr(ModelMsg::CorefIntro)}</p>
        <Show when=chinese>
            <p class="view__text" data-testid="coref-chinese">{tr(ModelMsg::CorefChinese)}</p>
        </Show>
        {notice.map(|n| view! { <p class="notice" role="status" data-testid="coref-url-notice">{n}</p> })}
        <LoadStatus id="pretrained-status" state=viewer.load lang=viewer.lang retry=retry(viewer) />
        <StudyInputs study=study_settings />
        {computing_line(viewer, move || study.with(Option::is_none))}
        <p class="field__error" role="alert" data-testid="coref-error">{problem}</p>
        {move || ready.get().map(|Shared(s)| view! { <StudyResults studied=s words=Signal::derive(move || study_settings.with(|s| s.words().clone())) /> })}
        <div class="aside" data-testid="not-explanation">
            <h3 class="view__subtitle">{t(viewer.lang, LessonMsg::NotExplanationTitle)}</h3>
            <p class="view__text">{t(viewer.lang, LessonMsg::NotExplanation)}</p>
        </div>
    }
}

/// The two sentences and the three words, each checked by its setter.
#[component]
fn StudyInputs(
    /// The case study's state.
    study: RwSignal<Study>,
) -> impl IntoView {
    let viewer = use_viewer();
    let tr = move |m: ModelMsg| t(viewer.lang, m);
    // The sentences (0, 1) and words (2, 3, 4) whose last value was refused, and kept as before.
    let refused = RwSignal::new([false; 5]);
    // Change the study with `set` (its setter's answer), saying beside the field if it refused.
    let change = move |field: usize, set: &dyn Fn(&mut Study) -> bool| {
        let mut accepted = false;
        study.maybe_update(|s| {
            accepted = set(s);
            accepted
        });
        refused.update(|r| r[field] = !accepted);
    };
    let sentence = move |i: usize| {
        let label = if i == 0 { ModelMsg::CorefSentenceA } else { ModelMsg::CorefSentenceB };
        let max = (MINILM_TOKENS - 2).to_string();
        view! {
            <label class="field">
                <span class="field__label">{tr(label)}</span>
                <input type="text" class="field__text" data-testid=format!("coref-sentence-{}", i + 1)
                    prop:value=move || study.with(|s| s.sentences()[i].clone())
                    on:change=move |ev| change(i, &|s| s.set_sentence(i, &event_target_value(&ev))) />
                <span class="field__error" role="alert">
                    {move || refused.with(|r| r[i]).then(|| fill(tr(ModelMsg::CorefSentenceRefused), &[("max", &max)]))}
                </span>
            </label>
        }
    };
    let word = move |i: usize| {
        let label =
            if i == 0 { tr(ModelMsg::CorefQuery).to_string() } else { format!("{} {i}", tr(ModelMsg::CorefTargets)) };
        view! {
            <input type="text" class="field__text coref__word" size="8" data-testid=format!("coref-word-{}", i + 1) aria-label=label
                prop:value=move || study.with(|s| s.words()[i].clone())
                on:change=move |ev| change(2 + i, &|s| s.set_word(i, &event_target_value(&ev))) />
        }
    };
    view! {
        <div class="coref__inputs">
            {sentence(0)}
            {sentence(1)}
            <div class="field__inline">
                <span>{tr(ModelMsg::CorefQuery)}</span> {word(0)}
                <span>{tr(ModelMsg::CorefTargets)}</span> {word(1)} " / " {word(2)}
            </div>
            <p class="field__error" role="alert">
                {move || refused.with(|r| r[2..].contains(&true)).then(|| tr(ModelMsg::CorefWordRefused))}
            </p>
        </div>
    }
}

/// The case study's numbers, and its steady head read on the wrong-antecedent sentence.
#[derive(Debug, Clone, PartialEq)]
struct Studied {
    study: CaseStudy,
    check: Option<Check>,
}

/// The table of every head, the illustration beside the model's average, and the findings.
#[component]
fn StudyResults(
    /// The study's numbers.
    studied: Arc<Studied>,
    /// The query word and the two targets.
    words: Signal<[String; 3]>,
) -> impl IntoView {
    let viewer = use_viewer();
    let check = studied.check;
    let study = Arc::new(studied.study.clone());
    let tr = move |m: ModelMsg| t(viewer.lang, m);
    let movers: Vec<(usize, usize)> = study.findings.movers.iter().map(|w| (w.layer, w.head)).collect();
    let heads = study.weights.iter().map(|w| w.head).max().map_or(0, |h| h + 1);
    let rows = study.weights.chunks(heads.max(1)).map(|layer| {
        let cells = layer.iter().map(|w| {
            let moved = movers.contains(&(w.layer, w.head));
            let (ahead_1, ahead_2) = (w.first.0 > w.first.1, w.second.0 > w.second.1);
            view! {
                <td class="coref__cell" class=("coref__moved", moved) data-testid="coref-cell"
                    data-layer=w.layer + 1 data-head=w.head + 1
                    data-animal=w.first.0.to_string() data-street=w.first.1.to_string()
                    data-animal-2=w.second.0.to_string() data-street-2=w.second.1.to_string()>
                    <span class:coref__ahead=ahead_1>{w2(w.first.0)}</span> " / " {w2(w.first.1)}
                    <br />
                    <span class:coref__ahead=ahead_2>{w2(w.second.0)}</span> " / " {w2(w.second.1)}
                </td>
            }
        });
        let layer_no = layer.first().map_or(0, |w| w.layer + 1);
        view! { <tr><th scope="row">{layer_no}</th>{cells.collect_view()}</tr> }
    });
    let rows = rows.collect_view();
    let average = model_average(&study);
    let caption =
        move || words.with(|w| fill(tr(ModelMsg::CorefTable), &[("query", &w[0]), ("a", &w[1]), ("b", &w[2])]));
    let lines = {
        let study = Arc::clone(&study);
        move || {
            words.with(|w| {
                let mut lines = pieces_notes(&study, w, viewer.lang);
                lines.extend(case_study_findings(&study, w, viewer.lang));
                lines.extend(steady_findings(&study, w, check.as_ref(), viewer.lang));
                lines
            })
        }
    };
    view! {
        <div class="coref__scroll" tabindex="0" role="region" aria-label=caption>
            <table class="coref__table">
                <caption>{caption}</caption>
                <thead><tr><th scope="col">{tr(ModelMsg::Layer)}</th>
                    {(1..=heads).map(|h| view! { <th scope="col">"H" {h}</th> }).collect_view()}
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <div class="coref__findings" data-testid="coref-findings">
            {move || lines().into_iter().map(|l| view! { <p>{l}</p> }).collect_view()}
        </div>
        <div class="coref__compare">
            <table class="coref__small">
                <caption>{fill(tr(ModelMsg::CorefIllustration), &[("sum", &illustration_percent())])}</caption>
                <tbody>{ILLUSTRATION.map(|(tok, w)| view! { <tr><td>{tok}</td><td>{w2(w)}</td></tr> })}</tbody>
            </table>
            <table class="coref__small" data-testid="coref-average">
                <caption>{move || words.with(|w| {
                    fill(tr(ModelMsg::CorefAverage), &[("query", &w[0]), ("total", &study.weights.len().to_string())])
                })}</caption>
                <tbody>{average.into_iter().map(|(tok, w)| view! { <tr><td>{tok}</td><td>{w2(w)}</td></tr> }).collect_view()}</tbody>
            </table>
        </div>
    }
}

/// The query's row in sentence 1 (the mean of its pieces' rows), averaged over every layer and
/// head: token and weight.
fn model_average(study: &CaseStudy) -> Vec<(String, f32)> {
    let e = &study.encodings[0];
    let q = &study.positions[0].query;
    let heads: Vec<_> = e.layers.iter().flat_map(|l| &l.trace.head_traces).collect();
    let mean = |j: usize| heads.iter().map(|h| word_weight(&h.weights, q, &(j..j + 1))).sum::<f32>();
    let count = heads.len().max(1) as f32;
    e.tokens.iter().enumerate().map(|(j, p)| (p.text.clone(), mean(j) / count)).collect()
}
