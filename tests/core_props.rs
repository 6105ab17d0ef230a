//! Layer 3: property tests over random shapes and values, magnitudes up to 1e4 and d_k up to
//! 1024, scaled and unscaled: the core never panics, and whatever it returns is finite with
//! rows of weights summing to 1 (tolerance 1e-4).
#![cfg(not(target_arch = "wasm32"))]

use attention_lab::core::attention::head;
use attention_lab::core::flash::tiled_attention;
use attention_lab::core::rng::normal_matrix;
use attention_lab::core::{run, AttentionConfig, AttnError, Mask, Projections};
use ndarray::Array2;
use proptest::prelude::*;

fn d_k_strategy() -> impl Strategy<Value = usize> {
    prop_oneof![1usize..=8, Just(16), Just(64), Just(256), Just(1024)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn any_shape_and_magnitude_gives_finite_normalised_weights(
        d_k in d_k_strategy(),
        heads_wish in 1usize..=4,
        n_q in 1usize..=12,
        n_kv in prop::option::of(1usize..=12),
        magnitude in prop_oneof![Just(1e-3f32), Just(1.0), Just(30.0), Just(1e4)],
        scaled in any::<bool>(),
        causal in any::<bool>(),
        temperature in prop_oneof![Just(0.05f32), Just(1.0), Just(20.0)],
        seed in any::<u64>(),
    ) {
        let heads = if d_k >= 256 { 1 } else { heads_wish };
        let d_model = d_k * heads;
        let mut rng = attention_lab::core::rng::SplitMix64::new(seed);
        let mut input = |n| Array2::from_shape_fn((n, d_model), |_| rng.symmetric(magnitude));
        let x = input(n_q);
        let x_kv = n_kv.map(&mut input);
        let w = Projections::seeded(d_model, seed).unwrap();
        let cfg = AttentionConfig {
            n_heads: heads,
            mask: if causal { Mask::Causal } else { Mask::None },
            scaled,
            temperature,
            ..AttentionConfig::default()
        };
        let t = run(&x, x_kv.as_ref(), &w, &cfg).expect("inputs of these magnitudes never overflow");
        prop_assert!(t.output.iter().all(|v| v.is_finite()));
        for h in &t.head_traces {
            prop_assert!(h.scores.iter().all(|v| v.is_finite()));
            prop_assert!(h.output.iter().all(|v| v.is_finite()));
            for row in h.weights.rows() {
                prop_assert!(row.iter().all(|p| p.is_finite() && *p >= 0.0));
                prop_assert!((row.sum() - 1.0).abs() < 1e-4, "row sums to {}", row.sum());
            }
            let s = h.summary(&t.blocked);
            prop_assert!(s.entropy.is_finite() && s.jacobian_norm.is_finite() && s.score_std.is_finite());
        }
    }

    #[test]
    fn arbitrary_sizes_are_the_right_error_or_a_whole_trace_never_a_panic(
        d_model in 0usize..=20,
        heads in 0usize..=6,
        n_q in 0usize..=4,
        cols in 0usize..=20,
        temperature in prop_oneof![Just(f32::NAN), Just(-1.0f32), Just(0.0), Just(1.0), Just(f32::INFINITY)],
    ) {
        let x = Array2::from_elem((n_q, cols), 0.5f32);
        let result = Projections::seeded(d_model, 1).and_then(|w| {
            run(&x, None, &w, &AttentionConfig { n_heads: heads, temperature, ..AttentionConfig::default() })
        });
        // The checks run in this order, and the first that fails is the error.
        let want = if d_model == 0 {
            Err(AttnError::ZeroModelWidth)
        } else if heads == 0 || d_model % heads != 0 {
            Err(AttnError::HeadsDoNotDivide { d_model, n_heads: heads })
        } else if temperature.is_nan() || temperature <= 0.0 || temperature.is_infinite() {
            Err(AttnError::BadTemperature(temperature))
        } else if n_q == 0 {
            Err(AttnError::EmptySequence { which: "query" })
        } else if cols != d_model {
            Err(AttnError::Shape { what: "X", expected: format!("n × {d_model}"), given: (n_q, cols) })
        } else {
            Ok(())
        };
        match (result, want) {
            (Ok(t), Ok(())) => {
                prop_assert_eq!(t.n(), (n_q, n_q));
                prop_assert_eq!(t.output.dim(), (n_q, d_model));
                prop_assert_eq!(t.head_traces.len(), heads);
                for h in &t.head_traces {
                    prop_assert_eq!(h.output.dim(), (n_q, d_model / heads));
                    for row in h.weights.rows() {
                        prop_assert!((row.sum() - 1.0).abs() < 1e-5, "row sums to {}", row.sum());
                    }
                }
            }
            // NaN never equals itself: compare the messages, which name the same value.
            (Err(got), Err(want)) => prop_assert_eq!(got.to_string(), want.to_string()),
            (got, want) => prop_assert!(false, "got {:?}, expected {:?}", got.map(|t| t.n()), want),
        }
    }

    #[test]
    fn tiled_attention_equals_the_full_matrix(
        n_q in 1usize..=40,
        n_kv in 1usize..=40,
        d in 1usize..=32,
        tile_q in 1usize..=48,
        tile_k in 1usize..=48,
        causal in any::<bool>(),
        magnitude in prop_oneof![Just(0.1f32), Just(1.0), Just(3.0)],
        seed in any::<u64>(),
    ) {
        // FlashAttention's online softmax must give the same output as building S in full,
        // within 1e-5 (relative to the output's size), for every shape and tiling.
        let q = normal_matrix(n_q, d, seed, 1) * magnitude;
        let k = normal_matrix(n_kv, d, seed, 2) * magnitude;
        let v = normal_matrix(n_kv, d, seed, 3);
        let blocked = ndarray::Array2::from_shape_fn((n_q, n_kv), |(i, j)| causal && j > i);
        let scale = (d as f32).sqrt();
        let full = head(q.view(), k.view(), v.view(), &blocked, scale, 1.0).unwrap();
        let tiled = tiled_attention(q.view(), k.view(), v.view(), &blocked, scale, (tile_q, tile_k), false);
        for (a, b) in tiled.output.iter().zip(&full.output) {
            prop_assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "tiled {a} vs full {b}");
        }
    }
}
