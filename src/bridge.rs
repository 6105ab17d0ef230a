//! What the page and the modules it starts (each its own .wasm, its own Rust program in one
//! page: the training view, the pretrained model's views, the side lessons) share, in one
//! place, so none imports another: where the learner's model is kept, each module's element
//! and start script, and which module owns which URL keys (the keys themselves, every key of a link, are
//! `settings::url`'s). What they say to each other is
//! `protocol`'s. Every binary depends on this module; it depends on none of them.
//!
//! A module that changes the lesson (the training view keeps the learner's model under
//! [`YOURS_KEY`] in the browser's local storage first) asks the page to go to the lesson's
//! link ([`lesson_query`]); the page then reads the stored models and the link. Otherwise a
//! module changes only its own keys, which the page keeps as they are (`settings::url::module_pairs`); the
//! one exception is the side lessons' module, which mirrors the lesson's settings and changes
//! some of them (`settings::url::SIDE_KEYS`).

use crate::core::train::yours::Shown;
use crate::percent::{decode, encode};

/// The local-storage key the learner's model is kept under, as `YourModel::to_text` writes it.
pub const YOURS_KEY: &str = "attention-lab-trained";

/// The page's element for "Predict first" (`crate::predict`), marked `data-view="predict"`:
/// the side lessons' module asks the stage's question there, from the numbers the page handed
/// over, and tells the page once it is answered (`protocol`).
pub const PREDICT_VIEW: &str = "predict";

/// The `<meta>` that names the training worker's start script (written by
/// scripts/postbuild.py), read by whichever module starts a pool of them.
pub const TRAINER_META: &str = "attention-lab-trainer";

/// The `<meta>` that names the forward worker's start script (written by
/// scripts/postbuild.py), read by the page when a model that runs there is first shown.
pub const FORWARD_META: &str = "attention-lab-forward";

crate::slugged! {
    /// The modules the page starts when one of their views opens.
    pub enum Hosted {
        /// The training view (`crate::learn`).
        Learn = "learn",
        /// The views about the pretrained model: every head at once, the case study
        /// (`crate::pretrained`).
        Pretrained = "pretrained",
        /// The side lessons that read only the lesson's settings: the variance of q·k,
        /// positional encoding, the Transformer block, RNN and CNN against attention
        /// (`crate::side`).
        Side = "side",
    }
}

impl Hosted {
    /// Its name in the build: the start script the page names in
    /// `<meta name="attention-lab-{name}">`, and its loading and failure lines' marks.
    pub fn name(self) -> &'static str {
        self.slug()
    }

    /// The page's element it mounts into.
    pub fn root(self) -> &'static str {
        match self {
            Hosted::Learn => "learn-app",
            Hosted::Pretrained => "pretrained-app",
            Hosted::Side => "side-app",
        }
    }

    /// Whether it reads the page's settings (`crate::side`, its `ui::LessonState`): it then follows them,
    /// and the page's language and theme, each time the page sends its link, without being
    /// mounted again.
    pub fn mirrors_settings(self) -> bool {
        matches!(self, Hosted::Side)
    }
}

/// The lesson's keys that "Open in the lesson" sets, with their values for a sentence: the
/// lesson, the learner's model (`model`, its slug), that sentence, self-attention with the
/// causal mask it was trained with, ÷√d_k as it was trained and the plain softmax (T = 1);
/// then where the model shows what it learned (`shown`): the softmax stage on its head, the
/// query's row chosen and the key of its answer spotlighted; without it, the first stage,
/// layer 1, head 1, query 1. The others (language, theme, the training view's) stay as they are.
fn lesson_pairs(model: &str, sentence: &str, scaled: bool, shown: Option<Shown>) -> Vec<(&'static str, String)> {
    let one = |i: usize| (i + 1).to_string();
    let mut pairs = vec![
        ("view", "lesson".to_string()),
        ("model", model.to_string()),
        ("text", sentence.to_string()),
        ("cross", "0".into()),
        ("mask", "causal".into()),
        ("scale", if scaled { "1" } else { "0" }.into()),
        ("t", "1".into()),
    ];
    match shown {
        Some(s) => pairs.extend([
            ("layer", one(s.layer)),
            ("head", one(s.head)),
            ("stage", "softmax".into()),
            ("q", one(s.query)),
            ("spot", one(s.key)),
        ]),
        None => pairs.extend([("layer", one(0)), ("head", one(0)), ("stage", "input".into()), ("q", one(0))]),
    }
    pairs
}

