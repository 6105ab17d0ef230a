//! The tasks a learner trains on, each with an attention pattern known in advance, and
//! random batches of them. Tokens are digits 0..`digits`; the sequence tasks add one
//! separator token, `digits` itself.
//!
//! - *reverse*: `x₁ … xₙ | xₙ … x₂` predicts `xₙ … x₁` after the separator (an anti-diagonal);
//! - *sort*: the same with the digits sorted (each output looks for the next-larger digit);
//! - *previous*: each token predicts the one before it (a sub-diagonal);
//! - *induction*: a sequence of distinct digits (of varying length) repeated, each token of the
//!   second copy predicting the next one of the first (a previous-token head, then an
//!   induction head).

use crate::rng::SplitMix64;

crate::slugged! {
    /// A training task.
    pub enum Task {
        Reverse = "reverse",
        Sort = "sort",
        Previous = "previous",
        Induction = "induction",
    }
}

/// A token as the learner reads it: its digit, or "|" for the separator (`digits` itself).
pub fn token_text(token: usize, digits: usize) -> String {
    if token == digits {
        "|".into()
    } else {
        token.to_string()
    }
}

/// One sequence's tokens, and the (position, token) pairs the loss counts in it.
pub type Example = (Vec<usize>, Vec<(usize, usize)>);

/// Sequences with their targets.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    pub sequences: Vec<Example>,
}

impl Batch {
    /// How many targets the batch holds (the loss is their mean).
    pub fn targets(&self) -> usize {
        self.sequences.iter().map(|(_, t)| t.len()).sum()
    }
}

impl Task {
    /// The vocabulary: the digits, plus the separator for reverse and sort.
    pub fn vocab(self, digits: usize) -> usize {
        match self {
            Task::Reverse | Task::Sort => digits + 1,
            Task::Previous | Task::Induction => digits,
        }
    }

    /// The sequence length for `n` digits.
    pub fn context(self, n: usize) -> usize {
        match self {
            Task::Reverse | Task::Sort | Task::Induction => 2 * n,
            Task::Previous => n,
        }
    }

    /// The (position, token) pairs a sequence of this task must answer, read from its tokens
    /// alone (`digits`: the separator's id): what [`Task::batch`] pairs each sequence with.
    pub fn targets_of(self, tokens: &[usize], digits: usize) -> Vec<(usize, usize)> {
        match self {
            Task::Reverse | Task::Sort => {
                let Some(n) = tokens.iter().position(|&t| t == digits) else { return vec![] };
                let mut y = tokens[..n].to_vec();
                if self == Task::Reverse {
                    y.reverse();
                } else {
                    y.sort_unstable();
                }
                y.into_iter().enumerate().map(|(k, t)| (n + k, t)).collect()
            }
            Task::Previous => (1..tokens.len()).map(|i| (i, tokens[i - 1])).collect(),
            Task::Induction => {
                let m = tokens.len() / 2;
                (0..m.saturating_sub(1)).map(|i| (m + i, tokens[i + 1])).collect()
            }
        }
    }

    /// `size` random sequences of `n` digits below `digits` (for induction, n/2 to n distinct
    /// ones, so `n ≤ digits`).
    pub fn batch(self, n: usize, digits: usize, size: usize, rng: &mut SplitMix64) -> Batch {
        let sequences = (0..size).map(|_| self.sequence(n, digits, rng)).collect();
        Batch { sequences }
    }

    fn sequence(self, n: usize, digits: usize, rng: &mut SplitMix64) -> Example {
        let mut digit = || (rng.next_u64() % digits.max(1) as u64) as usize;
        match self {
            Task::Reverse | Task::Sort => {
                let x: Vec<usize> = (0..n).map(|_| digit()).collect();
                let mut y = x.clone();
                if self == Task::Reverse {
                    y.reverse();
                } else {
                    y.sort_unstable();
                }
                let mut tokens = x;
                tokens.push(digits);
                tokens.extend_from_slice(&y[..n.saturating_sub(1)]);
                let targets = y.iter().enumerate().map(|(k, &t)| (n + k, t)).collect();
                (tokens, targets)
            }
            Task::Previous => {
                let x: Vec<usize> = (0..n).map(|_| digit()).collect();
                let targets = (1..n).map(|i| (i, x[i - 1])).collect();
                (x, targets)
            }
            Task::Induction => {
                // Between n/2 and n distinct digits (a partial Fisher–Yates shuffle). The length
                // varies so that no fixed offset finds the earlier copy: only matching the
                // token does.
                let m = (n / 2 + (rng.next_u64() % (n - n / 2 + 1) as u64) as usize).clamp(2.min(n), n.min(digits));
                let mut pool: Vec<usize> = (0..digits).collect();
                for i in 0..m {
                    let j = i + (rng.next_u64() % (digits - i) as u64) as usize;
                    pool.swap(i, j);
                }
                let r = &pool[..m];
                let mut tokens = r.to_vec();
                tokens.extend_from_slice(r);
                let m = r.len();
                let targets = (0..m.saturating_sub(1)).map(|i| (m + i, r[i + 1])).collect();
                (tokens, targets)
            }
        }
    }
}
