//! Training a small Transformer from scratch, so a learner can watch attention heads form:
//! a decoder of 1–2 attention layers (token + position embeddings, multi-head attention with
//! the causal mask, the residual stream, an unembedding), cross-entropy on the positions a
//! task asks about, gradients written out by hand for this model (`backward`, checked against
//! central finite differences), Adam (`adam`), and the tasks whose attention patterns are known
//! in advance (`tasks`: reverse, sort, previous token, induction).
//!
//! Everything is f64: the models are small, and the gradient checks need the precision.
//! Shapes: `n` tokens of a sequence, `d` = d_model, `h` heads of `d_k = d / h`, `v` the
//! vocabulary.

pub mod ablate;
pub mod adam;
pub mod backward;
pub mod generate;
pub mod model;
pub mod replica;
pub mod session;
pub mod tasks;
pub mod wire;
pub mod yours;

pub use adam::Adam;
pub use model::{Config, Forward, Params};
pub use tasks::{Batch, Task};

use model::{cross_entropy, forward, predictions};
use std::ops::Range;

/// One step of training on `batch`: the gradient of the mean loss, then Adam. Returns the loss
/// before the step.
pub fn step(params: &mut Params, cfg: &Config, adam: &mut Adam, batch: Batch) -> f64 {
    let (loss, grads) = gradients(params, cfg, &batch, 0..batch.sequences.len());
    adam.update(params, &grads);
    loss
}

/// The gradient of the mean loss over the whole of `batch` from its `sequences` only, and their
/// share of that loss: the parts of a batch's ranges add up to the whole batch's (a worker
/// computes one part, `session::Shard`).
pub fn gradients(params: &Params, cfg: &Config, batch: &Batch, sequences: Range<usize>) -> (f64, Params) {
    let total = batch.targets();
    let mut grads = params.zeros_like();
    let mut loss = 0.0;
    for (tokens, targets) in batch.sequences.get(sequences).unwrap_or_default() {
        let fwd = forward(params, cfg, tokens);
        let (l, dlogits) = cross_entropy(&fwd.logits, targets, total);
        loss += l;
        backward::accumulate(params, cfg, tokens, &fwd, &dlogits, &mut grads);
    }
    (loss, grads)
}

/// The share of `batch`'s targets the model predicts exactly (its most likely token).
pub fn accuracy(params: &Params, cfg: &Config, batch: &Batch) -> f64 {
    let right: usize = batch.sequences.iter().map(|s| right_answers(params, cfg, s)).sum();
    right as f64 / batch.targets().max(1) as f64
}

