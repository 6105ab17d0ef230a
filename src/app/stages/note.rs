//! Which weights the numbers on screen come from, said plainly on every stage: random ones
//! (so what attends to what means nothing) or the trained model's layer and head, with what
//! its tokenizer did to the sentence. Read from the outcome shown, never from the settings,
//! so the label always matches the numbers.

use crate::app::page::{use_page, Shared};
use crate::core::bert::chars::is_cjk;
use crate::core::scenario::{Outcome, Source};
use crate::i18n::{fill, t, Lang, ModelMsg};
use crate::settings::Settings;
use leptos::prelude::*;

/// The sentences of the note for `o` in `lang`; `head` is the head the stage shows (0-based),
/// `layers` how many the weights in use have.
fn note(o: &Outcome, lang: Lang, head: usize, layers: usize) -> Vec<String> {
    let s = &o.scenario;
    match s.source {
        Source::Random => vec![fill(t(lang, ModelMsg::NoteRandom), &[("seed", &s.seed.to_string())])],
        Source::Yours => {
            let shown = [s.layer.min(layers.saturating_sub(1)) + 1, layers, head + 1, o.trace.heads.len()];
            let [layer, layers, head, heads] = shown.map(|v| v.to_string());
            let pairs = [("layer", layer.as_str()), ("layers", &layers), ("head", &head), ("heads", &heads)];
            vec![fill(t(lang, ModelMsg::NoteYours), &pairs)]
        }
        Source::Minilm => {
            let head = head.min(o.trace.heads.len().saturating_sub(1));
            let layers = o.encoding.as_ref().map_or(1, |e| e.layers.len());
            let layer = (s.layer.min(layers.saturating_sub(1)) + 1).to_string();
            let mut lines =
                vec![fill(t(lang, ModelMsg::NoteTrained), &[("layer", &layer), ("head", &(head + 1).to_string())])];
            let unknown = o.tokens.iter().filter(|t| *t == "[UNK]").count();
            if o.tokens.iter().any(|t| t.chars().any(is_cjk)) || (unknown > 0 && s.text.chars().any(is_cjk)) {
                lines.push(t(lang, ModelMsg::ChineseSplit).to_string());
            }
            if unknown > 0 {
                let n = [("n", unknown.to_string()), ("total", o.tokens.len().to_string())];
                lines.push(fill(t(lang, ModelMsg::UnkNote), &n.each_ref().map(|(k, v)| (*k, v.as_str()))));
            }
            lines
        }
    }
}

/// The note, with a line while trained weights are asked for but not yet shown.
#[component]
pub fn WeightsNote() -> impl IntoView {
    let page = use_page();
    let head = page.pick(|s| s.head);
    let asked = page.pick(|s| s.source);
    let layers = page.pick(Settings::layer_count);
    let lines = Memo::new(move |_| {
        let (lang, layers) = (page.lang.get(), layers.get());
        page.outcome.with(|o| o.as_ref().map(|Shared(o)| (note(o, lang, head.get(), layers), o.scenario.source)))
    });
    view! {
        <div class="weights-note" data-testid="weights-note" data-weights=move || lines.with(|l| l.as_ref().map(|(_, s)| s.slug()))>
            {move || lines.get().map(|(lines, _)| lines.into_iter().map(|l| view! { <p>{l}</p> }).collect_view())}
            {move || {
                let waiting = asked.get() == Source::Minilm && lines.with(|l| l.as_ref().is_some_and(|(_, s)| *s == Source::Random));
                waiting.then(|| view! { <p>{page.t(ModelMsg::NoteWaiting)}</p> })
            }}
        </div>
    }
}
