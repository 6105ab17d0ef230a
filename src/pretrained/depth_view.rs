//! Under the model view's grid: how its attention changes with depth on the lesson's sentence
//! (a table per layer, and what the numbers show, said from them), and one word in two
//! sentences, compared at the input and after every layer (`core::depth`).

use super::use_viewer;
use crate::core::depth::{layer_patterns, same_word, LayerPattern, SameWord};
use crate::core::ends::frame_tokens;
use crate::core::model::{Encoding, Input, ModelError};
use crate::i18n::{fill, model_error, t, Lang, ModelMsg};
use crate::models::ModelId;
use leptos::prelude::*;
use std::sync::Arc;

/// What the table shows, in words: where the distance and the ends' share are largest and
/// smallest, for this model on this sentence.
pub fn depth_reading(patterns: &[LayerPattern], lang: Lang) -> Option<String> {
    let at = |f: fn(&LayerPattern) -> f32, most: bool| {
        let pick = patterns.iter().enumerate().map(|(l, p)| (l, f(p)));
        let best = if most { pick.max_by(|a, b| a.1.total_cmp(&b.1)) } else { pick.min_by(|a, b| a.1.total_cmp(&b.1)) };
        best.map(|(l, v)| ((l + 1).to_string(), format!("{v:.2}")))
    };
    let (far, far_v) = at(|p| p.reach, true)?;
    let (near, near_v) = at(|p| p.reach, false)?;
    let (diffuse, diffuse_v) = at(|p| p.entropy, true)?;
    let (sharp, sharp_v) = at(|p| p.entropy, false)?;
    let (punct, punct_v) = at(|p| p.punctuation, true)?;
    let (ends, ends_v) = at(|p| p.ends, true)?;
    let (neigh, neigh_v) = at(|p| p.neighbours, true)?;
    let pairs = [
        ("far", far.as_str()),
        ("far_v", &far_v),
        ("near", &near),
        ("near_v", &near_v),
        ("ends", &ends),
        ("ends_v", &ends_v),
        ("neigh", &neigh),
        ("neigh_v", &neigh_v),
        ("diffuse", &diffuse),
        ("diffuse_v", &diffuse_v),
        ("sharp", &sharp),
        ("sharp_v", &sharp_v),
        ("punct", &punct),
        ("punct_v", &punct_v),
    ];
    Some(fill(t(lang, ModelMsg::DepthReading), &pairs))
}

/// The same word in two sentences, said from the cosines; `first` is the sentences' first
/// token ([CLS], <s>).
pub fn same_word_reading(word: &str, w: &SameWord, first: &str, lang: Lang) -> String {
    let list: Vec<String> = w.layers.iter().enumerate().map(|(l, c)| format!("L{} {c:.2}", l + 1)).collect();
    let (low_at, low) =
        w.layers.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)).map_or((0, 1.0), |(l, c)| (l + 1, *c));
    let (p1, p2) = (w.positions.0.to_string(), w.positions.1.to_string());
    let pairs = [
        ("word", word),
        ("first", first),
        ("p", p1.as_str()),
        ("p2", &p2),
        ("input", &format!("{:.3}", w.input)),
        ("layers", &list.join(" · ")),
        ("low", &format!("{low:.2}")),
        ("at", &low_at.to_string()),
    ];
    let msg = if w.positions.0 == w.positions.1 { ModelMsg::SameWordSamePlace } else { ModelMsg::SameWordMoved };
    fill(t(lang, msg), &pairs)
}

