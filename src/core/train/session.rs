//! A training run as a learner drives it: the setup they chose (range-checked), the model and
//! its optimiser, a stream of random batches, a fixed held-out set, and the history of the
//! loss and the held-out accuracy. It advances one step at a time (the page decides how many
//! fit in a frame); a loss that is not finite stops it, naming the step.

use super::model::forward;
use super::{accuracy, right_answers, Adam, Batch, Config, Params, Pending, Task};
use crate::rng::SplitMix64;
use ndarray::Array2;

/// Digits in a sequence and the size of the digit alphabet: *reverse* on n = 8 digits of a
/// vocabulary of 10, as the lesson promises. Induction uses 16 distinct-enough digits.
pub fn digits_of(task: Task) -> (usize, usize) {
    match task {
        Task::Induction => (8, 16),
        _ => (8, 10),
    }
}

/// Held-out sequences the accuracy is measured on (never trained on).
const HELD_OUT: usize = 128;
/// The accuracy is measured every this many steps (and after the first).
const MEASURE_EVERY: usize = 10;
/// The history keeps at most this many points: beyond it, every other one is dropped (the
/// curves keep their shape, the memory and the drawing stay bounded on a long run).
const HISTORY: usize = 2000;

/// What the learner chose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setup {
    pub task: Task,
    pub d_model: usize,
    pub n_heads: usize,
    pub n_layers: usize,
    pub learning_rate: f64,
    pub batch: usize,
    pub seed: u64,
    /// Divide the scores by √d_k.
    pub scaled: bool,
    /// A small MLP after each attention layer.
    pub mlp: bool,
}

impl Default for Setup {
    fn default() -> Self {
        Self {
            task: Task::Reverse,
            d_model: 32,
            n_heads: 2,
            n_layers: 1,
            learning_rate: 0.01,
            batch: 32,
            seed: 1,
            scaled: true,
            mlp: false,
        }
    }
}

/// A setting out of its range: which one, and the range (the page words the message).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SetupError {
    /// d_model must be 16 to 128.
    DModel,
    /// 1 to 8 heads, dividing d_model.
    Heads,
    /// 1 or 2 layers.
    Layers,
    /// Above 0, at most 1.
    LearningRate,
    /// 1 to 256 sequences.
    Batch,
}

impl Setup {
    /// The ranges of the settings, (lowest, highest): the check below, the fields' bounds
    /// and the messages all read them here.
    pub const D_MODEL: (usize, usize) = (16, 128);
    pub const HEADS: (usize, usize) = (1, 8);
    pub const LAYERS: (usize, usize) = (1, 2);
    pub const BATCH: (usize, usize) = (1, 256);

    /// The first setting out of range, if any.
    pub fn check(&self) -> Result<(), SetupError> {
        let within = |v: usize, (lo, hi): (usize, usize)| (lo..=hi).contains(&v);
        if !within(self.d_model, Self::D_MODEL) {
            return Err(SetupError::DModel);
        }
        if !within(self.n_heads, Self::HEADS) || !self.d_model.is_multiple_of(self.n_heads) {
            return Err(SetupError::Heads);
        }
        if !within(self.n_layers, Self::LAYERS) {
            return Err(SetupError::Layers);
        }
        if !(self.learning_rate > 0.0 && self.learning_rate <= 1.0) {
            return Err(SetupError::LearningRate);
        }
        if !within(self.batch, Self::BATCH) {
            return Err(SetupError::Batch);
        }
        Ok(())
    }

    /// Each head's width.
    pub fn d_k(&self) -> usize {
        self.d_model / self.n_heads.max(1)
    }

    /// The model's shape for this task.
    pub fn config(&self) -> Config {
        let (n, digits) = digits_of(self.task);
        Config {
            vocab: self.task.vocab(digits),
            context: self.task.context(n),
            d_model: self.d_model,
            n_heads: self.n_heads,
            n_layers: self.n_layers,
            scaled: self.scaled,
            mlp: self.mlp,
        }
    }
}

