//! The tokens that frame a sentence ([CLS] and [SEP], or <s> and </s>) and the attention they
//! draw: their names, the weights without them, each end's share of every layer's weight, and
//! the layer from which the two ends are one state (one sink in two places). Any encoding.

use super::model::Encoding;
use ndarray::{s, Array2};

/// The first and last token's texts ([CLS] and [SEP], <s> and </s>); empty without tokens.
pub fn frame_tokens(encoding: &Encoding) -> (String, String) {
    let text = |t: Option<&super::model::Token>| t.map(|t| t.text.clone()).unwrap_or_default();
    (text(encoding.tokens.first()), text(encoding.tokens.last()))
}

/// The weights without the first and last token ([CLS] and [SEP]) as rows and columns, each
/// row divided by what is left so it sums to 1 again: (n − 2, n − 2). A row with nothing left
/// stays 0. Fewer than three tokens give an empty matrix.
pub fn without_ends(weights: &Array2<f32>) -> Array2<f32> {
    let n = weights.nrows().min(weights.ncols());
    if n < 3 {
        return Array2::zeros((0, 0));
    }
    let mut inner = weights.slice(s![1..n - 1, 1..n - 1]).to_owned();
    for mut row in inner.rows_mut() {
        let sum = row.sum();
        if sum > 0.0 {
            row /= sum;
        }
    }
    inner
}

/// Per layer, the share of all attention weight (every head, every row) that lands on the
/// first token and on the last ([CLS] and [SEP], or <s> and </s>).
pub fn end_share(encoding: &Encoding) -> Vec<(f32, f32)> {
    encoding
        .layers
        .iter()
        .map(|layer| {
            let (mut first, mut last, mut total) = (0.0f32, 0.0f32, 0.0f32);
            for head in &layer.trace.head_traces {
                let n = head.weights.ncols();
                for row in head.weights.rows() {
                    first += row[0];
                    last += if n > 1 { row[n - 1] } else { 0.0 };
                    total += row.sum();
                }
            }
            if total > 0.0 {
                (first / total, last / total)
            } else {
                (0.0, 0.0)
            }
        })
        .collect()
}

/// The first layer (0-based) from which on the first and the last token leave every layer
/// with the same hidden state, within `tolerance` in every component, and the largest gap
/// from there: two ends that offer every query the same key, one sink in two places.
pub fn ends_merge(encoding: &Encoding, tolerance: f32) -> Option<(usize, f32)> {
    let gaps: Vec<f32> = encoding
        .layers
        .iter()
        .map(|layer| {
            let out = layer.output();
            let n = out.nrows();
            if n < 2 {
                return f32::INFINITY;
            }
            out.row(0).iter().zip(out.row(n - 1)).fold(0.0f32, |m, (a, b)| m.max((a - b).abs()))
        })
        .collect();
    let from = gaps.iter().rposition(|&g| g.is_nan() || g > tolerance).map_or(0, |l| l + 1);
    let widest = gaps.get(from..)?.iter().copied().reduce(f32::max)?;
    Some((from, widest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_ends_drops_the_first_and_last_token_and_renormalises() {
        let w =
            ndarray::array![[0.5, 0.25, 0.25, 0.0], [0.2, 0.2, 0.2, 0.4], [0.6, 0.3, 0.1, 0.0], [1.0, 0.0, 0.0, 0.0]];
        let inner = without_ends(&w);
        assert_eq!(inner, ndarray::array![[0.5, 0.5], [0.75, 0.25]]);
        assert_eq!(without_ends(&ndarray::array![[1.0, 0.0], [0.0, 1.0]]).dim(), (0, 0));
    }
}