/// The per-layer table and its reading.
#[component]
pub fn DepthTable(
    /// The model's forward pass on the lesson's sentence.
    encoding: Arc<Encoding>,
) -> impl IntoView {
    let viewer = use_viewer();
    let tr = move |m: ModelMsg| t(viewer.lang, m);
    let patterns = layer_patterns(&encoding);
    let (first, last) = frame_tokens(&encoding);
    let ends = fill(tr(ModelMsg::DepthEnds), &[("first", &first), ("last", &last)]);
    let reading = depth_reading(&patterns, viewer.lang);
    let rows = patterns.iter().enumerate().map(|(l, p)| {
        view! {
            <tr data-testid="depth-row">
                <th scope="row">{l + 1}</th>
                <td>{format!("{:.2}", p.distance)}</td>
                <td>{format!("{:.2}", p.reach)}</td>
                <td>{format!("{:.2}", p.entropy)}</td>
                <td>{format!("{:.0} %", p.punctuation * 100.0)}</td>
                <td>{format!("{:.0} %", p.diagonal * 100.0)}</td>
                <td>{format!("{:.0} %", p.neighbours * 100.0)}</td>
                <td>{format!("{:.0} %", p.ends * 100.0)}</td>
            </tr>
        }
    });
    view! {
        <div class="panel-block" data-testid="depth">
            <h3 class="view__subtitle">{tr(ModelMsg::DepthTitle)}</h3>
            // Eight columns: on a phone the table scrolls in its box, not the page.
            <div class="table-scroll" tabindex="0" role="region" aria-label=tr(ModelMsg::DepthTitle)>
                <table class="coref__small">
                    <thead><tr>
                        <th scope="col">{tr(ModelMsg::Layer)}</th>
                        <th scope="col">{tr(ModelMsg::DepthDistance)}</th>
                        <th scope="col">{tr(ModelMsg::DepthReach)}</th>
                        <th scope="col">{tr(ModelMsg::DepthEntropy)}</th>
                        <th scope="col">{tr(ModelMsg::DepthPunctuation)}</th>
                        <th scope="col">{tr(ModelMsg::DepthDiagonal)}</th>
                        <th scope="col">{tr(ModelMsg::DepthNeighbours)}</th>
                        <th scope="col">{ends}</th>
                    </tr></thead>
                    <tbody>{rows.collect_view()}</tbody>
                </table>
            </div>
            <p class="view__text" data-testid="depth-reading">{reading}</p>
        </div>
    }
}

/// The two sentences and the word the panel opens with: in Chinese, on a model that reads it
/// (multilingual-e5-small), 花 as flowers and as spending, once and a piece of its own in each
/// sentence (`tests/e5.rs` checks it); else "bank" by a river and for money.
pub fn same_word_first(lang: Lang, model: ModelId) -> [&'static str; 3] {
    if lang == Lang::Zh && model == ModelId::E5 {
        ["她买了一束花。", "她花了很多钱。", "花"]
    } else {
        ["he sat by the river bank", "he put cash in the bank", "bank"]
    }
}

/// Two sentences and a word; its cosines at the input and after each layer.
#[component]
pub fn SameWordPanel() -> impl IntoView {
    let viewer = use_viewer();
    let tr = move |m: ModelMsg| t(viewer.lang, m);
    let texts = RwSignal::new(same_word_first(viewer.lang, viewer.id).map(String::from));
    let result = Memo::new(move |_| {
        let model = viewer.model.get()?;
        let [a, b, word] = texts.get();
        let run = |text: String| {
            let options = viewer.settings.with_value(|s| s.run_options(&*model.0));
            model.0.forward(&Input { text, kv_text: None }, &options)
        };
        let word = word.trim().to_lowercase();
        if word.is_empty() {
            return Some(tr(ModelMsg::SameWordEmpty).to_string());
        }
        Some(match (run(a), run(b)) {
            (Ok(a), Ok(b)) => same_word(&a, &b, &word)
                .map(|w| same_word_reading(&word, &w, &frame_tokens(&a).0, viewer.lang))
                .unwrap_or_else(|| fill(tr(ModelMsg::SameWordMissing), &[("word", &word)])),
            (Err(e @ ModelError::Computing), _) | (_, Err(e @ ModelError::Computing)) => model_error(viewer.lang, &e),
            _ => tr(ModelMsg::SameWordRefused).to_string(),
        })
    });
    let field = move |i: usize, label: ModelMsg| {
        view! {
            <label class="field">
                <span class="field__label">{tr(label)}</span>
                <input type="text" class="field__text" data-testid=format!("same-word-{}", i + 1)
                    prop:value=move || texts.with(|t| t[i].clone())
                    on:change=move |ev| texts.update(|t| t[i] = event_target_value(&ev)) />
            </label>
        }
    };
    view! {
        <div class="panel-block" data-testid="same-word">
            <h3 class="view__subtitle">{tr(ModelMsg::SameWordTitle)}</h3>
            <p class="view__text">{tr(ModelMsg::SameWordIntro)}</p>
            {field(0, ModelMsg::CorefSentenceA)}
            {field(1, ModelMsg::CorefSentenceB)}
            {field(2, ModelMsg::SameWordWord)}
            <p class="view__text" data-testid="same-word-reading" role="status">{move || result.get()}</p>
        </div>
    }
}
