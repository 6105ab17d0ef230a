//! A training run as a learner drives it: the setup they chose (range-checked, [`setup`]), the
//! model and its optimiser, a stream of random batches, a fixed held-out set, and the history
//! of the loss and the held-out accuracy. It advances one step at a time (the page decides how
//! many fit in a frame); a loss that is not finite stops it, naming the step. A pool of
//! workers shares a run by [`shard`]s; [`experiment`] is the scaling experiment's two runs.

mod experiment;
mod setup;
mod shard;

pub use experiment::Experiment;
pub(crate) use setup::held_out;
pub use setup::{digits_of, example, read_tokens, Setup, SetupError};
pub use shard::{Kind, Partial, Shard};

use super::model::forward;
use super::{accuracy, right_answers, Adam, Batch, Config, Params};
use crate::rng::SplitMix64;
use ndarray::Array2;
use setup::example_of;

/// The accuracy is measured every this many steps (and after the first).
const MEASURE_EVERY: usize = 10;
/// The history keeps at most this many points: beyond it, every other one is dropped (the
/// curves keep their shape, the memory and the drawing stay bounded on a long run).
const HISTORY: usize = 2000;

/// One point of the history: the training loss of a step's batch (its mean cross-entropy per
/// answer), and the latest held-out accuracy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub step: usize,
    pub loss: f64,
    pub accuracy: f64,
}

/// The held-out accuracy from which a model has learned its task (0 to 1): below it, no
/// head's fall can show that the task needs it, and a run has not settled.
pub const LEARNED: f64 = 0.9;

/// A run whose held-out accuracy has stayed at its best for this many steps has settled: the
/// page pauses it there (the reverse task reaches 100 % in about 40 steps and would otherwise
/// train on at a loss near 0 with nothing left to watch).
pub const SETTLED_FOR: usize = 300;

/// Where a run settled: the held-out accuracy it has kept, and the step it first reached it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settled {
    pub accuracy: f64,
    pub since: usize,
}

impl Progress {
    /// Whether the run has settled: its latest held-out accuracy is at least [`LEARNED`], is the
    /// best of its history, and has been held for [`SETTLED_FOR`] steps or more (every point
    /// since it was first reached at it). `None` while it is still learning, or has not learned.
    pub fn settled(&self) -> Option<Settled> {
        let last = self.history.last()?.accuracy;
        let best = self.history.iter().map(|p| p.accuracy).fold(f64::NEG_INFINITY, f64::max);
        if last < LEARNED || last < best {
            return None;
        }
        let held = self.history.iter().rev().take_while(|p| p.accuracy >= last).last()?;
        (self.steps.saturating_sub(held.step) >= SETTLED_FOR).then_some(Settled { accuracy: last, since: held.step })
    }
}

/// A run as the page shows it (what the worker that leads a run reports of it): its setup,
/// steps, held-out accuracy, history, whether its loss stopped being a number, and the scaling
/// experiment's record of the softmax gradient.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub setup: Setup,
    pub steps: usize,
    pub accuracy: f64,
    pub history: Vec<Point>,
    pub diverged: Option<Diverged>,
    pub gradients: Vec<(usize, f64)>,
}

impl Progress {
    /// `session` as it is now (no gradient record).
    pub fn of(session: &Session) -> Self {
        Self {
            setup: session.setup,
            steps: session.steps,
            accuracy: session.accuracy,
            history: session.history.clone(),
            diverged: session.diverged,
            gradients: vec![],
        }
    }
}

/// The loss stopped being a number (too high a learning rate): at which step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Diverged {
    pub step: usize,
}

/// A training run.
pub struct Session {
    pub setup: Setup,
    pub config: Config,
    pub params: Params,
    adam: Adam,
    rng: SplitMix64,
    held_out: Batch,
    /// Steps taken.
    pub steps: usize,
    pub history: Vec<Point>,
    /// Set once the loss is not finite; no step is taken after it.
    pub diverged: Option<Diverged>,
    accuracy: f64,
    /// The step whose model `accuracy` was measured on.
    measured: usize,
    /// A held-out measurement waiting for the next round.
    awaiting: Option<Waiting>,
}

/// Why a held-out measurement waits.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Waiting {
    /// The step just taken is a measuring point (the first and every tenth): its history point,
    /// of this loss, waits for the accuracy.
    Point(f64),
    /// The run comes to rest between measuring points: the model the learner now looks at (and
    /// switches heads off in) is measured, so the accuracy shown is its own.
    Rest,
}