/// One point of the history: the training loss of a step's batch (its mean cross-entropy per
/// answer), and the latest held-out accuracy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub step: usize,
    pub loss: f64,
    pub accuracy: f64,
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
    /// The step under way, when the page spreads one over several frames.
    pending: Option<Pending>,
    held_out: Batch,
    /// Steps taken.
    pub steps: usize,
    pub history: Vec<Point>,
    /// Set once the loss is not finite; no step is taken after it.
    pub diverged: Option<Diverged>,
    accuracy: f64,
    /// A held-out measurement under way (after a step at a measuring point, when the page
    /// spreads the work over frames).
    measuring: Option<Measuring>,
}

/// The held-out accuracy of the step just taken, a few sequences at a time: that step's loss
/// (its history point waits for the accuracy), the right answers and sequences so far.
#[derive(Debug, Clone, Copy)]
struct Measuring {
    loss: f64,
    right: usize,
    done: usize,
}

impl Session {
    /// A fresh model for `setup` (the same seed gives the same model and batches).
    pub fn new(setup: Setup) -> Result<Self, SetupError> {
        setup.check()?;
        let config = setup.config();
        let (n, digits) = digits_of(setup.task);
        let params = Params::init(&config, setup.seed);
        let adam = Adam::new(&params, setup.learning_rate);
        let held_out = setup.task.batch(n, digits, HELD_OUT, &mut SplitMix64::new(setup.seed ^ 0x5A5A));
        let mut session = Self {
            setup,
            config,
            params,
            adam,
            rng: SplitMix64::new(setup.seed ^ 0xA5A5),
            pending: None,
            held_out,
            steps: 0,
            history: Vec::new(),
            diverged: None,
            accuracy: 0.0,
            measuring: None,
        };
        session.accuracy = accuracy(&session.params, &session.config, &session.held_out);
        Ok(session)
    }

    /// One step of Adam on a fresh batch (or the rest of the step under way); the loss before
    /// it. After the loss stops being finite, nothing changes and the step it happened at is
    /// returned.
    pub fn step(&mut self) -> Result<f64, Diverged> {
        loop {
            if let Some(done) = self.advance(usize::MAX) {
                return done;
            }
        }
    }

    /// Up to `sequences` more sequences of the step under way (a fresh batch's, if none is):
    /// the step's result once its last sequence is in, `None` before. The page calls this a
    /// few sequences at a time, so even the largest model's step never holds a frame long;
    /// the same sequences give exactly [`Session::step`]'s model.
    pub fn advance(&mut self, sequences: usize) -> Option<Result<f64, Diverged>> {
        if let Some(d) = self.diverged {
            return Some(Err(d));
        }
        // The last step's held-out measurement comes first: the next step changes the model.
        let sequences = self.measure(sequences);
        if self.measuring.is_some() || sequences == 0 {
            return None;
        }
        let mut pending = match self.pending.take() {
            Some(p) => p,
            None => {
                let (n, digits) = digits_of(self.setup.task);
                Pending::new(&self.params, self.setup.task.batch(n, digits, self.setup.batch, &mut self.rng))
            }
        };
        if !pending.add(&self.params, &self.config, sequences) {
            self.pending = Some(pending);
            return None;
        }
        let loss = pending.finish(&mut self.params, &mut self.adam);
        let done = self.record(loss);
        // A whole step at once (`Session::step`) measures at once too.
        if sequences == usize::MAX {
            self.measure(usize::MAX);
        }
        Some(done)
    }

    /// Whether a held-out measurement is still under way (the step's history point waits).
    pub fn measuring(&self) -> bool {
        self.measuring.is_some()
    }

    /// Up to `sequences` held-out sequences of the measurement under way; the budget left.
    /// Once the last is in, the accuracy and the step's history point are set.
    fn measure(&mut self, sequences: usize) -> usize {
        let Some(mut m) = self.measuring.take() else { return sequences };
        let left = self.held_out.sequences.len() - m.done;
        let take = sequences.min(left);
        for s in &self.held_out.sequences[m.done..m.done + take] {
            m.right += right_answers(&self.params, &self.config, s);
        }
        m.done += take;
        if take < left {
            self.measuring = Some(m);
        } else {
            self.accuracy = m.right as f64 / self.held_out.targets().max(1) as f64;
            self.remember(m.loss);
        }
        sequences - take
    }