/// The key of a query pair (`key=value`, percent-encoded), decoded.
pub fn key_of(pair: &str) -> Option<String> {
    decode(pair.split('=').next().unwrap_or_default())
}

/// `query`'s pairs of `keys`, decoded: (key, value), of a repeated key the last.
pub fn read_pairs(query: &str, keys: &[&str]) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for (k, v) in crate::percent::pairs(query).into_iter().filter(|(k, _)| keys.contains(&k.as_str())) {
        out.retain(|(old, _)| *old != k);
        out.push((k, v));
    }
    out
}

/// `query` with `pairs` set (each key replaced, in `pairs`' order at the end) and the rest kept.
pub fn with_pairs(query: &str, pairs: &[(&str, &str)]) -> String {
    let set = |pair: &&str| key_of(pair).is_some_and(|k| pairs.iter().any(|(key, _)| *key == k));
    let kept = query.trim_start_matches('?').split('&').filter(|p| !p.is_empty() && !set(p));
    let added = pairs.iter().map(|(k, v)| format!("{k}={}", encode(v)));
    kept.map(str::to_string).chain(added).collect::<Vec<_>>().join("&")
}

/// `query` opening the lesson on the learner's model (`model`, its slug in links) with
/// `sentence` (its tokens); `scaled`: it was trained with ÷√d_k.
pub fn lesson_query(query: &str, model: &str, sentence: &str, scaled: bool, shown: Option<Shown>) -> String {
    let pairs = lesson_pairs(model, sentence, scaled, shown);
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    with_pairs(query, &pairs)
}

/// What the browser says went wrong, in its words: a thrown string or `Error`'s message (a
/// worker that would not start, a message that could not be sent).
pub fn describe(e: wasm_bindgen::JsValue) -> String {
    use wasm_bindgen::JsCast;
    e.as_string()
        .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())))
        .unwrap_or_else(|| format!("{e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::models::{Arrival, ModelId, Models};
    use crate::settings::url::STUDY_KEYS;
    use crate::settings::Settings;

    #[test]
    fn opening_the_lesson_names_the_model_and_keeps_the_experiment() {
        let yours = crate::models::stored_under(YOURS_KEY).expect("the registry keeps one model there");
        let query = lesson_query(
            "?lang=zh&view=learn&task=sort&text=old&model=minilm&head=3",
            yours.slug(),
            "1 2 | 2 1",
            false,
            None,
        );
        assert_eq!(
            query,
            "lang=zh&task=sort&view=lesson&model=yours&text=1%202%20%7C%202%201&cross=0&mask=causal&scale=0&t=1&layer=1&head=1&stage=input&q=1"
        );
        let mut models = Models::default();
        models.arrive(ModelId::Yours, Arrival::Missing(crate::core::model::ModelError::NotKept));
        let (settings, ignored) = Settings::from_query(&query, Lang::En, &models);
        assert!(ignored.is_empty(), "the lesson reads every key the bridge writes: {ignored:?}");
        let l = settings.lesson();
        assert_eq!((l.text(), l.head(), l.scaled()), ("1 2 | 2 1", 0, false));
        assert_eq!(settings.choice().id(), ModelId::Yours);
    }

    #[test]
    fn each_side_keeps_the_other_s_keys() {
        assert_eq!(
            read_pairs("c1=a&d=1&c1=b%20c&cw", &STUDY_KEYS),
            [("c1".into(), Some("b c".into())), ("cw".into(), Some(String::new()))]
        );
        let query = with_pairs("%74ask=reverse&lang=zh", &[("task", "sort"), ("ld", "32")]);
        assert_eq!(query.matches("task=").count(), 1, "an encoded key is replaced too");
        assert!(query.starts_with("lang=zh&task=sort&ld=32"), "{query}");
    }
}
