//! The padding mask: a batch of two sentences of different lengths runs as one (2, n, d_model)
//! tensor, so the shorter one is filled up with placeholder rows, and its keys there are
//! masked. The real tokens' outputs are then exactly what the sentence gives alone; the
//! padded rows' outputs are computed too, and thrown away by whatever reads the batch.

use super::attention::{run, AttentionConfig};
use super::error::AttnError;
use super::projections::Projections;
use super::trace::Trace;
use ndarray::{s, Array2};

/// The shorter sentence of a batch, padded, beside its run alone.
#[derive(Debug, Clone, PartialEq)]
pub struct Padded {
    /// The padded sentence's trace: (n, n) weights, the last `n − m` keys blocked.
    pub padded: Trace,
    /// Its m real tokens.
    pub real: usize,
    /// Largest |output| difference over the real rows between the padded run and the run alone
    /// (0 up to rounding: no real token can see a padded one).
    pub max_difference: f32,
}

/// `short` (m, d_model) padded with zero rows up to `length` ≥ m and run with those keys
/// masked, through the same `projections` and `cfg` (its key padding replaced); compared with
/// `short` run alone. Zero rows stand in for a [PAD] token's embedding: what they hold cannot
/// matter, since every key there is blocked.
pub fn pad_and_run(
    short: &Array2<f32>,
    length: usize,
    projections: &Projections,
    cfg: &AttentionConfig,
) -> Result<Padded, AttnError> {
    let (m, d) = short.dim();
    let length = length.max(m);
    let mut x = Array2::zeros((length, d));
    x.slice_mut(s![..m, ..]).assign(short);
    let padding: Vec<bool> = (0..length).map(|j| j >= m).collect();
    let padded = run(&x, None, projections, &AttentionConfig { key_padding: Some(padding), ..cfg.clone() })?;
    let alone = run(short, None, projections, &AttentionConfig { key_padding: None, ..cfg.clone() })?;
    let max_difference = padded
        .output
        .slice(s![..m, ..])
        .iter()
        .zip(alone.output.iter())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    Ok(Padded { padded, real: m, max_difference })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::Mask;
    use crate::rng::normal_matrix;

    #[test]
    fn the_real_rows_are_what_the_sentence_gives_alone_and_no_real_row_sees_a_pad() {
        let w = Projections::seeded(16, 3).unwrap();
        for mask in [Mask::None, Mask::Causal] {
            let cfg = AttentionConfig { n_heads: 2, mask, ..AttentionConfig::default() };
            let short = normal_matrix(3, 16, 5, 1);
            let p = pad_and_run(&short, 7, &w, &cfg).unwrap();
            assert_eq!((p.real, p.padded.n()), (3, (7, 7)));
            assert!(p.max_difference < 1e-5, "{mask:?}: {}", p.max_difference);
            for h in &p.padded.head_traces {
                for i in 0..7 {
                    assert!((3..7).all(|j| h.weights[(i, j)] == 0.0 && p.padded.blocked[(i, j)]), "row {i}");
                }
            }
        }
    }
}
