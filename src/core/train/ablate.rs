//! The learner's model with heads switched off: its accuracy and loss on the held-out set, and
//! the sweep that switches every head off in turn, the experiment that says which heads the
//! task needs (a head can matter through paths its map does not show, and a striking map can
//! belong to a head the task does without).

use super::model::{cross_entropy, forward, forward_with, predictions};
use super::session::{held_out, Setup};
use super::{Batch, Config, Params};
use crate::ablate::{Ablation, Replacement};

/// How well the model does on a batch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scores {
    /// The share of targets predicted exactly (its most likely token), 0 to 1.
    pub accuracy: f64,
    /// The mean cross-entropy over the targets, in nats.
    pub loss: f64,
}

/// The model's scores on `batch` with the heads `off` switched off.
pub fn scores(params: &Params, cfg: &Config, batch: &Batch, off: &Ablation) -> Scores {
    let total = batch.targets();
    let (mut right, mut loss) = (0, 0.0);
    for (tokens, targets) in &batch.sequences {
        let logits = forward_with(params, cfg, tokens, off).logits;
        let guess = predictions(&logits);
        right += targets.iter().filter(|&&(i, t)| guess.get(i) == Some(&t)).count();
        loss += cross_entropy(&logits, targets, total).0;
    }
    Scores { accuracy: right as f64 / total.max(1) as f64, loss }
}

/// Every head switched off in turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    /// With every head on.
    pub intact: Scores,
    /// `[layer][head]`: with that head alone switched off.
    pub heads: Vec<Vec<Scores>>,
}

impl Sweep {
    /// How much the accuracy falls with `(layer, head)` off (negative if it rises).
    pub fn accuracy_drop(&self, layer: usize, head: usize) -> Option<f64> {
        Some(self.intact.accuracy - self.heads.get(layer)?.get(head)?.accuracy)
    }
}

/// Switch every head of the model off in turn, each passing on `replacement`, and score it on
/// `batch`.
pub fn sweep(params: &Params, cfg: &Config, batch: &Batch, replacement: Replacement) -> Sweep {
    let intact = scores(params, cfg, batch, &Ablation::default());
    let heads = (0..cfg.n_layers)
        .map(|l| (0..cfg.n_heads).map(|h| scores(params, cfg, batch, &Ablation::one(l, h, replacement))).collect())
        .collect();
    Sweep { intact, heads }
}

/// Where each head's weight goes, averaged over the targets of a batch, `[layer][head]`: what
/// a head's name promises, to set beside what switching it off costs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tracking {
    /// The weight on the token just before the query, over every query after the first (a
    /// previous-token head's).
    pub previous: Vec<Vec<f64>>,
    /// The weight on the keys that hold the token the query must output, over the queries
    /// that answer (the mirrored digit in *reverse*, the token after the earlier copy in
    /// *induction*).
    pub answer: Vec<Vec<f64>>,
}

/// [`Tracking`] of the model on `batch`, with every head on.
pub fn tracking(params: &Params, cfg: &Config, batch: &Batch) -> Tracking {
    let grid = || vec![vec![0.0; cfg.n_heads]; cfg.n_layers];
    let (mut previous, mut answer, mut queries, mut targets_seen) = (grid(), grid(), 0usize, 0usize);
    for (tokens, targets) in &batch.sequences {
        let run = forward(params, cfg, tokens);
        queries += tokens.len().saturating_sub(1);
        targets_seen += targets.len();
        for (l, layer) in run.layers.iter().enumerate() {
            for (h, a) in layer.weights.iter().enumerate() {
                previous[l][h] += (1..tokens.len()).map(|i| a[[i, i - 1]]).sum::<f64>();
                for &(i, target) in targets {
                    answer[l][h] += (0..=i).filter(|&j| tokens[j] == target).map(|j| a[[i, j]]).sum::<f64>();
                }
            }
        }
    }
    let mean = |g: Vec<Vec<f64>>, n: usize| {
        g.into_iter().map(|r| r.into_iter().map(|v| v / n.max(1) as f64).collect()).collect()
    };
    Tracking { previous: mean(previous, queries), answer: mean(answer, targets_seen) }
}

/// A learner's model to experiment on: its numbers, and its run's held-out set.
#[derive(Debug, Clone)]
pub struct Subject {
    pub params: Params,
    pub config: Config,
    pub held_out: Batch,
}