impl Session {
    /// A fresh model for `setup` (the same seed gives the same model and batches).
    pub fn new(setup: Setup) -> Result<Self, SetupError> {
        setup.check()?;
        let config = setup.config();
        let params = Params::init(&config, setup.seed);
        let adam = Adam::new(&params, setup.learning_rate);
        let mut session = Self {
            setup,
            config,
            params,
            adam,
            rng: SplitMix64::new(setup.seed ^ 0xA5A5),
            held_out: held_out(&setup),
            steps: 0,
            history: Vec::new(),
            diverged: None,
            accuracy: 0.0,
            measured: 0,
            awaiting: None,
        };
        session.accuracy = accuracy(&session.params, &session.config, &session.held_out);
        Ok(session)
    }

    /// One step of Adam on a fresh batch and, at a measuring point, the held-out accuracy; the
    /// loss before it. After the loss stops being finite, nothing changes and the step it
    /// happened at is returned.
    pub fn step(&mut self) -> Result<f64, Diverged> {
        let partial = self.partial(Shard::WHOLE, Kind::Step);
        let done = self.apply(&[partial]).unwrap_or(Err(Diverged { step: self.steps }));
        self.settle_alone();
        done
    }

    /// A run on its own: the round of [`Kind::Settle`] a waiting measurement needs, if any.
    fn settle_alone(&mut self) {
        if self.awaiting() {
            let settle = self.partial(Shard::WHOLE, Kind::Settle);
            self.apply(&[settle]);
        }
    }

    /// `shard`'s share of a round of `kind`. Every replica of a run draws the same batch (the
    /// same seed), so all must compute every round, in the same order.
    pub fn partial(&mut self, shard: Shard, kind: Kind) -> Partial {
        let right = match self.awaiting {
            Some(_) => {
                let range = shard.range(self.held_out.sequences.len());
                let held_out = self.held_out.sequences.get(range).unwrap_or_default();
                held_out.iter().map(|s| right_answers(&self.params, &self.config, s)).sum()
            }
            None => 0,
        };
        let step = (kind == Kind::Step && self.diverged.is_none()).then(|| {
            let (n, digits) = digits_of(self.setup.task);
            let batch = self.setup.task.batch(n, digits, self.setup.batch, &mut self.rng);
            let range = shard.range(batch.sequences.len());
            super::gradients(&self.params, &self.config, &batch, range)
        });
        Partial { right, step }
    }

    /// Finish a round from every replica's share, in shard order: the waiting measurement's
    /// accuracy (and its history point), then, for a step, the summed gradient's Adam step;
    /// the step's loss (`None` for a round that only measured).
    pub fn apply(&mut self, partials: &[Partial]) -> Option<Result<f64, Diverged>> {
        if let Some(waiting) = self.awaiting.take() {
            let right: usize = partials.iter().map(|p| p.right).sum();
            self.accuracy = right as f64 / self.held_out.targets().max(1) as f64;
            self.measured = self.steps;
            if let Waiting::Point(loss) = waiting {
                self.remember(loss);
            }
        }
        if let Some(d) = self.diverged {
            return partials.first().and_then(|p| p.step.as_ref()).map(|_| Err(d));
        }
        let mut steps = partials.iter().filter_map(|p| p.step.as_ref());
        let (mut loss, mut grads) = steps.next().cloned()?;
        for (l, g) in steps {
            loss += l;
            grads.add(g);
        }
        self.adam.update(&mut self.params, &grads);
        Some(self.record(loss))
    }

    /// Whether the last step's history point waits for a held-out measurement.
    pub fn awaiting(&self) -> bool {
        self.awaiting.is_some()
    }

    /// Leave the model as it is now to be measured in the next round (a round of
    /// [`Kind::Settle`]), unless its accuracy is already its own or a measurement waits.
    pub fn measure_at_rest(&mut self) {
        if self.awaiting.is_none() && self.measured != self.steps {
            self.awaiting = Some(Waiting::Rest);
        }
    }

    /// Measure the model as it is now, if its accuracy is not its own yet (a run on its own,
    /// as [`Session::measure_at_rest`] and the round of [`Kind::Settle`] after it do it in a pool).
    pub fn measure_now(&mut self) {
        self.measure_at_rest();
        self.settle_alone();
    }

