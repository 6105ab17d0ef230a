//! What the page and the training module (two .wasm files, two Rust programs in one page)
//! share, in one place, so neither imports the other: where the learner's model is kept and
//! the event that says a new one was, the element and event of the training view's mount, and
//! which URL keys each side owns. Both binaries depend on this module; it depends on neither.
//!
//! The protocol: the training view writes `YourModel::to_text` under [`YOURS_KEY`] in the
//! browser's local storage, puts the lesson's link into the address bar ([`lesson_query`]) and
//! fires [`OPEN_LESSON_EVENT`] on the window; the page then reads the model and the link.

use crate::percent::{decode, encode};

/// The local-storage key the learner's model is kept under, as `YourModel::to_text` writes it.
pub const YOURS_KEY: &str = "attention-lab-trained";

/// Fired on the window by the training view once it has kept a model and put the lesson's
/// link in the address bar: the page reads both.
pub const OPEN_LESSON_EVENT: &str = "attention-lab-trained";

/// The page's element the training view mounts into.
pub const LEARN_ROOT: &str = "learn-app";

/// Fired on the window by the page to ask a running training module to mount again (the view
/// was opened again, or the language or theme changed).
pub const LEARN_MOUNT_EVENT: &str = "attention-lab-learn";

/// The training view's URL keys, in the order it writes them; the page keeps them as they are.
pub const LEARN_KEYS: [&str; 9] = ["task", "ld", "lh", "ll", "lr", "lb", "lseed", "lscale", "lmlp"];

/// The lesson's keys that "Open in the lesson" sets, with their values for a sentence: the
/// lesson, the learner's model, that sentence as the first stage, layer 1, head 1, query 1,
/// self-attention with the causal mask it was trained with, ÷√d_k as it was trained and the
/// plain softmax (T = 1). The others (language, theme, the training view's) stay as they are.
fn lesson_pairs(sentence: &str, scaled: bool) -> [(&'static str, &str); 11] {
    let scale = if scaled { "1" } else { "0" };
    [
        ("view", "lesson"),
        ("model", "yours"),
        ("text", sentence),
        ("cross", "0"),
        ("mask", "causal"),
        ("scale", scale),
        ("t", "1"),
        ("layer", "1"),
        ("head", "1"),
        ("stage", "input"),
        ("q", "1"),
    ]
}

/// The key of a query pair (`key=value`, percent-encoded), decoded.
fn key_of(pair: &str) -> Option<String> {
    decode(pair.split('=').next().unwrap_or_default())
}

/// Whether a query pair is one of the training view's.
pub fn is_learn_pair(pair: &str) -> bool {
    key_of(pair).is_some_and(|k| LEARN_KEYS.contains(&k.as_str()))
}

/// The training view's pairs of `query` ("&"-joined, each with its leading "&"), as they are.
pub fn learn_pairs(query: &str) -> String {
    query.trim_start_matches('?').split('&').filter(|p| is_learn_pair(p)).map(|p| format!("&{p}")).collect()
}

/// `query` with `pairs` set (each key replaced, in `pairs`' order at the end) and the rest kept.
fn with_pairs(query: &str, pairs: &[(&str, &str)]) -> String {
    let set = |pair: &&str| key_of(pair).is_some_and(|k| pairs.iter().any(|(key, _)| *key == k));
    let kept = query.trim_start_matches('?').split('&').filter(|p| !p.is_empty() && !set(p));
    let added = pairs.iter().map(|(k, v)| format!("{k}={}", encode(v)));
    kept.map(str::to_string).chain(added).collect::<Vec<_>>().join("&")
}

/// `query` with the training view's keys set to `values` (in [`LEARN_KEYS`] order).
pub fn with_learn_values(query: &str, values: &[String; 9]) -> String {
    let pairs: Vec<(&str, &str)> = LEARN_KEYS.iter().copied().zip(values.iter().map(String::as_str)).collect();
    with_pairs(query, &pairs)
}

/// `query` opening the lesson on the learner's model with `sentence` (its tokens); `scaled`:
/// it was trained with ÷√d_k.
pub fn lesson_query(query: &str, sentence: &str, scaled: bool) -> String {
    with_pairs(query, &lesson_pairs(sentence, scaled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::models::{Arrival, ModelId, Models};
    use crate::settings::Settings;

    #[test]
    fn opening_the_lesson_names_the_model_and_keeps_the_experiment() {
        let query = lesson_query("?lang=zh&view=learn&task=sort&text=old&model=minilm&head=3", "1 2 | 2 1", false);
        assert_eq!(
            query,
            "lang=zh&task=sort&view=lesson&model=yours&text=1%202%20%7C%202%201&cross=0&mask=causal&scale=0&t=1&layer=1&head=1&stage=input&q=1"
        );
        let mut models = Models::default();
        models.arrive(ModelId::Yours, Arrival::Missing(crate::core::model::ModelError::NotKept));
        let settings = Settings::from_query(&query, Lang::En, &models).0;
        let l = settings.lesson();
        assert_eq!((l.text(), l.head(), l.scaled()), ("1 2 | 2 1", 0, false));
        assert_eq!(settings.choice().id(), ModelId::Yours);
    }

    #[test]
    fn each_side_keeps_the_other_s_keys() {
        assert!(is_learn_pair("%6Cd=3") && !is_learn_pair("lang=zh") && !is_learn_pair("d=64"));
        assert_eq!(learn_pairs("?lang=zh&task=sort&d=64&lr=0.1"), "&task=sort&lr=0.1");
        let values = ["sort", "32", "2", "1", "0.01", "32", "1", "1", "0"].map(String::from);
        let query = with_learn_values("%74ask=reverse&lang=zh", &values);
        assert_eq!(query.matches("task=").count(), 1, "an encoded key is replaced too");
        assert!(query.starts_with("lang=zh&task=sort&ld=32"), "{query}");
    }
}
