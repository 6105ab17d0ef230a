//! Heads whose attention pattern is built from explicit weights, so that the pattern emerges
//! from the real computation (the same `head` as everywhere) rather than being painted:
//!
//! - previous token: W_Q rotates each sin/cos pair of the positional encoding back by one
//!   position, so q_i = PE(i−1) and the score peaks at key i−1;
//! - local: queries and keys keep only middle frequencies of PE, so the score falls off
//!   smoothly with distance |i − j| and weight gathers in a band around the diagonal;
//! - broadcast: W_K = 0, so every score is 0 and every weight is exactly 1/n;
//! - sparse: every query asks the same question ("is this the anchor token?") and the keys
//!   answer with their embedding's overlap with the anchor's: weight goes to its occurrences.

use super::attention::head;
use super::embed::{embed_tokens, positional_encoding};
use super::error::AttnError;
use super::kernels::matmul;
use super::trace::HeadTrace;
use ndarray::Array2;

/// The width these constructions use (independent of the lesson's d_model).
pub const PATTERN_D_MODEL: usize = 64;

crate::slugged! {
    /// The four kinds of head the texts describe.
    pub enum Pattern {
        PreviousToken = "previous",
        Local = "local",
        Broadcast = "broadcast",
        Sparse = "sparse",
    }
}

/// A constructed head: its input, its two weight matrices and the attention they produce.
#[derive(Debug, Clone, PartialEq)]
pub struct PatternHead {
    pub pattern: Pattern,
    /// The input the head reads: (n, 64) — PE alone for the positional heads, E + PE for sparse.
    pub x: Array2<f32>,
    /// (64, 64) each.
    pub w_q: Array2<f32>,
    pub w_k: Array2<f32>,
    /// The attention computed from them (scaling off: the weights carry their own scale).
    pub head: HeadTrace,
}

/// Angular frequency of sin/cos pair `i` of the positional encoding.
fn frequency(i: usize, d: usize) -> f64 {
    1.0 / 10000f64.powf(2.0 * i as f64 / d as f64)
}

/// Build `pattern`'s head for `tokens` (embeddings from `seed`); `anchor` indexes the token the
/// sparse head looks for.
pub fn build(pattern: Pattern, tokens: &[String], seed: u64, anchor: usize) -> Result<PatternHead, AttnError> {
    let d = PATTERN_D_MODEL;
    let n = tokens.len();
    if n == 0 {
        return Err(AttnError::EmptySequence { which: "input" });
    }
    let pe = positional_encoding(n, d);
    let (x, w_q, w_k) = match pattern {
        Pattern::PreviousToken => {
            // Row vector (s, c) = (sin ωp, cos ωp) times [[cos ω, sin ω], [−sin ω, cos ω]]
            // gives (sin ω(p−1), cos ω(p−1)). β = 2 sharpens the peak.
            let mut w = Array2::zeros((d, d));
            for i in 0..d / 2 {
                let (sin, cos) = (frequency(i, d).sin() as f32, frequency(i, d).cos() as f32);
                let (a, b) = (2 * i, 2 * i + 1);
                w[[a, a]] = 2.0 * cos;
                w[[a, b]] = 2.0 * sin;
                w[[b, a]] = -2.0 * sin;
                w[[b, b]] = 2.0 * cos;
            }
            (pe, w, Array2::eye(d))
        }
        Pattern::Local => {
            // Pairs 4–11: fast enough to tell neighbours from far tokens, slow enough not to
            // wrap around within 64 positions. √2 on each side: β = 2 on the score.
            let w =
                Array2::from_shape_fn((d, d), |(r, c)| if r == c && (8..24).contains(&r) { 2f32.sqrt() } else { 0.0 });
            (pe, w.clone(), w)
        }
        Pattern::Broadcast => {
            // Any W_Q will do; W_K = 0 makes every key look the same.
            (pe, Array2::eye(d), Array2::zeros((d, d)))
        }
        Pattern::Sparse => {
            let anchor = anchor.min(n - 1);
            let x = &embed_tokens(tokens, d, seed)? + &pe;
            let e = embed_tokens(&tokens[anchor..=anchor], d, seed)?.row(0).to_owned();
            let e_norm2 = e.dot(&e).max(f32::EPSILON);
            // The slowest cos components of PE are ≈ 1 at every position: a constant the query
            // can read. q_i = β (x_i·u) f with u their average; k_j = (x_j·e/|e|²) f.
            let slow: Vec<usize> = (0..d / 2).filter(|&i| frequency(i, d) * 64.0 <= 0.3).map(|i| 2 * i + 1).collect();
            let beta = 10.0;
            let mut w_q = Array2::zeros((d, d));
            for &r in &slow {
                w_q[[r, 0]] = beta / slow.len() as f32;
            }
            let mut w_k = Array2::zeros((d, d));
            for r in 0..d {
                w_k[[r, 0]] = e[r] / e_norm2;
            }
            (x, w_q, w_k)
        }
    };
    let q = matmul(x.view(), w_q.view());
    let k = matmul(x.view(), w_k.view());
    let blocked = Array2::from_elem((n, n), false);
    let head = head(q.view(), k.view(), x.view(), &blocked, 1.0, 1.0)?;
    Ok(PatternHead { pattern, x, w_q, w_k, head })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::tokenize;

    fn tokens(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("w{}", i % 7)).collect()
    }

    fn argmax(row: ndarray::ArrayView1<f32>) -> usize {
        row.iter().enumerate().fold((0, f32::MIN), |b, (i, v)| if *v > b.1 { (i, *v) } else { b }).0
    }

    #[test]
    fn previous_token_head_peaks_at_i_minus_one() {
        for n in [2, 11, 40, 64] {
            let h = build(Pattern::PreviousToken, &tokens(n), 1, 0).unwrap().head;
            for i in 1..n {
                assert_eq!(argmax(h.weights.row(i)), i - 1, "n {n}, row {i}");
            }
            let mean: f32 = (1..n).map(|i| h.weights[[i, i - 1]]).sum::<f32>() / (n - 1).max(1) as f32;
            assert!(mean > 0.7, "n {n}: mean weight on the previous token {mean}");
        }
    }

    #[test]
    fn local_head_gathers_around_the_diagonal() {
        let h = build(Pattern::Local, &tokens(30), 1, 0).unwrap().head;
        for i in 3..27 {
            let w = h.weights.row(i);
            assert_eq!(argmax(w), i);
            assert!(w[i - 1] > w[i - 3] && w[i + 1] > w[i + 3], "row {i} should fall off with distance");
            let band: f32 = (i - 2..=i + 2).map(|j| w[j]).sum();
            assert!(band > 0.8, "row {i}: only {band} within ±2");
        }
    }

    #[test]
    fn broadcast_head_is_exactly_uniform() {
        let h = build(Pattern::Broadcast, &tokens(9), 1, 0).unwrap().head;
        assert!(h.weights.iter().all(|w| (w - 1.0 / 9.0).abs() < 1e-6));
    }

    #[test]
    fn sparse_head_goes_to_the_anchor_token_wherever_it_is() {
        let toks = tokenize("the cat saw the dog near the tree");
        let h = build(Pattern::Sparse, &toks, 42, 0).unwrap().head;
        let anchors = [0usize, 3, 6];
        for i in 0..toks.len() {
            let on_anchor: f32 = anchors.iter().map(|&j| h.weights[[i, j]]).sum();
            assert!(on_anchor > 0.8, "row {i}: {on_anchor} on the three \"the\"");
            assert!(anchors.contains(&argmax(h.weights.row(i))));
        }
    }
}