    /// The step whose model the accuracy shown was measured on.
    pub fn measured(&self) -> usize {
        self.measured
    }

    /// Whether the next step would leave a measurement waiting (the first and every tenth).
    fn measures_after_next_step(&self) -> bool {
        let next = self.steps + 1;
        next == 1 || next.is_multiple_of(MEASURE_EVERY)
    }

    /// Count a step whose batch had `loss`: stop at a loss that is not a number, leave a
    /// held-out measurement waiting now and then, else add the step to the history.
    fn record(&mut self, loss: f64) -> Result<f64, Diverged> {
        let measures = self.measures_after_next_step();
        self.steps += 1;
        if !loss.is_finite() {
            let d = Diverged { step: self.steps };
            self.diverged = Some(d);
            return Err(d);
        }
        if measures {
            self.awaiting = Some(Waiting::Point(loss));
        } else {
            self.remember(loss);
        }
        Ok(loss)
    }

    /// The history point of the step just taken, the history kept bounded.
    fn remember(&mut self, loss: f64) {
        if self.history.len() >= HISTORY {
            let mut k = 0;
            self.history.retain(|_| {
                k += 1;
                k % 2 == 0
            });
        }
        self.history.push(Point { step: self.steps, loss, accuracy: self.accuracy });
    }

    /// The latest held-out accuracy (0 to 1).
    pub fn accuracy(&self) -> f64 {
        self.accuracy
    }

    /// The held-out sequences the accuracy is measured on.
    pub fn held_out(&self) -> &Batch {
        &self.held_out
    }

    /// The first held-out sequence: the example shown until the learner types one.
    pub fn example(&self) -> Vec<usize> {
        example_of(&self.held_out)
    }

    /// The attention weights of every head of every layer on `tokens`, `[layer][head]`, each
    /// (n, n) with the causal mask's zeros above the diagonal.
    pub fn weights(&self, tokens: &[usize]) -> Vec<Vec<Array2<f64>>> {
        forward(&self.params, &self.config, tokens).layers.into_iter().map(|l| l.weights).collect()
    }
}

