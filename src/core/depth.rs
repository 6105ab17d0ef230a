//! How attention changes with depth, and what a layer does to one word: per layer of an
//! encoding, the mean distance attention reaches (with the weight parked on the sentence's two
//! ends, and without it), its shares on the diagonal, the neighbours and the two ends, and how
//! spread out its rows are (their entropy); and the cosine between one word's rows in two
//! sentences, at the input and after every layer (the same word, two meanings).

use super::model::Encoding;
use super::words::word_span;
use ndarray::ArrayView1;

/// One layer's attention, averaged over its heads and query rows (each row sums to 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerPattern {
    /// Mean |i − j| under the weights: how far a query reads, in tokens.
    pub distance: f32,
    /// Share on j = i.
    pub diagonal: f32,
    /// Share on j = i ± 1.
    pub neighbours: f32,
    /// Share on the first and the last token ([CLS] and [SEP] for a framed sentence).
    pub ends: f32,
    /// Mean |i − j| under the weights the row gives the other keys, the two ends left out (each
    /// row's rest renormalised; rows with nothing left are skipped): how far a query reads
    /// once the weight a model parks on [CLS] and [SEP] is set aside.
    pub reach: f32,
    /// Mean entropy of a row, −Σ w ln w, in nats: 0 for one-hot rows, ln n for uniform ones.
    pub entropy: f32,
    /// Share on the punctuation marks of the sentence (keys whose text is all punctuation, the
    /// two ends not counted): where the heads that mark sentence boundaries look.
    pub punctuation: f32,
}

/// Whether a token's text is punctuation only (SentencePiece's word-start mark aside).
fn is_punctuation(text: &str) -> bool {
    let t = text.trim_start_matches('▁');
    !t.is_empty() && t.chars().all(|c| c.is_ascii_punctuation() || "，。、；：？！“”‘’（）《》…—·".contains(c))
}

/// The pattern of every layer of `encoding`, first to last.
pub fn layer_patterns(encoding: &Encoding) -> Vec<LayerPattern> {
    encoding
        .layers
        .iter()
        .map(|layer| {
            let mut sum = LayerPattern {
                distance: 0.0,
                diagonal: 0.0,
                neighbours: 0.0,
                ends: 0.0,
                reach: 0.0,
                entropy: 0.0,
                punctuation: 0.0,
            };
            let (mut rows, mut inner_rows) = (0usize, 0usize);
            for head in &layer.trace.head_traces {
                let n = head.weights.ncols();
                let end = |j: usize| j == 0 || j + 1 == n;
                let punct: Vec<bool> = (0..n)
                    .map(|j| !end(j) && encoding.tokens.get(j).is_some_and(|t| is_punctuation(&t.text)))
                    .collect();
                for (i, row) in head.weights.rows().into_iter().enumerate() {
                    rows += 1;
                    let (mut inner, mut inner_distance) = (0.0f32, 0.0f32);
                    for (j, &w) in row.iter().enumerate() {
                        sum.distance += w * i.abs_diff(j) as f32;
                        sum.diagonal += if i == j { w } else { 0.0 };
                        sum.neighbours += if i.abs_diff(j) == 1 { w } else { 0.0 };
                        sum.ends += if end(j) { w } else { 0.0 };
                        sum.entropy -= if w > 0.0 { w * w.ln() } else { 0.0 };
                        sum.punctuation += if punct[j] { w } else { 0.0 };
                        if !end(j) {
                            inner += w;
                            inner_distance += w * i.abs_diff(j) as f32;
                        }
                    }
                    if inner > 0.0 {
                        inner_rows += 1;
                        sum.reach += inner_distance / inner;
                    }
                }
            }
            let r = rows.max(1) as f32;
            LayerPattern {
                distance: sum.distance / r,
                diagonal: sum.diagonal / r,
                neighbours: sum.neighbours / r,
                ends: sum.ends / r,
                reach: sum.reach / inner_rows.max(1) as f32,
                entropy: sum.entropy / r,
                punctuation: sum.punctuation / r,
            }
        })
        .collect()
}

