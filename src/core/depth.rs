//! How attention changes with depth, and what a layer does to one word: per layer of an
//! encoding, the mean distance attention reaches and its shares on the diagonal, the
//! neighbours and the sentence's two ends; and the cosine between one word's rows in two
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
}

/// The pattern of every layer of `encoding`, first to last.
pub fn layer_patterns(encoding: &Encoding) -> Vec<LayerPattern> {
    encoding
        .layers
        .iter()
        .map(|layer| {
            let mut sum = LayerPattern { distance: 0.0, diagonal: 0.0, neighbours: 0.0, ends: 0.0 };
            let mut rows = 0usize;
            for head in &layer.trace.head_traces {
                let n = head.weights.ncols();
                for (i, row) in head.weights.rows().into_iter().enumerate() {
                    rows += 1;
                    for (j, &w) in row.iter().enumerate() {
                        sum.distance += w * i.abs_diff(j) as f32;
                        sum.diagonal += if i == j { w } else { 0.0 };
                        sum.neighbours += if i.abs_diff(j) == 1 { w } else { 0.0 };
                        sum.ends += if j == 0 || j + 1 == n { w } else { 0.0 };
                    }
                }
            }
            let r = rows.max(1) as f32;
            LayerPattern {
                distance: sum.distance / r,
                diagonal: sum.diagonal / r,
                neighbours: sum.neighbours / r,
                ends: sum.ends / r,
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
