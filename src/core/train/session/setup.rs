//! What the learner chose for a run, range-checked, and what follows from it alone: the
//! model's shape, the tokens they may type, the held-out sequences and the example shown.

use crate::rng::SplitMix64;
use crate::train::model::Positions;
use crate::train::{Batch, Config, Task};

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
    /// Heads of keys and values, dividing `n_heads` (`None`: as many as the heads, multi-head
    /// attention; 1 is multi-query, in between grouped-query).
    pub kv_heads: Option<usize>,
    /// How positions enter.
    pub positions: Positions,
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
            kv_heads: None,
            positions: Positions::Learned,
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
    /// 1 to the heads, dividing them.
    KvHeads,
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
        let kv = self.kv_heads();
        if !within(kv, (1, self.n_heads)) || !self.n_heads.is_multiple_of(kv) {
            return Err(SetupError::KvHeads);
        }
        Ok(())
    }

    /// Each head's width.
    pub fn d_k(&self) -> usize {
        self.d_model / self.n_heads.max(1)
    }

    /// The tokens the learner typed, separated by spaces: digits below the task's alphabet
    /// (and "|" where the task has a separator), 1 to as many as the model's positions.
    pub fn read_tokens(&self, text: &str) -> Option<Vec<usize>> {
        read_tokens(self.task, text, self.config().context)
    }

    /// Heads of keys and values.
    pub fn kv_heads(&self) -> usize {
        self.kv_heads.unwrap_or(self.n_heads)
    }

    /// The model's shape for this task.
    pub fn config(&self) -> Config {
        let (n, digits) = digits_of(self.task);
        Config {
            vocab: self.task.vocab(digits),
            context: self.task.context(n),
            d_model: self.d_model,
            n_heads: self.n_heads,
            kv_heads: self.kv_heads(),
            positions: self.positions,
            n_layers: self.n_layers,
            scaled: self.scaled,
            mlp: self.mlp,
        }
    }
}

/// Tokens typed for `task`, separated by spaces: its digits (and "|" where it has a separator),
/// 1 to `most` of them.
pub fn read_tokens(task: Task, text: &str, most: usize) -> Option<Vec<usize>> {
    let (_, digits) = digits_of(task);
    let vocab = task.vocab(digits);
    let read = |w: &str| {
        if w == "|" && vocab > digits {
            Some(digits)
        } else {
            w.parse().ok().filter(|&d: &usize| d < digits)
        }
    };
    let tokens: Option<Vec<usize>> = text.split_whitespace().map(read).collect();
    tokens.filter(|t| !t.is_empty() && t.len() <= most)
}

/// The held-out sequences of `setup`'s run (the same for its seed wherever it trains).
pub(crate) fn held_out(setup: &Setup) -> Batch {
    let (n, digits) = digits_of(setup.task);
    setup.task.batch(n, digits, HELD_OUT, &mut SplitMix64::new(setup.seed ^ 0x5A5A))
}

pub(super) fn example_of(held_out: &Batch) -> Vec<usize> {
    held_out.sequences.first().map(|(t, _)| t.clone()).unwrap_or_default()
}

/// The example `setup`'s run shows first (its first held-out sequence), without building
/// the run.
pub fn example(setup: &Setup) -> Vec<usize> {
    example_of(&held_out(setup))
}
