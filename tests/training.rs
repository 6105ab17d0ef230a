//! The training core's loss and gradients against JAX: `tests/fixtures/train/jax_gradients.json`
//! (written once by `tests/reference/train_jax.py`, an independent JAX model, with jax.grad)
//! holds a small model's parameters, a batch, the loss and every gradient; the core must give
//! the same to 1e-4 relative.
#![cfg(not(target_arch = "wasm32"))]

use attention_lab::core::train::backward::accumulate;
use attention_lab::core::train::model::{cross_entropy, forward, Positions};
use attention_lab::core::train::{Config, Params};
use ndarray::Array2;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Fixture {
    config: FixtureConfig,
    batch: Vec<Sequence>,
    params: BTreeMap<String, Vec<Vec<f64>>>,
    loss: f64,
    grads: BTreeMap<String, Vec<Vec<f64>>>,
}

#[derive(Deserialize)]
struct FixtureConfig {
    vocab: usize,
    context: usize,
    d_model: usize,
    heads: usize,
    layers: usize,
    scaled: bool,
    /// Absent from the fixture made before the MLP existed.
    #[serde(default)]
    mlp: bool,
    /// Heads of keys and values (absent: as many as the heads).
    kv_heads: Option<usize>,
    /// `learned`, `sinusoidal` or `rope` (absent: learned).
    positions: Option<String>,
}

#[derive(Deserialize)]
struct Sequence {
    tokens: Vec<usize>,
    targets: Vec<(usize, usize)>,
}

fn matrix(rows: &[Vec<f64>]) -> Array2<f64> {
    let cols = rows.first().map_or(0, Vec::len);
    Array2::from_shape_fn((rows.len(), cols), |(r, c)| rows[r][c])
}

#[test]
fn loss_and_every_gradient_match_jax() {
    matches_jax("jax_gradients.json");
}

#[test]
fn loss_and_every_gradient_match_jax_with_an_mlp() {
    matches_jax("jax_gradients_mlp.json");
}

/// Four query heads reading two K/V heads, rotary positions, MLPs.
#[test]
fn loss_and_every_gradient_match_jax_with_grouped_queries_and_rotary_positions() {
    matches_jax("jax_gradients_gqa_rope.json");
}

/// One K/V head for four query heads, the sinusoidal encoding added.
#[test]
fn loss_and_every_gradient_match_jax_with_one_kv_head_and_sinusoidal_positions() {
    matches_jax("jax_gradients_mqa_sinusoidal.json");
}

fn matches_jax(fixture: &str) {
    let path = format!("{}/tests/fixtures/train/{fixture}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("the JAX fixture");
    let f: Fixture = serde_json::from_str(&text).expect("a readable fixture");
    let c = &f.config;
    let cfg = Config {
        vocab: c.vocab,
        context: c.context,
        d_model: c.d_model,
        n_heads: c.heads,
        kv_heads: c.kv_heads.unwrap_or(c.heads),
        positions: Positions::from_slug(c.positions.as_deref().unwrap_or("learned")).expect("a known scheme"),
        n_layers: c.layers,
        scaled: c.scaled,
        mlp: c.mlp,
    };
    // The fixture's parameters, into the core's own structure by name.
    let mut params = Params::init(&cfg, 0);
    let names: Vec<String> = params.tensors().into_iter().map(|(n, _)| n).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(sorted, f.params.keys().cloned().collect::<Vec<_>>(), "the same tensors, by name");
    for (tensor, name) in params.tensors_mut().into_iter().zip(&names) {
        *tensor = matrix(&f.params[name]);
    }
    let total: usize = f.batch.iter().map(|s| s.targets.len()).sum();
    let mut grads = params.zeros_like();
    let mut loss = 0.0;
    for s in &f.batch {
        let fwd = forward(&params, &cfg, &s.tokens);
        let (l, dlogits) = cross_entropy(&fwd.logits, &s.targets, total);
        loss += l;
        accumulate(&params, &cfg, &s.tokens, &fwd, &dlogits, &mut grads);
    }
    assert!((loss - f.loss).abs() <= 1e-4 * f.loss.abs(), "loss {loss} against JAX's {}", f.loss);
    for (name, g) in grads.tensors() {
        let want = matrix(&f.grads[&name]);
        assert_eq!(g.dim(), want.dim(), "{name}");
        // Relative to the tensor's largest entry: entries near 0 are compared at that scale.
        let scale = want.iter().fold(0.0f64, |m, x| m.max(x.abs())).max(1e-12);
        for ((idx, &a), &b) in g.indexed_iter().zip(want.iter()) {
            assert!((a - b).abs() <= 1e-4 * scale, "{name}{idx:?}: core {a:e}, JAX {b:e}");
        }
    }
}

/// Mean ablation in the learner's causal model: a head switched off "with its mean" passes on,
/// at each position, the mean of its outputs up to that position, so no row receives what its
/// mask hid from it. Two sequences that differ only in their last tokens give the same rows
/// before them, head off, in every layer and in the logits.
#[test]
fn a_mean_ablated_head_leaks_nothing_from_later_tokens_in_a_causal_model() {
    use attention_lab::core::ablate::{Ablation, Replacement};
    use attention_lab::core::train::model::forward_with;
    use attention_lab::core::train::session::{Session, Setup};
    let mut session = Session::new(Setup { n_layers: 2, n_heads: 2, ..Setup::default() }).expect("a setup");
    for _ in 0..30 {
        let _ = session.step();
    }
    let (params, cfg) = (&session.params, &session.config);
    let a: Vec<usize> = (0..cfg.context).map(|i| i % 5).collect();
    let mut b = a.clone();
    let changed_from = a.len() - 3;
    for t in &mut b[changed_from..] {
        *t = (*t + 2) % 5;
    }
    for off in [Ablation::one(0, 1, Replacement::Mean), Ablation::new([(0, 0), (1, 1)], Replacement::Mean)] {
        let (fa, fb) = (forward_with(params, cfg, &a, &off), forward_with(params, cfg, &b, &off));
        let before = ndarray::s![..changed_from, ..];
        for (la, lb) in fa.layers.iter().zip(&fb.layers) {
            assert_eq!(
                la.concat.slice(before),
                lb.concat.slice(before),
                "{off:?}: a later token reached an earlier row"
            );
        }
        assert_eq!(fa.logits.slice(before), fb.logits.slice(before), "{off:?}");
        assert_ne!(fa.logits, fb.logits, "{off:?}: the later tokens do change the later rows");
    }
}
