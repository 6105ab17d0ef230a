//! A model is one implementation: the toy model of `common::toy`, which no file of `src/`
//! knows, arrives in the registry's slot for a pretrained model and goes through the lesson's
//! settings and link, every stage's plain reading, the export (checked as a fixture) and the
//! model view's numbers, as any model does. (The page itself shows it in `tests/web.rs`.)
#![cfg(not(target_arch = "wasm32"))]

mod common;

use attention_lab::core::ends::{end_share, without_ends};
use attention_lab::core::model::Model;
use attention_lab::export::{file_stem, trace_json};
use attention_lab::i18n::Lang;
use attention_lab::models::{Arrival, ModelId, Models};
use attention_lab::reading::stage_reading;
use attention_lab::settings::{SentenceProblem, Settings, Stage};
use common::toy::{Toy, SENTENCE};
use common::{check, outcome_of, Fixture};
use std::sync::Arc;

fn with_toy() -> Models {
    let mut models = Models::default();
    models.arrive(ModelId::Minilm, Arrival::Ready(Arc::new(Toy::new())));
    models
}

/// The lesson on the toy: its sentence, its second layer and second head.
fn lesson(models: &Models) -> Settings {
    let mut s = Settings::new(Lang::En);
    assert!(s.set_text(SENTENCE, models).is_ok() && s.set_model(ModelId::Minilm, models));
    assert!(s.set_layer(1, models) && s.set_head(1, models) && !s.set_head(2, models), "two layers of two heads");
    assert!(s.set_query(8, models) && !s.set_query(9, models), "seven words between [CLS] and [SEP]");
    s
}

#[test]
fn the_settings_and_the_link_follow_the_toy() {
    let models = with_toy();
    let mut s = lesson(&models);
    assert_eq!(s.set_text("the dog sat", &models).map(|_| ()), Err(SentenceProblem::Unknown("dog".into())));
    let (back, ignored) = Settings::from_query(&s.to_query(), Lang::En, &models);
    assert_eq!((back, ignored.len()), (s, 0));
}

#[test]
fn every_stage_reads_the_toy_in_both_languages() {
    let models = with_toy();
    let o = outcome_of(&lesson(&models), &models).expect("the toy computes");
    assert_eq!((o.layer, o.trace().n_heads(), o.trace().n()), (1, 2, (9, 9)));
    assert_eq!(o.tokens.first().map(String::as_str), Some("[CLS]"));
    for stage in Stage::ALL {
        for lang in [Lang::En, Lang::Zh] {
            let text = stage_reading(&o, stage, 1, 3, lang).unwrap_or_default();
            assert!(!text.is_empty() && !text.contains('{'), "{stage:?} {lang:?}: {text:?}");
        }
    }
}

#[test]
fn the_toy_exports_as_a_fixture_named_after_it() {
    let models = with_toy();
    let o = outcome_of(&lesson(&models), &models).expect("the toy computes");
    let json = trace_json(&o, "toy");
    let fixture: Fixture = serde_json::from_str(&json).expect("the fixture format");
    let failures = check(&fixture);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!((value["model"].as_str(), value["layer"].as_u64()), (Some("toy"), Some(2)));
    assert_eq!(value["layers"].as_array().map(Vec::len), Some(2), "every layer's weights");
    let stem = file_stem(Stage::Softmax, o.shape(), o.layer, &o.encoding.options, false, "weights");
    assert_eq!(stem, "attention-lab_softmax_toy-layer2_weights");
}

#[test]
fn the_model_view_reads_every_head_of_the_toy() {
    let models = with_toy();
    let e = outcome_of(&lesson(&models), &models).expect("the toy computes").encoding;
    let shares = end_share(&e);
    assert_eq!(shares.len(), 2);
    assert!(shares.iter().all(|(a, b)| (0.0..=1.0).contains(&(a + b))));
    for layer in &e.layers {
        for head in &layer.trace.head_traces {
            let inner = without_ends(&head.weights);
            assert_eq!(inner.dim(), (7, 7), "the words without [CLS] and [SEP]");
            assert!(inner.rows().into_iter().all(|r| (r.sum() - 1.0).abs() < 1e-5));
        }
    }
    assert!(e.shape.framed && Toy::new().shape().n_layers == 2);
}

/// A link may name the toy only with a sentence the toy reads: otherwise the default model and
/// sentence stay, and the notice names both keys.
#[test]
fn a_link_naming_the_toy_for_a_sentence_it_cannot_read_keeps_the_default_and_says_so() {
    let models = with_toy();
    let (s, ignored) = Settings::from_query("lang=en&model=minilm&text=a%20dog&head=2", Lang::En, &models);
    let default = Settings::new(Lang::En);
    assert_eq!((s.choice(), s.lesson().text()), (default.choice(), default.lesson().text()));
    assert_eq!(ignored, ["model", "text"]);
    let (s, ignored) = Settings::from_query("model=minilm&text=the%20cat&head=2", Lang::En, &models);
    assert_eq!((s.choice().id(), s.lesson().head(), ignored.len()), (ModelId::Minilm, 1, 0));
}
