//! The training view's keys in the page's URL, so a link reopens the same experiment: `task`,
//! `ld` (d_model), `lh` (heads), `ll` (layers), `lr` (learning rate), `lb` (batch), `lseed`,
//! `lscale` and `lmlp` (0 or 1). The lesson's settings own the other keys; each side keeps the
//! other's.

use crate::core::train::session::Setup;
use crate::core::train::Task;
use crate::settings::url::{decode, encode};
use leptos::prelude::window;

/// The keys, in the order they are written (the page's URL sync keeps exactly these).
pub const KEYS: [&str; 9] = ["task", "ld", "lh", "ll", "lr", "lb", "lseed", "lscale", "lmlp"];

/// Whether a query pair (`key=value`, percent-encoded) is one of the training view's.
pub fn is_ours(pair: &str) -> bool {
    decode(pair.split('=').next().unwrap_or_default()).is_some_and(|k| KEYS.contains(&k.as_str()))
}

/// The setup the URL names (defaults for what it does not name or cannot be read; the range
/// check comes after, by the session).
pub fn read() -> Setup {
    let search = window().location().search().unwrap_or_default();
    from_query(&search)
}

/// The setup of a query string.
pub fn from_query(query: &str) -> Setup {
    let pairs: Vec<(String, String)> = query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|p| p.split_once('='))
        .filter_map(|(k, v)| Some((decode(k)?, decode(v)?)))
        .collect();
    let get = |key: &str| pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let num = |key: &str, default: usize| get(key).and_then(|v| v.parse().ok()).unwrap_or(default);
    let d = Setup::default();
    Setup {
        task: get("task").and_then(Task::from_slug).unwrap_or(d.task),
        d_model: num("ld", d.d_model),
        heads: num("lh", d.heads),
        layers: num("ll", d.layers),
        learning_rate: get("lr").and_then(|v| v.parse().ok()).unwrap_or(d.learning_rate),
        batch: num("lb", d.batch),
        seed: get("lseed").and_then(|v| v.parse().ok()).unwrap_or(d.seed),
        scaled: get("lscale").map_or(d.scaled, |v| v != "0"),
        mlp: get("lmlp").map_or(d.mlp, |v| v != "0"),
    }
}

/// `query` with the training keys replaced by `setup`'s.
pub fn with_setup(query: &str, setup: &Setup) -> String {
    let kept = query.trim_start_matches('?').split('&').filter(|p| !p.is_empty() && !is_ours(p));
    let values = [
        setup.task.slug().to_string(),
        setup.d_model.to_string(),
        setup.heads.to_string(),
        setup.layers.to_string(),
        setup.learning_rate.to_string(),
        setup.batch.to_string(),
        setup.seed.to_string(),
        u8::from(setup.scaled).to_string(),
        u8::from(setup.mlp).to_string(),
    ];
    let ours = KEYS.iter().zip(values).map(|(k, v)| format!("{k}={}", encode(&v)));
    kept.map(str::to_string).chain(ours).collect::<Vec<_>>().join("&")
}

/// The lesson's keys "Open in the lesson" sets; the others (language, theme, the training
/// view's) stay as they are.
const LESSON_KEYS: [&str; 11] = ["view", "model", "text", "cross", "mask", "scale", "t", "layer", "head", "stage", "q"];

/// `query` opening the lesson on the learner's model: `sentence` (its tokens) from the first
/// stage, layer 1, head 1, self-attention with the causal mask it was trained with, ÷√d_k as it
/// was trained (`scaled`) and the plain softmax (T = 1).
pub fn lesson_query(query: &str, sentence: &str, scaled: bool) -> String {
    let is_set = |pair: &&str| {
        decode(pair.split('=').next().unwrap_or_default()).is_some_and(|k| LESSON_KEYS.contains(&k.as_str()))
    };
    let kept = query.trim_start_matches('?').split('&').filter(|p| !p.is_empty() && !is_set(p));
    let scale = if scaled { "1" } else { "0" };
    let values = ["lesson", "yours", sentence, "0", "causal", scale, "1", "1", "1", "input", "1"];
    let set = LESSON_KEYS.iter().zip(values).map(|(k, v)| format!("{k}={}", encode(v)));
    kept.map(str::to_string).chain(set).collect::<Vec<_>>().join("&")
}

/// Write `setup` into the URL (replacing the entry: a changed setting is not a new page).
pub fn write(setup: &Setup) {
    let search = window().location().search().unwrap_or_default();
    let url = format!("?{}", with_setup(&search, setup));
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_goes_through_the_url_and_the_lesson_s_keys_stay() {
        let setup = Setup {
            task: Task::Induction,
            d_model: 64,
            heads: 4,
            layers: 2,
            learning_rate: 0.003,
            batch: 16,
            seed: 9,
            scaled: false,
            mlp: true,
        };
        let query = with_setup("?lang=zh&view=learn&task=sort&d=128", &setup);
        assert!(query.starts_with("lang=zh&view=learn&d=128&"), "{query}");
        assert_eq!(from_query(&query), setup);
        assert_eq!(from_query("task=nonsense&ld=x"), Setup::default(), "unreadable values fall back");
        assert!(is_ours("%6Cd=3") && !is_ours("lang=zh") && !is_ours("d=64"));
        assert_eq!(with_setup("%74ask=sort", &setup).matches("task=").count(), 1, "an encoded key is ours too");
    }

    #[test]
    fn opening_the_lesson_names_the_model_and_keeps_the_experiment() {
        let query = lesson_query("?lang=zh&view=learn&task=sort&text=old&model=minilm&head=3", "1 2 | 2 1", false);
        assert_eq!(
            query,
            "lang=zh&task=sort&view=lesson&model=yours&text=1%202%20%7C%202%201&cross=0&mask=causal&scale=0&t=1&layer=1&head=1&stage=input&q=1"
        );
        let settings = crate::settings::Settings::from_query(&query, crate::i18n::Lang::En).0;
        assert_eq!((settings.text.as_str(), settings.head, settings.scaled), ("1 2 | 2 1", 0, false));
        assert_eq!(settings.source, crate::core::scenario::Source::Yours);
    }
}
