//! The trace a student downloads is in the reference-fixture format: parse it back and check
//! it with the same comparison that checks ONNX Runtime's fixtures (so it can be checked in
//! Python the same way).

mod common;

use attention_lab::core::attention::Mask;
use attention_lab::core::scenario::compute;
use attention_lab::export::trace_json;
use attention_lab::i18n::Lang;
use attention_lab::settings::{Settings, MAX_TOKENS};
use common::{check, Fixture};

#[test]
fn an_exported_trace_passes_the_fixture_check() {
    let cases: [fn(&mut Settings); 3] = [
        |_| {},
        |s| s.mask = Mask::Causal,
        |s| {
            s.cross = true;
            s.scaled = false;
            s.heads = 8;
        },
    ];
    for tweak in cases {
        let mut s = Settings::new(Lang::En);
        tweak(&mut s);
        let outcome = compute(&s.scenario(), MAX_TOKENS).expect("default settings compute");
        let json = trace_json(&outcome, "export");
        let fixture: Fixture = serde_json::from_str(&json).expect("the export parses in the fixture format");
        let failures = check(&fixture);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["tokens"].as_array().map(Vec::len), Some(outcome.tokens.len()));
        // The settings in the file are those that produced the trace.
        assert_eq!(value["mask"], s.mask.slug());
        assert_eq!(value["scaled"], s.scaled);
        assert_eq!(value["seed"], s.seed);
    }
}

#[test]
fn a_wrong_export_would_fail_the_check() {
    let s = Settings::new(Lang::En);
    let outcome = compute(&s.scenario(), MAX_TOKENS).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&trace_json(&outcome, "export")).unwrap();
    value["expected"]["weights"][0][0][0] = serde_json::json!(0.99);
    let fixture: Fixture = serde_json::from_value(value).unwrap();
    assert!(!check(&fixture).is_empty());
}
