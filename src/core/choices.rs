//! Why √d_k and not d_k, or nothing: one head's raw scores S through the softmax three ways,
//! S, S/√d_k and S/d_k, and the temperature identity (dividing by √d_k is the same as a
//! softmax temperature T = √d_k).

use super::mask::masked_logits;
use super::readouts::{row_readouts, summarise, Summary};
use super::softmax::softmax_rows;
use ndarray::Array2;

/// The three ways to scale, in the order shown.
pub const DIVISORS: [Divisor; 3] = [Divisor::One, Divisor::SqrtDk, Divisor::Dk];

/// What the scores are divided by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Divisor {
    /// Nothing: the spread grows like √d_k.
    One,
    /// √d_k: the Transformer's choice, spread of order 1.
    SqrtDk,
    /// d_k: the spread shrinks like 1/√d_k.
    Dk,
}

impl Divisor {
    /// Its value for `d_k`.
    pub fn value(self, d_k: usize) -> f32 {
        let d = d_k.max(1) as f32;
        match self {
            Self::One => 1.0,
            Self::SqrtDk => d.sqrt(),
            Self::Dk => d,
        }
    }
}

/// One way: the weights it gives and their readouts.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub divisor: Divisor,
    /// softmax(S / divisor): (n_q, n_kv), blocked entries 0.
    pub weights: Array2<f32>,
    /// Readouts over the divided scores (spread, typical top weight, entropy).
    pub summary: Summary,
}

/// The three choices for raw scores `scores` (n_q, n_kv) of a head of width `d_k`, and the
/// largest |softmax(S/√d_k) − softmax(S / T) at T = √d_k|.
#[derive(Debug, Clone, PartialEq)]
pub struct Choices {
    pub choices: Vec<Choice>,
    pub identity_error: f32,
}

/// See [`Choices`]. `blocked` (n_q, n_kv) is the head's mask.
pub fn scaling_choices(scores: &Array2<f32>, blocked: &Array2<bool>, d_k: usize) -> Choices {
    let choices = DIVISORS
        .iter()
        .map(|&divisor| {
            let divided = scores / divisor.value(d_k);
            let weights = softmax_rows(&divided, blocked, 1.0);
            let logits = masked_logits(&divided, blocked);
            let summary = summarise(&row_readouts(&weights, &logits), logits.iter());
            Choice { divisor, weights, summary }
        })
        .collect::<Vec<_>>();
    let by_temperature = softmax_rows(scores, blocked, Divisor::SqrtDk.value(d_k));
    // The ÷√d_k choice, found by what it is rather than where it sits in the list.
    let sqrt_dk = choices.iter().find(|c| c.divisor == Divisor::SqrtDk).map(|c| &c.weights);
    let identity_error =
        sqrt_dk.into_iter().flatten().zip(&by_temperature).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    Choices { choices, identity_error }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::matmul_t;
    use crate::rng::normal_matrix;

    fn scores(d_k: usize) -> Array2<f32> {
        matmul_t(normal_matrix(12, d_k, 7, 1).view(), normal_matrix(12, d_k, 7, 2).view())
    }

    #[test]
    fn only_the_square_root_keeps_the_spread_of_order_one() {
        let d_k = 256;
        let c = scaling_choices(&scores(d_k), &Array2::from_elem((12, 12), false), d_k);
        let std: Vec<f32> = c.choices.iter().map(|c| c.summary.score_std).collect();
        assert!(std[0] > 8.0, "undivided: about √256 = 16, got {}", std[0]);
        assert!((0.5..2.0).contains(&std[1]), "÷√d_k: about 1, got {}", std[1]);
        assert!(std[2] < 0.2, "÷d_k: about 1/16, got {}", std[2]);
        // Too sharp, right, too flat.
        let top: Vec<f32> = c.choices.iter().map(|c| c.summary.median_max_weight).collect();
        assert!(top[0] > 0.9 && top[2] < 1.5 / 12.0, "{top:?}");
    }

    #[test]
    fn dividing_by_root_dk_is_a_temperature_of_root_dk() {
        let mut blocked = Array2::from_elem((12, 12), false);
        blocked[[0, 3]] = true;
        let c = scaling_choices(&scores(64), &blocked, 64);
        assert!(c.identity_error < 1e-6, "{}", c.identity_error);
        assert!(c.choices.iter().all(|c| c.weights[[0, 3]] == 0.0));
    }
}
