//! Turning tokens into the input matrix X: a seeded embedding per token string, plus the
//! sinusoidal positional encoding of the original Transformer.

use super::error::AttnError;
use super::rng::{hash_str, SplitMix64};
use ndarray::Array2;

/// Embeddings for `tokens`: (n, d_model), entries ~ N(0, 1).
///
/// The vector depends only on the token string and `seed`, so "the" gets the same row wherever
/// it appears (and only the positional encoding tells the two apart).
pub fn embed_tokens(tokens: &[String], d_model: usize, seed: u64) -> Result<Array2<f32>, AttnError> {
    if d_model == 0 {
        return Err(AttnError::ZeroModelWidth);
    }
    if tokens.is_empty() {
        return Err(AttnError::EmptySequence { which: "input" });
    }
    let mut x = Array2::zeros((tokens.len(), d_model));
    for (mut row, token) in x.rows_mut().into_iter().zip(tokens) {
        let mut rng = SplitMix64::new(hash_str(token, seed));
        row.iter_mut().for_each(|v| *v = rng.normal());
    }
    Ok(x)
}

/// Sinusoidal positional encoding: (n, d_model).
///
/// PE[pos, 2i] = sin(pos / 10000^(2i/d_model)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d_model)).
pub fn positional_encoding(n: usize, d_model: usize) -> Array2<f32> {
    Array2::from_shape_fn((n, d_model), |(pos, j)| {
        let pair = (j / 2) as f64;
        let angle = pos as f64 / 10000f64.powf(2.0 * pair / d_model as f64);
        (if j % 2 == 0 { angle.sin() } else { angle.cos() }) as f32
    })
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