    /// Count a step whose batch had `loss`: stop at a loss that is not a number, start a
    /// held-out measurement now and then, else add the step to the history.
    fn record(&mut self, loss: f64) -> Result<f64, Diverged> {
        self.steps += 1;
        if !loss.is_finite() {
            let d = Diverged { step: self.steps };
            self.diverged = Some(d);
            return Err(d);
        }
        if self.steps.is_multiple_of(MEASURE_EVERY) || self.steps == 1 {
            self.measuring = Some(Measuring { loss, right: 0, done: 0 });
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

    /// The first held-out sequence: the example shown until the learner types one.
    pub fn example(&self) -> Vec<usize> {
        self.held_out.sequences.first().map(|(t, _)| t.clone()).unwrap_or_default()
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

/// The scaling experiment: the same model trained twice from the same seed and batches, with
/// and without ÷√d_k, at a head width where it matters (one head of d_k = 128), side by side.
pub struct Experiment {
    /// With ÷√d_k, then without.
    pub runs: [Session; 2],
    /// Each run's softmax gradient ([`Session::softmax_gradient`]) every few steps.
    pub gradients: [Vec<(usize, f64)>; 2],
}

impl Experiment {
    /// The head width the experiment trains at: one head of all of d_model.
    pub const D_K: usize = 128;
    /// Steps each run takes.
    pub const STEPS: usize = 600;

    /// The two runs for `setup`'s task, learning rate, batch and seed.
    pub fn new(setup: Setup) -> Result<Self, SetupError> {
        let at = |scaled| Session::new(Setup { d_model: Self::D_K, n_heads: 1, scaled, ..setup });
        let runs = [at(true)?, at(false)?];
        let gradients = [vec![(0, runs[0].softmax_gradient())], vec![(0, runs[1].softmax_gradient())]];
        Ok(Self { runs, gradients })
    }

    /// One step of each run that is still going; `false` once both are done (all their steps
    /// taken, or stopped by a loss that is not a number).
    pub fn step(&mut self) -> bool {
        self.advance(usize::MAX)
    }

    /// Up to `sequences` more sequences of each run's step under way (see
    /// [`Session::advance`]); `false` once both runs are done.
    pub fn advance(&mut self, sequences: usize) -> bool {
        let mut going = false;
        for (run, gradients) in self.runs.iter_mut().zip(&mut self.gradients) {
            if run.steps >= Self::STEPS && !run.measuring() {
                continue;
            }
            match run.advance(sequences) {
                None => going = true,
                Some(Ok(_)) => {
                    going = true;
                    if run.steps % MEASURE_EVERY == 0 {
                        gradients.push((run.steps, run.softmax_gradient()));
                    }
                }
                Some(Err(_)) => {}
            }
        }
        going
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A step spread over calls (as the page spreads a large model's over frames), and the
    /// held-out measurement after it, are the same step and measurement: the same losses,
    /// weights, accuracy and history.
    #[test]
    fn a_step_taken_a_few_sequences_at_a_time_is_the_same_step() {
        let setup = Setup { batch: 7, mlp: true, ..Setup::default() };
        let (mut whole, mut spread) = (Session::new(setup).unwrap(), Session::new(setup).unwrap());
        for step in 1..=12 {
            let want = whole.step();
            let mut calls = 1;
            let got = loop {
                if let Some(done) = spread.advance(3) {
                    break done;
                }
                calls += 1;
            };
            assert_eq!(got, want, "step {step}");
            // 7 sequences, 3 at a time; after steps 1 and 10, first 128 held-out ones.
            let measured = [2, 11].contains(&step);
            assert_eq!(calls, if measured { 3 + 128 / 3 } else { 3 }, "step {step}");
        }
        while spread.measuring() {
            spread.advance(3);
        }
        assert!(whole.params == spread.params && whole.history == spread.history);
        assert_eq!((whole.accuracy(), whole.steps), (spread.accuracy(), spread.steps));
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