impl Session {
    /// How much gradient the softmax lets through to the scores, on the example: the
    /// Frobenius norm of its Jacobian diag(p) − ppᵀ, averaged over every query row of every
    /// head (0 for a one-hot row; larger the more evenly a row spreads its weight).
    pub fn softmax_gradient(&self) -> f64 {
        let layers = self.weights(&self.example());
        let mut sum = 0.0;
        let mut rows = 0;
        for a in layers.iter().flatten() {
            for row in a.rows() {
                // ‖diag(p) − ppᵀ‖²_F = Σ pᵢ² − 2 Σ pᵢ³ + (Σ pᵢ²)².
                let p2: f64 = row.iter().map(|p| p * p).sum();
                let p3: f64 = row.iter().map(|p| p * p * p).sum();
                sum += (p2 - 2.0 * p3 + p2 * p2).max(0.0).sqrt();
                rows += 1;
            }
        }
        sum / rows.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::Task;

    /// A run's progress whose held-out accuracy was `points` (step, accuracy), `steps` taken.
    fn progress_of(points: &[(usize, f64)], steps: usize) -> Progress {
        let setup = Setup::default();
        let history = points.iter().map(|&(step, accuracy)| Point { step, loss: 0.1, accuracy }).collect();
        Progress {
            setup,
            steps,
            accuracy: points.last().map_or(0.0, |p| p.1),
            history,
            diverged: None,
            gradients: vec![],
        }
    }

    #[test]
    fn a_run_settles_once_its_best_accuracy_has_held_for_a_while() {
        let learning = [(1, 0.1), (10, 0.5), (40, 1.0), (50, 1.0)];
        assert_eq!(progress_of(&learning, 50).settled(), None, "10 steps at its best");
        let mut held: Vec<_> = learning.to_vec();
        held.extend((6..=34).map(|k| (k * 10, 1.0)));
        assert_eq!(progress_of(&held, 339).settled(), None, "299 steps at its best");
        assert_eq!(progress_of(&held, 340).settled(), Some(Settled { accuracy: 1.0, since: 40 }));
    }

    #[test]
    fn a_run_below_its_best_or_below_learned_has_not_settled() {
        // Fell from its best: still moving.
        let fell: Vec<_> = [(10, 0.95)].into_iter().chain((2..=50).map(|k| (k * 10, 0.93))).collect();
        assert_eq!(progress_of(&fell, 500).settled(), None);
        // Stuck at chance for a long time: not learned, never paused.
        let stuck: Vec<_> = (1..=100).map(|k| (k * 10, 0.25)).collect();
        assert_eq!(progress_of(&stuck, 1000).settled(), None);
        // Held at 0.92 (its best, and learned): settled since it first reached it.
        let plateau: Vec<_> = [(10, 0.5), (20, 0.92)].into_iter().chain((3..=40).map(|k| (k * 10, 0.92))).collect();
        assert_eq!(progress_of(&plateau, 400).settled(), Some(Settled { accuracy: 0.92, since: 20 }));
        assert_eq!(progress_of(&[], 400).settled(), None, "no history yet");
    }

    #[test]
    fn typed_tokens_are_the_tasks_digits_and_separator_only() {
        let reverse = Setup::default();
        assert_eq!(reverse.read_tokens(" 3 1 |  9 "), Some(vec![3, 1, 10, 9]));
        assert_eq!(reverse.read_tokens("3 x"), None);
        assert_eq!(reverse.read_tokens("10"), None, "a digit is below ten");
        assert_eq!(reverse.read_tokens(""), None);
        assert_eq!(reverse.read_tokens(&"1 ".repeat(17)), None, "at most 16 positions");
        let induction = Setup { task: Task::Induction, ..Setup::default() };
        assert_eq!(induction.read_tokens("15 0"), Some(vec![15, 0]));
        assert_eq!(induction.read_tokens("1 |"), None, "induction has no separator");
        let kv = Setup { n_heads: 4, kv_heads: Some(3), ..Setup::default() };
        assert_eq!(kv.check(), Err(SetupError::KvHeads), "three K/V heads cannot serve four query heads evenly");
        assert_eq!(Setup { kv_heads: Some(2), ..kv }.check(), Ok(()));
    }

    #[test]
    fn every_setting_out_of_range_is_named() {
        let ok = Setup::default();
        assert_eq!(ok.check(), Ok(()));
        assert_eq!(Setup { d_model: 8, ..ok }.check(), Err(SetupError::DModel));
        assert_eq!(Setup { d_model: 256, ..ok }.check(), Err(SetupError::DModel));
        assert_eq!(Setup { n_heads: 3, ..ok }.check(), Err(SetupError::Heads), "3 does not divide 32");
        assert_eq!(Setup { n_heads: 16, d_model: 128, ..ok }.check(), Err(SetupError::Heads));
        assert_eq!(Setup { n_layers: 3, ..ok }.check(), Err(SetupError::Layers));
        assert_eq!(Setup { learning_rate: 0.0, ..ok }.check(), Err(SetupError::LearningRate));
        assert_eq!(Setup { learning_rate: f64::NAN, ..ok }.check(), Err(SetupError::LearningRate));
        assert_eq!(Setup { batch: 0, ..ok }.check(), Err(SetupError::Batch));
        assert!(Session::new(Setup { n_heads: 5, ..ok }).is_err());
    }

    #[test]
    fn the_same_seed_trains_the_same_way_and_reverse_learns() {
        let mut a = Session::new(Setup::default()).expect("default setup");
        let mut b = Session::new(Setup::default()).expect("default setup");
        for _ in 0..300 {
            assert_eq!(a.step(), b.step());
        }
        assert!(a.accuracy() > 0.9, "reverse after 300 steps: {}", a.accuracy());
        let first = a.history[0].loss;
        let last = a.history.last().map_or(f64::NAN, |p| p.loss);
        assert!(last < first / 4.0, "loss {first} → {last}");
    }

    /// A run split over replicas (each computing its share of every batch and of the
    /// held-out set, the shares summed in order) trains as one: the same losses, history and
    /// accuracy, and the same weights to float tolerance.
    #[test]
    fn a_run_split_over_replicas_is_the_same_run() {
        let setup = Setup { batch: 7, mlp: true, ..Setup::default() };
        for of in [2, 3, 8] {
            let mut whole = Session::new(setup).unwrap();
            let mut replicas: Vec<Session> = (0..of).map(|_| Session::new(setup).unwrap()).collect();
            for step in 1..=12 {
                let want = whole.step().unwrap();
                let mut got = None;
                for kind in [Kind::Step, Kind::Settle] {
                    if kind == Kind::Settle && !replicas[0].awaiting() {
                        break;
                    }
                    let partials: Vec<Partial> = replicas
                        .iter_mut()
                        .enumerate()
                        .map(|(index, r)| r.partial(Shard { index, of }, kind))
                        .collect();
                    for r in &mut replicas {
                        let done = r.apply(&partials);
                        if kind == Kind::Step {
                            got = done;
                        }
                    }
                }
                let got = got.unwrap().unwrap();
                assert!((got - want).abs() < 1e-12, "{of} replicas, step {step}: loss {got} against {want}");
            }
            for r in &replicas {
                assert_eq!((r.steps, r.accuracy()), (whole.steps, whole.accuracy()));
                assert_eq!(r.history.len(), whole.history.len());
                for (a, b) in r.history.iter().zip(&whole.history) {
                    assert!(a.step == b.step && (a.loss - b.loss).abs() < 1e-12 && a.accuracy == b.accuracy);
                }
                let (a, b) = (r.params.flat(), whole.params.flat());
                let worst = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
                assert!(worst < 1e-9, "{of} replicas: weights differ by {worst}");
            }
            assert!(replicas.iter().all(|r| r.params == replicas[0].params), "the replicas stay identical");
        }
    }

    #[test]
    fn shards_cover_a_batch_once_in_order() {
        for len in [0, 1, 7, 32, 256] {
            for of in 1..=9 {
                let ranges: Vec<_> = (0..of).map(|index| Shard { index, of }.range(len)).collect();
                assert_eq!(ranges[0].start, 0);
                assert_eq!(ranges[of - 1].end, len);
                assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
            }
        }
    }

    #[test]
    fn a_loss_that_is_not_a_number_stops_training_at_its_step() {
        let mut s = Session::new(Setup::default()).expect("setup");
        for _ in 0..5 {
            assert!(s.step().is_ok());
        }
        // A weight that is not a number (what a far too large step leaves behind).
        s.params.embed[[0, 0]] = f64::NAN;
        let stopped = (0..20).find_map(|_| s.step().err()).expect("the loss became NaN");
        assert_eq!(s.steps, stopped.step);
        assert_eq!(s.step(), Err(stopped), "no step after it");
        assert_eq!(s.steps, stopped.step);
        assert!(s.history.iter().all(|p| p.loss.is_finite()), "the history keeps only numbers");
    }

    #[test]
    fn a_long_run_keeps_a_bounded_history_that_ends_at_the_last_step() {
        let mut s = Session::new(Setup { d_model: 16, n_heads: 1, batch: 1, ..Setup::default() }).expect("setup");
        for _ in 0..(HISTORY + 500) {
            assert!(s.step().is_ok());
        }
        assert!(s.history.len() <= HISTORY, "{}", s.history.len());
        assert_eq!(s.history.last().map(|p| p.step), Some(HISTORY + 500));
        assert!(s.history.windows(2).all(|w| w[0].step < w[1].step));
    }

    #[test]
    fn without_scaling_a_wide_head_starts_saturated_and_the_experiment_runs_both_to_the_end() {
        let mut e = Experiment::new(Setup { batch: 8, ..Setup::default() }).expect("setup");
        assert_eq!((e.runs[0].setup.d_k(), e.runs[0].setup.scaled, e.runs[1].setup.scaled), (128, true, false));
        // At d_k = 128 the unscaled scores spread √128 times wider: rows closer to one-hot,
        // less gradient through the softmax, before any training.
        let (scaled, unscaled) = (e.gradients[0][0].1, e.gradients[1][0].1);
        assert!(unscaled < scaled, "softmax gradient {unscaled} without ÷√d_k, {scaled} with");
        let mut steps = 0;
        while e.step() {
            steps += 1;
        }
        assert_eq!(steps, Experiment::STEPS);
        assert!(e.runs.iter().all(|r| r.steps == Experiment::STEPS));
    }

    #[test]
    fn the_example_s_weights_are_causal_rows_summing_to_one() {
        let s = Session::new(Setup { n_layers: 2, ..Setup::default() }).expect("setup");
        let w = s.weights(&s.example());
        assert_eq!((w.len(), w[0].len()), (2, 2));
        for a in w.iter().flatten() {
            for (i, row) in a.rows().into_iter().enumerate() {
                assert!((row.sum() - 1.0).abs() < 1e-9);
                assert!(row.iter().skip(i + 1).all(|&p| p == 0.0), "row {i} sees the future");
            }
        }
    }
}
