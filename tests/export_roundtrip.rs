//! The trace a student downloads is in the reference-fixture format: parse it back and check
//! it with the same comparison that checks ONNX Runtime's fixtures (so it can be checked in
//! Python the same way).

mod common;

use attention_lab::core::attention::Mask;
use attention_lab::export::trace_json;
use attention_lab::i18n::Lang;
use attention_lab::models::Models;
use attention_lab::settings::Settings;
use common::{check, outcome_of, Fixture};

#[test]
fn an_exported_trace_passes_the_fixture_check() {
    let cases: [fn(&mut Settings, &Models); 3] = [
        |_, _| {},
        |s, _| s.lesson_mut().set_mask(Mask::Causal),
        |s, c| {
            s.lesson_mut().set_cross(true);
            s.lesson_mut().set_scaled(false);
            assert!(s.change_choice(c, |m| m.set_n_heads(8)));
        },
    ];
    let models = Models::default();
    for tweak in cases {
        let mut s = Settings::new(Lang::En);
        tweak(&mut s, &models);
        let outcome = outcome_of(&s, &models).expect("default settings compute");
        let json = trace_json(&outcome, "export");
        let fixture: Fixture = serde_json::from_str(&json).expect("the export parses in the fixture format");
        let failures = check(&fixture);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["tokens"].as_array().map(Vec::len), Some(outcome.tokens.len()));
        // The settings in the file are those that produced the trace.
        assert_eq!(value["mask"], s.lesson().mask().slug());
        assert_eq!(value["scaled"], s.lesson().scaled());
        assert_eq!(value["seed"], s.choice().random().seed);
    }
}

#[test]
fn a_wrong_export_would_fail_the_check() {
    let s = Settings::new(Lang::En);
    let outcome = outcome_of(&s, &Models::default()).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&trace_json(&outcome, "export")).unwrap();
    value["expected"]["weights"][0][0][0] = serde_json::json!(0.99);
    let fixture: Fixture = serde_json::from_value(value).unwrap();
    assert!(!check(&fixture).is_empty());
}
