//! A run shared by a pool of workers: which part of every batch one replica computes, and
//! what it hands back for a round.

use crate::train::Params;

/// Which share of every batch (and of the held-out set) one of `of` replicas of a run
/// computes: the `index`-th of `of` contiguous parts. The parts' gradients, summed in order,
/// are the whole batch's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub of: usize,
}

impl Shard {
    /// All of it: a run on one worker.
    pub const WHOLE: Shard = Shard { index: 0, of: 1 };

    /// This part of `len` items.
    pub fn range(self, len: usize) -> std::ops::Range<usize> {
        let of = self.of.max(1);
        len * self.index / of..len * (self.index + 1).min(of) / of
    }
}

/// What a round of a run does: a step (and the held-out measurement the last step left
/// waiting, if any), or only that measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Step,
    Settle,
}

/// One replica's share of a round: the right answers of its held-out sequences (when a
/// measurement was waiting), and for a step, its sequences' share of the loss and their
/// gradient.
#[derive(Debug, Clone, PartialEq)]
pub struct Partial {
    pub right: usize,
    pub step: Option<(f64, Params)>,
}