/// How many of one sequence's targets the model predicts exactly.
pub fn right_answers(params: &Params, cfg: &Config, (tokens, targets): &tasks::Example) -> usize {
    let guess = predictions(&forward(params, cfg, tokens).logits);
    targets.iter().filter(|&&(i, t)| guess.get(i) == Some(&t)).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Train `task` on `n` digits below `digits` from `seed`; the held-out accuracy after at
    /// most `steps` steps (stopping once it reaches 99 %), and the steps taken.
    fn train(
        task: Task,
        n: usize,
        digits: usize,
        (layers, mlp): (usize, bool),
        steps: usize,
        seed: u64,
    ) -> (f64, usize, Params, Config) {
        let (vocab, context) = (task.vocab(digits), task.context(n));
        let positions = model::Positions::Learned;
        let cfg = Config {
            vocab,
            context,
            d_model: 32,
            n_heads: 2,
            kv_heads: 2,
            positions,
            n_layers: layers,
            scaled: true,
            mlp,
        };
        let mut params = Params::init(&cfg, seed);
        let mut adam = Adam::new(&params, 0.01);
        let mut rng = SplitMix64::new(seed ^ 0xA5A5);
        let held_out = task.batch(n, digits, 256, &mut SplitMix64::new(seed ^ 0x5A5A));
        let mut acc = 0.0;
        for s in 1..=steps {
            step(&mut params, &cfg, &mut adam, task.batch(n, digits, 32, &mut rng));
            if s % 50 == 0 {
                acc = accuracy(&params, &cfg, &held_out);
                if acc >= 0.99 {
                    return (acc, s, params, cfg);
                }
            }
        }
        (acc, steps, params, cfg)
    }

    #[test]
    fn reverse_trains_to_99_percent_and_its_head_looks_at_the_mirrored_digit() {
        let (acc, steps, params, cfg) = train(Task::Reverse, 8, 10, (1, false), 3000, 1);
        assert!(acc >= 0.99, "reverse reached {acc} after {steps} steps");
        // After the separator, position 8 + k predicts x_{8−k}, found at position 7 − k: the
        // attention of some head puts most of its weight there (the anti-diagonal).
        let batch = Task::Reverse.batch(8, 10, 1, &mut SplitMix64::new(99));
        let fwd = model::forward(&params, &cfg, &batch.sequences[0].0);
        let anti: f64 =
            (0..8).map(|k| fwd.layers[0].weights.iter().map(|a| a[[8 + k, 7 - k]]).fold(0.0, f64::max)).sum::<f64>()
                / 8.0;
        assert!(anti > 0.5, "mean weight on the mirrored digit {anti}");
    }

    #[test]
    fn previous_token_trains_to_99_percent() {
        let (acc, steps, ..) = train(Task::Previous, 8, 10, (1, false), 3000, 2);
        assert!(acc >= 0.99, "previous token reached {acc} after {steps} steps");
    }

    /// The MLP is trained by the same step: with it, reverse still reaches 99 %.
    #[test]
    fn a_model_with_mlps_trains_too() {
        let (acc, steps, ..) = train(Task::Reverse, 8, 10, (1, true), 3000, 1);
        assert!(acc >= 0.99, "reverse with an MLP reached {acc} after {steps} steps");
    }

    /// Induction needs two layers: a head of layer 1 that looks at the previous token, and a
    /// head of layer 2 that, from a token of the second copy, looks at the token just after
    /// that token's first occurrence.
    #[test]
    fn induction_trains_and_shows_the_two_head_circuit() {
        let (acc, steps, params, cfg) = train(Task::Induction, 8, 16, (2, false), 4000, 4);
        assert!(acc >= 0.99, "induction reached {acc} after {steps} steps");
        // A full-length example: 8 digits, then the same 8 again.
        let tokens: Vec<usize> = [3, 14, 0, 9, 5, 11, 7, 2].repeat(2);
        let fwd = model::forward(&params, &cfg, &tokens);
        let best = |layer: usize, pattern: &dyn Fn(usize) -> Option<usize>| {
            fwd.layers[layer]
                .weights
                .iter()
                .map(|a| {
                    let picks: Vec<f64> = (1..16).filter_map(|i| pattern(i).map(|j| a[[i, j]])).collect();
                    picks.iter().sum::<f64>() / picks.len() as f64
                })
                .fold(0.0, f64::max)
        };
        // Over the first copy, whose tokens the induction head matches by their predecessor.
        let previous = best(0, &|i| (i < 8).then(|| i - 1));
        let induction = best(1, &|i| (8..15).contains(&i).then(|| i - 8 + 1));
        assert!(previous > 0.5, "no previous-token head in layer 1: {previous}");
        assert!(induction > 0.5, "no induction head in layer 2: {induction}");
    }

    #[test]
    fn batches_hold_what_each_task_asks() {
        let mut rng = SplitMix64::new(3);
        let (tokens, targets) = &Task::Reverse.batch(4, 10, 1, &mut rng).sequences[0];
        assert_eq!((tokens.len(), tokens[4]), (8, 10), "4 digits, the separator, 3 answers fed back");
        let answers: Vec<usize> = targets.iter().map(|&(_, t)| t).collect();
        assert_eq!(answers, tokens[..4].iter().rev().copied().collect::<Vec<_>>());
        let (tokens, targets) = &Task::Induction.batch(6, 10, 1, &mut rng).sequences[0];
        let m = tokens.len() / 2;
        assert!((3..=6).contains(&m) && tokens[..m] == tokens[m..], "{tokens:?}");
        assert!(targets.iter().all(|&(i, t)| tokens[i - m + 1] == t));
        let (tokens, targets) = &Task::Sort.batch(6, 10, 1, &mut rng).sequences[0];
        let answers: Vec<usize> = targets.iter().map(|&(_, t)| t).collect();
        assert!(answers.windows(2).all(|w| w[0] <= w[1]) && answers.len() == 6 && tokens.len() == 12);
    }

    #[test]
    fn a_sequence_s_targets_are_read_back_from_its_tokens() {
        let mut rng = SplitMix64::new(5);
        for task in [Task::Reverse, Task::Sort, Task::Previous, Task::Induction] {
            for (tokens, targets) in task.batch(8, 10, 20, &mut rng).sequences {
                assert_eq!(task.targets_of(&tokens, 10), targets, "{task:?} {tokens:?}");
            }
        }
    }
}
