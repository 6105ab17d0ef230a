//! Turning tokens into the input matrix X: a seeded embedding per token string, plus the
//! sinusoidal positional encoding of the original Transformer.

use super::error::AttnError;
use super::rng::{hash_str, SplitMix64};
use ndarray::Array2;
use std::collections::BTreeMap;

/// The embedding of one token string: d_model entries ~ N(0, 1), fixed by the string and seed.
fn embedding(token: &str, d_model: usize, seed: u64) -> Vec<f32> {
    let mut rng = SplitMix64::new(hash_str(token, seed));
    (0..d_model).map(|_| rng.normal()).collect()
}

/// Embeddings already made, by token string, for one (d_model, seed): a page keeps one, so
/// editing a sentence makes vectors only for its new words.
#[derive(Debug, Clone, Default)]
pub struct EmbeddingTable {
    /// (d_model, seed) the rows were made for.
    made_for: (usize, u64),
    rows: BTreeMap<String, Vec<f32>>,
}

/// Beyond this many different tokens the table starts again (a long session of typing).
const TABLE_LIMIT: usize = 4096;

impl EmbeddingTable {
    /// Embeddings for `tokens`: (n, d_model), entries ~ N(0, 1), from the table where they are.
    ///
    /// The vector depends only on the token string and `seed`, so "the" gets the same row
    /// wherever it appears (and only the positional encoding tells the two apart).
    pub fn embed(&mut self, tokens: &[String], d_model: usize, seed: u64) -> Result<Array2<f32>, AttnError> {
        if d_model == 0 {
            return Err(AttnError::ZeroModelWidth);
        }
        if tokens.is_empty() {
            return Err(AttnError::EmptySequence { which: "input" });
        }
        if self.made_for != (d_model, seed) || self.rows.len() > TABLE_LIMIT {
            *self = EmbeddingTable { made_for: (d_model, seed), rows: BTreeMap::new() };
        }
        let mut x = Array2::zeros((tokens.len(), d_model));
        for (mut row, token) in x.rows_mut().into_iter().zip(tokens) {
            let values = self.rows.entry(token.clone()).or_insert_with(|| embedding(token, d_model, seed));
            row.iter_mut().zip(values.iter()).for_each(|(x, v)| *x = *v);
        }
        Ok(x)
    }
}

/// Embeddings for `tokens`: (n, d_model), entries ~ N(0, 1) (see [`EmbeddingTable::embed`]).
pub fn embed_tokens(tokens: &[String], d_model: usize, seed: u64) -> Result<Array2<f32>, AttnError> {
    EmbeddingTable::default().embed(tokens, d_model, seed)
}

/// The wavelength of the encoding's pair `i` (columns 2i and 2i + 1) at width `d_model`:
/// 10000^(2i/d_model). Its angular speed per position is ω_i = 1 / wavelength.
pub fn wavelength(i: usize, d_model: usize) -> f64 {
    10000f64.powf(2.0 * i as f64 / d_model as f64)
}

/// Sinusoidal positional encoding: (n, d_model).
///
/// PE[pos, 2i] = sin(pos / 10000^(2i/d_model)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d_model)).
/// Each pair's wavelength is computed once, and its sine and cosine together.
pub fn positional_encoding(n: usize, d_model: usize) -> Array2<f32> {
    let wavelengths: Vec<f64> = (0..d_model.div_ceil(2)).map(|i| wavelength(i, d_model)).collect();
    let mut pe = Array2::zeros((n, d_model));
    for (pos, mut row) in pe.rows_mut().into_iter().enumerate() {
        for (pair, wavelength) in row.as_slice_mut().into_iter().flat_map(|r| r.chunks_mut(2)).zip(&wavelengths) {
            let (sin, cos) = (pos as f64 / wavelength).sin_cos();
            pair[0] = sin as f32;
            if let Some(c) = pair.get_mut(1) {
                *c = cos as f32;
            }
        }
    }
    pe
}

/// X = embedding (+ positional encoding if `with_position`): (n, d_model).
pub fn input_matrix(
    tokens: &[String],
    d_model: usize,
    seed: u64,
    with_position: bool,
) -> Result<Array2<f32>, AttnError> {
    let mut x = embed_tokens(tokens, d_model, seed)?;
    if with_position {
        x += &positional_encoding(tokens.len(), d_model);
    }
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &[&str]) -> Vec<String> {
        s.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn same_token_same_row_and_seed_matters() {
        let x = embed_tokens(&toks(&["the", "cat", "the"]), 16, 3).unwrap();
        assert_eq!(x.row(0), x.row(2));
        assert_ne!(x.row(0), x.row(1));
        let y = embed_tokens(&toks(&["the"]), 16, 4).unwrap();
        assert_ne!(x.row(0), y.row(0));
    }

    #[test]
    fn positional_encoding_matches_formula() {
        let pe = positional_encoding(4, 8);
        assert_eq!(pe[[0, 0]], 0.0); // sin 0
        assert_eq!(pe[[0, 1]], 1.0); // cos 0
        assert!((pe[[3, 0]] - 3f32.sin()).abs() < 1e-6);
        // column 5 is the cosine of pair 2: angle = pos / 10000^(4/8) = pos / 100
        assert!((pe[[2, 5]] - (0.02f32).cos()).abs() < 1e-6);
    }

    #[test]
    fn positional_encoding_matches_the_formula_everywhere() {
        // Odd widths too: the last column is a sine without its cosine.
        for (n, d) in [(7, 8), (5, 7), (64, 512)] {
            let pe = positional_encoding(n, d);
            for ((pos, j), v) in pe.indexed_iter() {
                let angle = pos as f64 / 10000f64.powf(2.0 * (j / 2) as f64 / d as f64);
                let want = if j % 2 == 0 { angle.sin() } else { angle.cos() } as f32;
                assert!((v - want).abs() < 1e-6, "PE[{pos}, {j}] of {n} × {d}: {v} vs {want}");
            }
        }
    }

    #[test]
    fn the_table_gives_the_same_rows_as_making_them_afresh() {
        let mut table = EmbeddingTable::default();
        let a = table.embed(&toks(&["the", "cat"]), 16, 3).unwrap();
        let b = table.embed(&toks(&["cat", "sat", "the"]), 16, 3).unwrap();
        assert_eq!(b, embed_tokens(&toks(&["cat", "sat", "the"]), 16, 3).unwrap());
        assert_eq!((a.row(0), a.row(1)), (b.row(2), b.row(0)));
        // Another seed starts the table again.
        assert_eq!(table.embed(&toks(&["the"]), 16, 4).unwrap(), embed_tokens(&toks(&["the"]), 16, 4).unwrap());
    }

    #[test]
    fn position_tells_repeated_tokens_apart() {
        let x = input_matrix(&toks(&["the", "the"]), 8, 1, true).unwrap();
        assert_ne!(x.row(0), x.row(1));
    }

    #[test]
    fn bad_sizes_are_errors() {
        assert_eq!(embed_tokens(&toks(&["a"]), 0, 1), Err(AttnError::ZeroModelWidth));
        assert_eq!(embed_tokens(&[], 4, 1), Err(AttnError::EmptySequence { which: "input" }));
    }
}
