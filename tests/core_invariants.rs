//! Layers 1 and 2 of the core's tests: a case checked by hand, and invariants every attention
//! computation must satisfy, each with its tolerance stated.

use attention_lab::core::ablate::Replacement;
use attention_lab::core::{run, AttentionConfig, AttnError, Mask, Projections};
use ndarray::{arr2, Array2};

fn identity_weights(d: usize) -> Projections {
    let i = Array2::eye(d);
    Projections::from_matrices(i.clone(), i.clone(), i.clone(), i).unwrap()
}

fn seeded_input(n: usize, d: usize, seed: u64) -> Array2<f32> {
    let mut rng = attention_lab::core::rng::SplitMix64::new(seed);
    Array2::from_shape_fn((n, d), |_| rng.normal())
}

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn hand_checked_three_tokens_dk2() {
    // X = [[1,0],[0,1],[1,1]], identity weights, so Q = K = V = X, one head, d_k = 2.
    // S = XXᵀ = [[1,0,1],[0,1,1],[1,1,2]];  S/√2 = [[.7071,0,.7071],[0,.7071,.7071],[.7071,.7071,1.4142]]
    // row 0: e^.7071 = 2.0281, e^0 = 1 → 2.0281/5.0562 = 0.40111, 1/5.0562 = 0.19778
    // row 2: 2.0281, 2.0281, e^1.4142 = 4.1133, sum 8.1695 → 0.24826, 0.24826, 0.50349
    // O row 0 = 0.40111·[1,0] + 0.19778·[0,1] + 0.40111·[1,1] = [0.80222, 0.59889]
    let x = arr2(&[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);
    let t = run(&x, None, &identity_weights(2), &AttentionConfig::default()).unwrap();
    let h = &t.head_traces[0];
    assert_eq!(h.scores, arr2(&[[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 2.0]]));
    let want_w = [[0.40111, 0.19778, 0.40111], [0.19778, 0.40111, 0.40111], [0.24826, 0.24826, 0.50349]];
    let want_o = [[0.80222, 0.59889], [0.59889, 0.80222], [0.75174, 0.75174]];
    for ((i, j), got) in h.weights.indexed_iter() {
        assert!(close(*got, want_w[i][j], 1e-5), "A[{i},{j}] = {got}");
    }
    for ((i, j), got) in t.output.indexed_iter() {
        assert!(close(*got, want_o[i][j], 1e-5), "O[{i},{j}] = {got}");
    }

    // Causal: row 0 sees only itself; row 1 sees [0, .7071] → 1/3.0281 = 0.33024, 0.66976.
    let causal = AttentionConfig { mask: Mask::Causal, ..AttentionConfig::default() };
    let c = run(&x, None, &identity_weights(2), &causal).unwrap();
    assert_eq!(c.head_traces[0].weights.row(0).to_vec(), vec![1.0, 0.0, 0.0]);
    assert!(close(c.head_traces[0].weights[[1, 0]], 0.33024, 1e-5));
    assert_eq!(c.head_traces[0].masked(&c.blocked)[[1, 2]], f32::NEG_INFINITY);
}

#[test]
fn every_row_sums_to_one_and_masked_weights_are_exactly_zero() {
    for (n, d, heads, mask) in [(1, 4, 1, Mask::None), (7, 12, 3, Mask::Causal), (30, 64, 8, Mask::Causal)] {
        let w = Projections::seeded(d, 5).unwrap();
        let cfg = AttentionConfig { n_heads: heads, mask, ..AttentionConfig::default() };
        let t = run(&seeded_input(n, d, 1), None, &w, &cfg).unwrap();
        for h in &t.head_traces {
            for (i, row) in h.weights.rows().into_iter().enumerate() {
                assert!(close(row.sum(), 1.0, 1e-5), "row {i} sums to {}", row.sum());
                for j in 0..n {
                    if t.blocked[[i, j]] {
                        assert_eq!(row[j], 0.0, "blocked ({i},{j}) has weight {}", row[j]);
                    }
                }
            }
        }
    }
}

#[test]
fn causal_row_zero_attends_only_to_itself() {
    let cfg = AttentionConfig { n_heads: 2, mask: Mask::Causal, ..AttentionConfig::default() };
    let t = run(&seeded_input(6, 8, 2), None, &Projections::seeded(8, 1).unwrap(), &cfg).unwrap();
    for h in &t.head_traces {
        assert_eq!(h.weights[[0, 0]], 1.0);
        assert!(h.weights.row(0).iter().skip(1).all(|w| *w == 0.0));
    }
}

#[test]
fn permuting_keys_and_values_permutes_weights_and_keeps_output() {
    let w = Projections::seeded(16, 3).unwrap();
    let x = seeded_input(4, 16, 10);
    let kv = seeded_input(6, 16, 11);
    let perm = [3, 0, 5, 1, 4, 2];
    let kv_perm = Array2::from_shape_fn((6, 16), |(j, c)| kv[[perm[j], c]]);
    let cfg = AttentionConfig { n_heads: 2, ..AttentionConfig::default() };
    let a = run(&x, Some(&kv), &w, &cfg).unwrap();
    let b = run(&x, Some(&kv_perm), &w, &cfg).unwrap();
    for (ha, hb) in a.head_traces.iter().zip(&b.head_traces) {
        for ((i, j), got) in hb.weights.indexed_iter() {
            assert!(close(*got, ha.weights[[i, perm[j]]], 1e-6), "A'[{i},{j}] = {got}");
        }
    }
    // Output is a weighted sum: order-independent up to f32 rounding.
    assert!(a.output.iter().zip(&b.output).all(|(p, q)| close(*p, *q, 1e-5)));
}

#[test]
fn temperature_towards_zero_approaches_one_hot() {
    let x = seeded_input(8, 16, 4);
    let w = Projections::seeded(16, 4).unwrap();
    let cold = AttentionConfig { temperature: 1e-3, ..AttentionConfig::default() };
    let t = run(&x, None, &w, &cold).unwrap();
    assert!(
        t.head_traces[0].summary(&t.blocked).max_weight > 0.999,
        "mean max weight {}",
        t.head_traces[0].summary(&t.blocked).max_weight
    );
    let warm = run(&x, None, &w, &AttentionConfig::default()).unwrap();
    assert!(warm.head_traces[0].summary(&warm.blocked).max_weight < t.head_traces[0].summary(&t.blocked).max_weight);
}

#[test]
fn fully_padded_row_is_zero_not_nan() {
    // Every key is padding, so no query has anything to attend to: defined as weights 0, output 0.
    let cfg = AttentionConfig { key_padding: Some(vec![true; 3]), ..AttentionConfig::default() };
    let t = run(&seeded_input(3, 4, 1), None, &Projections::seeded(4, 1).unwrap(), &cfg).unwrap();
    assert!(t.head_traces[0].weights.iter().all(|w| *w == 0.0));
    assert!(t.output.iter().all(|o| *o == 0.0));
    assert_eq!(t.head_traces[0].row_readouts(&t.blocked)[0].entropy, 0.0);
}

#[test]
fn key_padding_blocks_only_the_padded_keys() {
    let cfg = AttentionConfig { key_padding: Some(vec![false, true, false]), ..AttentionConfig::default() };
    let t = run(&seeded_input(3, 4, 1), None, &Projections::seeded(4, 1).unwrap(), &cfg).unwrap();
    for row in t.head_traces[0].weights.rows() {
        assert_eq!(row[1], 0.0);
        assert!(close(row[0] + row[2], 1.0, 1e-6));
    }
}

#[test]
fn unscaled_large_dk_saturates_and_gradient_dies() {
    // The lesson in one test: with d_k = 512 and no ÷√d_k, rows go nearly one-hot.
    let d = 512;
    let x = seeded_input(16, d, 7);
    let w = Projections::seeded(d, 7).unwrap();
    let raw = run(&x, None, &w, &AttentionConfig { scaled: false, ..AttentionConfig::default() }).unwrap();
    let fair = run(&x, None, &w, &AttentionConfig::default()).unwrap();
    let (r, f) = (raw.head_traces[0].summary(&raw.blocked), fair.head_traces[0].summary(&fair.blocked));
    assert!(r.max_weight > 0.9 && f.max_weight < 0.5, "max weight raw {} scaled {}", r.max_weight, f.max_weight);
    assert!(r.jacobian_norm < 0.1 && f.jacobian_norm > r.jacobian_norm);
    // Score std ≈ √d_k ≈ 22.6 unscaled and ≈ 1 scaled (X has unit-variance rows plus nothing else here).
    assert!(r.score_std > 10.0 && f.score_std < 2.5, "std raw {} scaled {}", r.score_std, f.score_std);
}

#[test]
fn bad_inputs_are_errors_that_name_expected_and_given() {
    let w = Projections::seeded(8, 1).unwrap();
    let x = seeded_input(3, 8, 1);
    let cfg = |heads| AttentionConfig { n_heads: heads, ..AttentionConfig::default() };
    assert_eq!(run(&x, None, &w, &cfg(3)).unwrap_err(), AttnError::HeadsDoNotDivide { d_model: 8, n_heads: 3 });
    assert_eq!(run(&x, None, &w, &cfg(0)).unwrap_err(), AttnError::HeadsDoNotDivide { d_model: 8, n_heads: 0 });
    let empty = Array2::<f32>::zeros((0, 8));
    assert_eq!(run(&empty, None, &w, &cfg(1)).unwrap_err(), AttnError::EmptySequence { which: "query" });
    assert_eq!(run(&x, Some(&empty), &w, &cfg(1)).unwrap_err(), AttnError::EmptySequence { which: "key/value" });
    let narrow = seeded_input(3, 5, 1);
    assert_eq!(run(&narrow, None, &w, &cfg(1)).unwrap_err().to_string(), "X must be n × 8, got 3 × 5");
    let mut nan = x.clone();
    nan[[2, 4]] = f32::NAN;
    assert_eq!(
        run(&nan, None, &w, &cfg(1)).unwrap_err().to_string(),
        "X must hold finite numbers, found NaN or infinity at row 2, column 4"
    );
    let hot = AttentionConfig { temperature: 0.0, ..AttentionConfig::default() };
    assert_eq!(run(&x, None, &w, &hot).unwrap_err(), AttnError::BadTemperature(0.0));
    let pad = AttentionConfig { key_padding: Some(vec![false; 2]), ..AttentionConfig::default() };
    assert_eq!(run(&x, None, &w, &pad).unwrap_err(), AttnError::PaddingLength { expected: 3, given: 2 });
    // Projections that overflow f32 are reported, not passed on as inf/NaN.
    let huge = Array2::from_elem((3, 8), 3e38f32);
    let twos = Array2::from_elem((8, 8), 2.0f32);
    let w2 = Projections::from_matrices(twos.clone(), twos.clone(), twos.clone(), twos).unwrap();
    assert!(matches!(run(&huge, None, &w2, &cfg(1)).unwrap_err(), AttnError::NonFinite { what: "Q", .. }));
}

#[test]
fn trace_shapes_follow_the_documentation() {
    let w = Projections::seeded(12, 1).unwrap();
    let cfg = AttentionConfig { n_heads: 3, ..AttentionConfig::default() };
    let t = run(&seeded_input(5, 12, 1), Some(&seeded_input(7, 12, 2)), &w, &cfg).unwrap();
    assert_eq!((t.q.dim(), t.k.dim(), t.v.dim()), ((5, 12), (7, 12), (7, 12)));
    assert_eq!((t.d_k, t.scale), (4, 2.0));
    for h in &t.head_traces {
        assert_eq!((h.q.dim(), h.k.dim(), h.v.dim()), ((5, 4), (7, 4), (7, 4)));
        assert_eq!((h.scores.dim(), h.weights.dim(), h.output.dim()), ((5, 7), (5, 7), (5, 4)));
        assert_eq!(h.row_readouts(&t.blocked).len(), 5);
    }
    assert_eq!((t.concat.dim(), t.output.dim()), ((5, 12), (5, 12)));
    // The concat really is the heads side by side.
    assert_eq!(t.concat[[2, 9]], t.head_traces[2].output[[2, 1]]);
}

/// A head switched off keeps its own trace (its weights are what they were), but passes on
/// zeros: with identity weights the output is the concatenation, so head 2's columns are 0 and
/// head 1's are its output, exactly.
#[test]
fn a_head_switched_off_passes_on_zeros() {
    let x = seeded_input(5, 4, 3);
    let on = AttentionConfig { n_heads: 2, ..AttentionConfig::default() };
    let off = AttentionConfig { switched_off: vec![1], ..on.clone() };
    let (a, b) =
        (run(&x, None, &identity_weights(4), &on).unwrap(), run(&x, None, &identity_weights(4), &off).unwrap());
    assert_eq!(a.head_traces, b.head_traces, "its own maps are unchanged");
    assert!(b.concat.slice(ndarray::s![.., 2..]).iter().all(|v| *v == 0.0));
    assert_eq!(b.concat.slice(ndarray::s![.., ..2]), a.head_traces[0].output);
    assert_eq!(b.output, b.concat, "W_O is the identity");
    assert_ne!(a.output, b.output);
}

/// Switched off with *mean*, a head passes on its output averaged over the positions: one row,
/// the same at every position; its own maps are still unchanged.
#[test]
fn a_head_switched_off_by_its_mean_passes_on_one_row() {
    let x = seeded_input(5, 4, 3);
    let on = AttentionConfig { n_heads: 2, ..AttentionConfig::default() };
    let off = AttentionConfig { switched_off: vec![0], replacement: Replacement::Mean, ..on.clone() };
    let (a, b) =
        (run(&x, None, &identity_weights(4), &on).unwrap(), run(&x, None, &identity_weights(4), &off).unwrap());
    assert_eq!(a.head_traces, b.head_traces, "its own maps are unchanged");
    let out = &a.head_traces[0].output;
    for j in 0..2 {
        let mean = out.column(j).sum() / 5.0;
        assert!(b.concat.column(j).iter().all(|v| (v - mean).abs() < 1e-6), "column {j}: {:?}", b.concat.column(j));
    }
    assert_eq!(b.concat.slice(ndarray::s![.., 2..]), a.head_traces[1].output);
}