impl Subject {
    /// The model of a run of `setup` whose numbers are `flat` ([`Params::flat`]); `None` when
    /// the setup is out of range or the numbers are not of its shapes.
    pub fn new(setup: &Setup, flat: &[f64]) -> Option<Self> {
        setup.check().ok()?;
        let config = setup.config();
        let mut params = Params::init(&config, setup.seed);
        params.set_flat(flat).then(|| Self { params, config, held_out: held_out(setup) })
    }

    /// Its held-out scores with the heads `off` switched off.
    pub fn scores(&self, off: &Ablation) -> Scores {
        scores(&self.params, &self.config, &self.held_out, off)
    }

    /// Where its heads' weights go on the held-out set.
    pub fn tracking(&self) -> Tracking {
        tracking(&self.params, &self.config, &self.held_out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::session::{Session, Setup};
    use crate::train::Task;

    /// Train `setup` until its held-out accuracy reaches 99 % and `at_least` steps are taken
    /// (at most 4000).
    fn trained(setup: Setup, at_least: usize) -> Session {
        let mut session = Session::new(setup).unwrap_or_else(|e| panic!("{e:?}"));
        while (session.accuracy() < 0.99 || session.steps < at_least) && session.steps < 4000 {
            let _ = session.step();
        }
        session
    }

    /// Where each head of `layer` puts its weight on `tokens`, scored by `pattern` (the key a
    /// query should look at, if any): the head whose mean weight there is largest.
    fn head_for(session: &Session, tokens: &[usize], layer: usize, pattern: impl Fn(usize) -> Option<usize>) -> usize {
        let weights = &session.weights(tokens)[layer];
        let score = |a: &ndarray::Array2<f64>| {
            let picks: Vec<f64> = (0..tokens.len()).filter_map(|i| pattern(i).map(|j| a[[i, j]])).collect();
            picks.iter().sum::<f64>() / picks.len().max(1) as f64
        };
        (0..weights.len()).max_by(|&a, &b| score(&weights[a]).total_cmp(&score(&weights[b]))).unwrap_or(0)
    }

    /// Induction on the training view's model with two layers (two heads each, seed 4), trained
    /// to 99 % and on to step 1000: the previous-token head of layer 1 is the one the task
    /// cannot do without; the two heads of layer 2 both do induction, so either alone can go,
    /// and the task falls to chance only when both do.
    #[test]
    fn induction_needs_its_previous_token_head_and_an_induction_head() {
        let setup = Setup { task: Task::Induction, n_layers: 2, seed: 4, ..Setup::default() };
        let session = trained(setup, 1000);
        assert!(session.accuracy() >= 0.99, "induction reached {} in {} steps", session.accuracy(), session.steps);
        let tokens: Vec<usize> = [3, 14, 0, 9, 5, 11, 7, 2].repeat(2);
        let previous = head_for(&session, &tokens, 0, |i| (1..8).contains(&i).then(|| i - 1));
        let (params, cfg, held_out) = (&session.params, &session.config, session.held_out());
        let chance = 1.0 / 16.0;
        // What the maps promise: the head found on one example looks at the previous token
        // across the held-out set, and layer 2's heads look where the answer is.
        let track = tracking(params, cfg, held_out);
        assert!(
            track.previous[0][previous] > 0.5 && track.previous[0][previous] > track.previous[0][1 - previous],
            "{track:?}"
        );
        assert!(track.answer[1].iter().all(|&w| w > 0.5), "{track:?}");
        let subject = Subject::new(&session.setup, &params.flat()).unwrap_or_else(|| panic!("the model's numbers"));
        assert_eq!(subject.scores(&Ablation::default()).accuracy, session.accuracy());
        for replacement in [Replacement::Zero, Replacement::Mean] {
            let sweep = sweep(params, cfg, held_out, replacement);
            let off = sweep.heads[0][previous];
            // Its mean over the positions up to each one (the model is causal) still carries a
            // running average of the tokens before, which layer 2 reads a little of: 0.70 here,
            // where zeros leave it under 0.6.
            let most = if replacement == Replacement::Mean { 0.8 } else { 0.6 };
            assert!(off.accuracy < most && off.loss > 20.0 * sweep.intact.loss, "{replacement:?}: {sweep:?}");
            for (layer, head) in [(0, 1 - previous), (1, 0), (1, 1)] {
                let drop = sweep.accuracy_drop(layer, head).unwrap_or(1.0);
                assert!(drop < 0.1, "{replacement:?}: {}.{} off costs {drop}", layer + 1, head + 1);
            }
            let both = scores(params, cfg, held_out, &Ablation::new([(1, 0), (1, 1)], replacement));
            assert!(both.accuracy < chance + 0.1, "{replacement:?}: layer 2 off leaves {both:?}");
        }
    }

    /// Reverse with one head: it is the anti-diagonal head, and without it the answers are at
    /// chance (one digit in ten).
    #[test]
    fn reverse_needs_its_anti_diagonal_head() {
        let session = trained(Setup { n_heads: 1, ..Setup::default() }, 0);
        assert!(session.accuracy() >= 0.99, "reverse reached {} in {} steps", session.accuracy(), session.steps);
        let tokens = session.example();
        let weights = &session.weights(&tokens)[0][0];
        let mirrored: f64 = (8..16).map(|i| weights[[i, 15 - i]]).sum::<f64>() / 8.0;
        assert!(mirrored > 0.5, "mean weight on the mirrored digit {mirrored}");
        // "Open in the lesson" lands where this shows: the separator's row, on the mirrored
        // digit just before it (the anti-diagonal's first cell), in its one head.
        let model = crate::train::yours::YourModel::of(&session, &tokens).unwrap_or_else(|e| panic!("{e:?}"));
        let shown = model.where_it_shows().expect("the example answers");
        assert_eq!((shown.layer, shown.head, shown.query, shown.key), (0, 0, 8, 7));
        let sweep = sweep(&session.params, &session.config, session.held_out(), Replacement::Zero);
        assert!(sweep.heads[0][0].accuracy < 0.15, "{sweep:?}");
    }

    /// The learner's two-layer model with a head of layer 2 off: resumed from the intact run
    /// (layer 1 kept) it is what a whole forward pass computes; layer 1's maps and the head's
    /// own are unchanged; the final rows move.
    #[test]
    fn a_run_with_heads_off_resumes_from_the_intact_one() {
        use crate::intervene::change;
        use crate::model::{Input, Model, RunOptions};
        use crate::train::yours::YourModel;
        let session = trained(Setup { n_layers: 2, ..Setup::default() }, 0);
        let model = YourModel::of(&session, &session.example()).unwrap_or_else(|e| panic!("{e:?}"));
        let input = Input { text: model.example().unwrap_or_default(), kv_text: None };
        let intact_options = model.shape().trained_options().unwrap_or_default();
        let intact = model.forward(&input, &intact_options).unwrap_or_else(|e| panic!("{e:?}"));
        for replacement in [Replacement::Zero, Replacement::Mean] {
            let options = RunOptions { ablation: Ablation::one(1, 0, replacement), ..intact_options.clone() };
            let resumed = model.ablated(&input, &intact, &options).unwrap_or_else(|e| panic!("{e:?}"));
            assert_eq!(Ok(&resumed), model.forward(&input, &options).as_ref());
            let c = change(&intact, &resumed);
            assert!(c.weights.iter().flatten().all(|&d| d == 0.0), "a head off after the last softmax: {c:?}");
            assert!(c.mean_final_change() > 0.0, "{c:?}");
            // Layer 1 is taken from the intact run, not computed again: a mark put in it stays.
            let mut marked = intact.clone();
            marked.layers[0].trace.head_traces[0].weights[[0, 0]] = 7.0;
            let kept = model.ablated(&input, &marked, &options).unwrap_or_else(|e| panic!("{e:?}"));
            assert_eq!(kept.layers[0].trace.head_traces[0].weights[[0, 0]], 7.0, "layer 1 was computed again");
            let first = model.ablated(
                &input,
                &intact,
                &RunOptions { ablation: Ablation::one(0, 1, replacement), ..intact_options.clone() },
            );
            let c = change(&intact, &first.unwrap_or_else(|e| panic!("{e:?}")));
            assert!(c.weights[0].iter().all(|&d| d == 0.0) && c.weights[1].iter().any(|&d| d > 0.0), "{c:?}");
        }
    }
}
