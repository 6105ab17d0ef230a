//! Robustness, natively: any URL query and any text give a valid state or a clear error,
//! never a panic; and a grid over the extremes the site allows gives finite weights whose rows
//! sum to 1.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use attention_lab::core::attention::head;
use attention_lab::core::model::random::{Random, RandomSetup};
use attention_lab::core::model::{Input, Model, ModelError, RunOptions};
use attention_lab::core::rng::normal_matrix;
use attention_lab::core::tokenize::tokenize;
use attention_lab::core::AttnError;
use attention_lab::i18n::Lang;
use attention_lab::models::Models;
use attention_lab::number::parse_decimal;
use attention_lab::settings::url::{decode, encode, KEYS};
use attention_lab::settings::{Settings, MAX_TOKENS};
use common::outcome_of;
use ndarray::Array2;
use proptest::prelude::*;

/// Equal to 12 significant digits (or both below any value the site uses).
fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-12 * b.abs() || (a.abs() < 1e-290 && b.abs() < 1e-290)
}

/// Query-like strings: every key the codec knows (read from its own table) with arbitrary
/// values, arbitrary keys, stray separators.
fn query() -> impl Strategy<Value = String> {
    let known = prop::sample::select(KEYS.iter().map(|k| k.name.to_string()).collect::<Vec<_>>());
    let key = prop_oneof![3 => known, 1 => "\\PC{0,8}"];
    let value = prop_oneof!["\\PC{0,40}", "[0-9%+.eE-]{0,12}", Just("%".to_string()), Just("%E4%B8".to_string())];
    prop::collection::vec((key, value), 0..12)
        .prop_map(|pairs| pairs.into_iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_query_gives_settings_that_compute_or_explain_why(q in query(), raw in "\\PC{0,200}") {
        let models = Models::default();
        for input in [q.as_str(), raw.as_str()] {
            let (s, _ignored) = Settings::from_query(input, Lang::En, &models);
            // Whatever the link said, the result is a state the site can show (the models
            // that must arrive first show random weights meanwhile, or say none is kept)...
            let outcome = outcome_of(&s, &models);
            prop_assert!(
                outcome.is_ok() || outcome == Err(ModelError::NotKept),
                "{input:?} gave settings that do not compute: {:?}", outcome.err()
            );
            // ...and it survives its own round trip through the URL unchanged.
            let (again, ignored) = Settings::from_query(&s.to_query(), Lang::En, &models);
            prop_assert_eq!(&again, &s);
            prop_assert!(ignored.is_empty());
        }
    }

    #[test]
    fn any_text_is_tokens_and_a_trace_or_the_error_that_names_the_cause(text in "\\PC{0,400}", d in prop_oneof![Just(8usize), Just(64)], heads in 1usize..=8) {
        // Random weights of any head count (the settings offer only those dividing d).
        let model = Random::new(RandomSetup { d_model: d, n_heads: heads, ..RandomSetup::default() }, MAX_TOKENS, Default::default());
        let n = tokenize(&text).len();
        match model.forward(&Input { text: text.clone(), kv_text: None }, &RunOptions::default()) {
            Ok(e) => {
                prop_assert!((1..=MAX_TOKENS).contains(&n) && d % heads == 0, "{n} tokens, d {d}, heads {heads} should not compute");
                let trace = &e.layers[0].trace;
                prop_assert_eq!(trace.n(), (n, n));
                prop_assert!(trace.head_traces.iter().all(|h| h.weights.iter().all(|w| w.is_finite())));
            }
            // The heads are checked first, then the sentence: each failure says which it was.
            Err(e) => {
                let want = if d % heads != 0 {
                    ModelError::Attention(AttnError::HeadsDoNotDivide { d_model: d, n_heads: heads })
                } else if n == 0 {
                    ModelError::NoTokens { which: "query" }
                } else {
                    ModelError::TooManyTokens { which: "query", max: MAX_TOKENS, given: n }
                };
                prop_assert_eq!(e, want);
            }
        }
    }

    #[test]
    fn percent_encoding_round_trips_any_text(text in "\\PC{0,100}") {
        prop_assert_eq!(decode(&encode(&text)), Some(text));
    }

    #[test]
    fn numbers_in_links_and_sliders_parse_like_std(
        text in "[0-9+.eE-]{0,14}|\\PC{0,12}",
        x in any::<f64>(),
        (digits, point) in (0u64..1_000_000_000_000_000, 0usize..16),
    ) {
        // Any text: no panic, and whatever is accepted is the number std reads.
        if let Some(v) = parse_decimal(&text) {
            let std: f64 = text.parse().map_err(|e| TestCaseError::fail(format!("{text:?} accepted, std says {e}")))?;
            prop_assert!(close(v, std), "{text:?}: {v} vs {std}");
        }
        // Decimals of up to 15 digits, the kind the page writes, come back exactly.
        let mut short = digits.to_string();
        if point < short.len() {
            short.insert(short.len() - point, '.');
        }
        prop_assert_eq!(parse_decimal(&short), short.parse::<f64>().ok(), "{}", short);
        // Any finite number, however long, comes back close.
        if x.is_finite() {
            let back = parse_decimal(&x.to_string()).ok_or_else(|| TestCaseError::fail(format!("{x} rejected")))?;
            prop_assert!(close(back, x), "{x}: {back}");
        }
    }
}

#[test]
fn extremes_give_finite_weights_whose_rows_sum_to_one() {
    // n 1…256, d_k 1…1024, scaled or not, causal or not, temperature 0.05…20, inputs up to 1e4.
    let mut saturated = 0;
    for n in [1usize, 2, 17, 64, 256] {
        for d_k in [1usize, 8, 64, 1024] {
            for magnitude in [1e-3f32, 1.0, 30.0, 1e4] {
                let q = normal_matrix(n, d_k, 7, 1) * magnitude;
                let k = normal_matrix(n, d_k, 7, 2) * magnitude;
                let v = normal_matrix(n, d_k.min(8), 7, 3);
                for causal in [false, true] {
                    let blocked = Array2::from_shape_fn((n, n), |(i, j)| causal && j > i);
                    for scaled in [false, true] {
                        for temperature in [0.05f32, 1.0, 20.0] {
                            let scale = if scaled { (d_k as f32).sqrt() } else { 1.0 };
                            let h = head(q.view(), k.view(), v.view(), &blocked, scale, temperature)
                                .unwrap_or_else(|e| panic!("n {n} d_k {d_k} magnitude {magnitude}: {e}"));
                            for (i, row) in h.weights.rows().into_iter().enumerate() {
                                assert!(row.iter().all(|w| w.is_finite() && *w >= 0.0), "n {n} d_k {d_k} row {i}");
                                assert!(
                                    (row.sum() - 1.0).abs() < 1e-4,
                                    "n {n} d_k {d_k} mag {magnitude} T {temperature} row {i} sums to {}",
                                    row.sum()
                                );
                            }
                            assert!(h.output.iter().all(|x| x.is_finite()));
                            // Unscaled, large scores saturate: the typical row is one-hot.
                            if !scaled && n > 1 && d_k >= 64 && magnitude >= 30.0 && temperature <= 1.0 {
                                assert!(
                                    h.summary(&blocked).median_max_weight > 0.99,
                                    "n {n} d_k {d_k}: median top weight {}",
                                    h.summary(&blocked).median_max_weight
                                );
                                saturated += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    // n > 1 (4) × d_k ≥ 64 (2) × magnitude ≥ 30 (2) × causal (2) × T ≤ 1 (2) cases saturated.
    assert_eq!(saturated, 4 * 2 * 2 * 2 * 2);
}