/// One word in two sentences: the cosine between its rows at the input of layer 1 and after
/// each layer.
#[derive(Debug, Clone, PartialEq)]
pub struct SameWord {
    /// Its position (0-based) in each sentence.
    pub positions: (usize, usize),
    pub input: f32,
    /// After layer 1, 2, …
    pub layers: Vec<f32>,
}

/// `word` (in both encodings; its first occurrence, by its first piece when it has several:
/// `words::word_span`) compared across `a` and `b`, or `None` when one of them lacks it.
pub fn same_word(a: &Encoding, b: &Encoding, word: &str) -> Option<SameWord> {
    let find = |e: &Encoding| word_span(&e.tokens, word).map(|span| span.start);
    let (i, j) = (find(a)?, find(b)?);
    let input = cosine(a.layers.first()?.trace.x.row(i), b.layers.first()?.trace.x.row(j));
    let layers =
        a.layers.iter().zip(&b.layers).map(|(la, lb)| cosine(la.output().row(i), lb.output().row(j))).collect();
    Some(SameWord { positions: (i, j), input, layers })
}

fn cosine(u: ArrayView1<f32>, v: ArrayView1<f32>) -> f32 {
    let norms = (u.dot(&u) * v.dot(&v)).sqrt();
    if norms > 0.0 {
        u.dot(&v) / norms
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::random::{Random, RandomSetup};
    use crate::model::{Input, Model, RunOptions};
    use std::sync::Arc;

    fn encode(text: &str) -> Encoding {
        let model = Random::new(RandomSetup::default(), 64, Arc::default());
        model.forward(&Input { text: text.into(), kv_text: None }, &RunOptions::default()).unwrap()
    }

    #[test]
    fn the_shares_and_distance_follow_their_definitions() {
        let e = encode("a b c d");
        let p = layer_patterns(&e);
        let h = &e.layers[0].trace.head_traces;
        let n = 4;
        let diagonal: f32 =
            h.iter().map(|h| (0..n).map(|i| h.weights[(i, i)]).sum::<f32>()).sum::<f32>() / (h.len() * n) as f32;
        assert!((p[0].diagonal - diagonal).abs() < 1e-6);
        assert!(p[0].diagonal + p[0].neighbours <= 1.0 + 1e-5 && p[0].ends <= 1.0 + 1e-5);
        assert!(p[0].distance >= 0.0 && p[0].distance <= 3.0);
        assert!(p[0].entropy >= 0.0 && p[0].entropy <= (n as f32).ln() + 1e-5);
    }

    #[test]
    fn the_reach_leaves_the_two_ends_out_and_the_entropy_measures_the_spread() {
        use ndarray::array;
        // One row parks most of its weight on the ends; the rest is on the key two places away.
        let mut e = encode("a b c d e");
        let h = &mut e.layers[0].trace.head_traces;
        let row = array![0.4f32, 0.0, 0.0, 0.2, 0.4];
        for head in h.iter_mut() {
            head.weights = ndarray::Array2::from_shape_fn((5, 5), |(_, j)| row[j]);
        }
        let p = layer_patterns(&e)[0];
        // Row i reads key 3 only, once the ends are out: |i − 3| averaged over i = 0…4 is 1.4.
        assert!((p.reach - 1.4).abs() < 1e-5, "{}", p.reach);
        let h_row = -(2.0 * 0.4 * 0.4f32.ln() + 0.2 * 0.2f32.ln());
        assert!((p.entropy - h_row).abs() < 1e-5, "{} against {h_row}", p.entropy);
    }

    #[test]
    fn the_same_word_at_the_same_position_enters_identically() {
        let (a, b) = (encode("the bank was wet"), encode("the bank was shut"));
        let w = same_word(&a, &b, "bank").unwrap();
        assert_eq!(w.positions, (1, 1));
        assert!((w.input - 1.0).abs() < 1e-6, "{}", w.input);
        assert!(same_word(&a, &b, "river").is_none());
    }
}
