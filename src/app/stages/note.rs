//! Which weights the numbers on screen come from, said plainly on every stage: random ones
//! (so what attends to what means nothing), a pretrained model's layer and head with what its
//! tokenizer did to the sentence, or the learner's own model. Read from the outcome shown,
//! never from the settings, so the label always matches the numbers.

use crate::app::page::{use_page, Shared};
use crate::core::bert::chars::is_cjk;
use crate::core::model::{Origin, Outcome};
use crate::i18n::{fill, t, Lang, ModelMsg};
use leptos::prelude::*;

/// The sentences of the note for `o` in `lang`; `head` is the head the stage shows (0-based),
/// `text` the sentence asked for.
fn note(o: &Outcome, lang: Lang, head: usize, text: &str) -> Vec<String> {
    let (n_layers, n_heads) = (o.encoding.layers.len(), o.trace().n_heads());
    let (layer, head) = (o.layer + 1, head.min(n_heads.saturating_sub(1)) + 1);
    match o.shape().origin {
        Origin::Seeded { seed } => vec![fill(t(lang, ModelMsg::NoteRandom), &[("seed", &seed.to_string())])],
        Origin::Yours => {
            let [layer, layers, head, heads] = [layer, n_layers, head, n_heads].map(|v| v.to_string());
            let pairs = [("layer", layer.as_str()), ("layers", &layers), ("head", &head), ("heads", &heads)];
            vec![fill(t(lang, ModelMsg::NoteYours), &pairs)]
        }
        Origin::Pretrained { name, .. } => {
            let [layer, layers, head, heads] = [layer, n_layers, head, n_heads].map(|v| v.to_string());
            let pairs =
                [("name", name), ("layer", layer.as_str()), ("layers", &layers), ("head", &head), ("heads", &heads)];
            let mut lines = vec![fill(t(lang, ModelMsg::NotePretrained), &pairs)];
            let unknown = o.shape().unknown.map_or(0, |u| o.tokens.iter().filter(|t| *t == u).count());
            if o.tokens.iter().any(|t| t.chars().any(is_cjk)) || (unknown > 0 && text.chars().any(is_cjk)) {
                lines.push(t(lang, ModelMsg::ChineseSplit).to_string());
            }
            if unknown > 0 {
                let n = [("n", unknown.to_string()), ("total", o.tokens.len().to_string())];
                let msg = if unknown == 1 { ModelMsg::UnkNoteOne } else { ModelMsg::UnkNote };
                lines.push(fill(t(lang, msg), &n.each_ref().map(|(k, v)| (*k, v.as_str()))));
            }
            lines
        }
    }
}

/// The note, with a line while a model is asked for but another's numbers are still shown.
#[component]
pub fn WeightsNote() -> impl IntoView {
    let page = use_page();
    let head = page.pick(|s| s.lesson().head());
    let text = page.pick(|s| s.lesson().text().to_string());
    let asked = Memo::new(move |_| page.model.with(|m| m.0.shape().origin.clone()));
    let lines = Memo::new(move |_| {
        let lang = page.lang.get();
        page.outcome
            .with(|o| o.as_ref().map(|Shared(o)| (note(o, lang, head.get(), &text.get()), o.shape().origin.clone())))
    });
    view! {
        <div class="weights-note" data-testid="weights-note" data-weights=move || lines.with(|l| l.as_ref().map(|(_, o)| o.tag()))>
            {move || lines.get().map(|(lines, _)| lines.into_iter().map(|l| view! { <p>{l}</p> }).collect_view())}
            {move || {
                let waiting = lines.with(|l| l.as_ref().is_some_and(|(_, shown)| *shown != asked.get()));
                waiting.then(|| view! { <p>{page.t(ModelMsg::NoteWaiting)}</p> })
            }}
        </div>
    }
}
