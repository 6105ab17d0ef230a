//! FlashAttention's idea on the CPU: attention computed tile by tile with the online softmax
//! (a running max and running sum per query, rescaled as each key tile arrives), never
//! building the n_q × n_kv matrix. The result equals the full computation; what changes is
//! the memory, which grows with the tile, not with n².

use super::kernels::matmul_t;
use super::trace::{HeadTrace, Trace};
use ndarray::{s, Array1, Array2, ArrayView2};

/// The state of one query tile after one key tile: what the animation shows.
#[derive(Debug, Clone, PartialEq)]
pub struct TileStep {
    /// Query rows and key columns of this tile (half-open ranges).
    pub rows: (usize, usize),
    pub cols: (usize, usize),
    /// Running max m_i of each row in the tile so far (−∞ before any allowed key).
    pub running_max: Vec<f32>,
    /// Running sum l_i = Σ exp(s_ij − m_i) so far.
    pub running_sum: Vec<f32>,
}

/// The tiled result.
#[derive(Debug, Clone, PartialEq)]
pub struct Tiled {
    /// (n_q, d_v), equal to softmax(S / divisor) · V up to rounding.
    pub output: Array2<f32>,
    /// One step per (query tile, key tile), in the order computed (empty unless recorded).
    pub steps: Vec<TileStep>,
    /// The most scores held at once: tile_q × tile_k, against n_q × n_kv for the full way.
    pub peak_scores: usize,
}

/// Attention of `q` (n_q, d) over `k` (n_kv, d) and `v` (n_kv, d_v), scores divided by
/// `divisor` (√d_k·T, or T without scaling); `blocked` (n_q, n_kv) is `true` where masked.
/// Tiles are `tile_q` queries by `tile_k` keys (0 is taken as 1). A row with no allowed key
/// gives a zero output row, as in the full computation.
pub fn tiled_attention(
    q: ArrayView2<f32>,
    k: ArrayView2<f32>,
    v: ArrayView2<f32>,
    blocked: &Array2<bool>,
    divisor: f32,
    (tile_q, tile_k): (usize, usize),
    record: bool,
) -> Tiled {
    let (n_q, n_kv, d_v) = (q.nrows(), k.nrows(), v.ncols());
    let (tile_q, tile_k) = (tile_q.max(1), tile_k.max(1));
    let mut output = Array2::zeros((n_q, d_v));
    let mut steps = Vec::new();
    for r0 in (0..n_q).step_by(tile_q) {
        let r1 = (r0 + tile_q).min(n_q);
        let rows = r1 - r0;
        let mut m = vec![f32::NEG_INFINITY; rows];
        let mut l = vec![0.0f32; rows];
        let mut acc = Array2::<f32>::zeros((rows, d_v));
        for c0 in (0..n_kv).step_by(tile_k) {
            let c1 = (c0 + tile_k).min(n_kv);
            // This tile's scores: (rows, c1 − c0), the only score block in memory.
            let scores = matmul_t(q.slice(s![r0..r1, ..]), k.slice(s![c0..c1, ..])) / divisor;
            for i in 0..rows {
                let allowed = |j: usize| !blocked[[r0 + i, c0 + j]];
                let tile_max =
                    (0..c1 - c0).filter(|&j| allowed(j)).map(|j| scores[[i, j]]).fold(f32::NEG_INFINITY, f32::max);
                let m_new = m[i].max(tile_max);
                if m_new == f32::NEG_INFINITY {
                    continue; // nothing allowed yet in this row
                }
                // Rescale what was summed under the old max (exp(−∞) = 0 on the first tile).
                let correction = (m[i] - m_new).exp();
                let mut row_acc = acc.row_mut(i);
                row_acc *= correction;
                l[i] *= correction;
                for j in (0..c1 - c0).filter(|&j| allowed(j)) {
                    let p = (scores[[i, j]] - m_new).exp();
                    l[i] += p;
                    row_acc.scaled_add(p, &v.row(c0 + j));
                }
                m[i] = m_new;
            }
            if record {
                steps.push(TileStep { rows: (r0, r1), cols: (c0, c1), running_max: m.clone(), running_sum: l.clone() });
            }
        }
        for (i, &sum) in l.iter().enumerate().filter(|(_, sum)| **sum > 0.0) {
            let normalised: Array1<f32> = acc.row(i).mapv(|a| a / sum);
            output.row_mut(r0 + i).assign(&normalised);
        }
    }
    Tiled { output, steps, peak_scores: tile_q.min(n_q) * tile_k.min(n_kv) }
}

/// One head run tile by tile, beside the full computation it must equal.
#[derive(Debug, Clone, PartialEq)]
pub struct TiledCheck {
    /// The tiled run, every step recorded.
    pub tiled: Tiled,
    /// Largest |tiled − full| over the head's output.
    pub max_error: f32,
}

/// `head` of `trace` computed in `tile` × `tile` tiles with the trace's own mask, scaling and
/// temperature, and compared with the head's output in the trace.
pub fn tile_head(trace: &Trace, head: &HeadTrace, tile: usize) -> TiledCheck {
    let tiled = tiled_attention(
        head.q.view(),
        head.k.view(),
        head.v.view(),
        &trace.blocked,
        trace.divisor(),
        (tile, tile),
        true,
    );
    let max_error = tiled.output.iter().zip(&head.output).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    TiledCheck { tiled, max_error }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::head;
    use crate::rng::normal_matrix;

    #[test]
    fn two_keys_by_hand() {
        // q·k = [0, ln 3] → weights 1/4, 3/4; one key per tile exercises the rescaling.
        let q = ndarray::arr2(&[[1.0f32]]);
        let k = ndarray::arr2(&[[0.0f32], [3f32.ln()]]);
        let v = ndarray::arr2(&[[4.0f32], [8.0]]);
        let t = tiled_attention(q.view(), k.view(), v.view(), &Array2::from_elem((1, 2), false), 1.0, (1, 1), true);
        assert!((t.output[[0, 0]] - 7.0).abs() < 1e-5, "1/4·4 + 3/4·8 = 7, got {}", t.output[[0, 0]]);
        assert_eq!(t.steps.len(), 2);
        assert_eq!(t.steps[0].running_max, vec![0.0]);
        assert!((t.steps[1].running_sum[0] - 4.0 / 3.0).abs() < 1e-5, "e^(0−ln3) + 1 = 4/3");
    }

    #[test]
    fn tiled_equals_full_for_many_shapes_and_tiles() {
        for (n_q, n_kv, d, causal) in
            [(1, 1, 1, false), (5, 7, 3, false), (16, 16, 8, true), (33, 20, 16, true), (64, 64, 32, false)]
        {
            let q = normal_matrix(n_q, d, 1, 1);
            let k = normal_matrix(n_kv, d, 1, 2);
            let v = normal_matrix(n_kv, d, 1, 3);
            let blocked = Array2::from_shape_fn((n_q, n_kv), |(i, j)| causal && j > i);
            let scale = (d as f32).sqrt();
            let full = head(q.view(), k.view(), v.view(), &blocked, scale, 1.0).unwrap();
            for (tq, tk) in [(1, 1), (2, 3), (4, 4), (8, 5), (64, 64), (100, 7)] {
                let t = tiled_attention(q.view(), k.view(), v.view(), &blocked, scale, (tq, tk), false);
                let err = t.output.iter().zip(&full.output).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
                assert!(err < 1e-5, "n_q {n_q} n_kv {n_kv} tiles {tq}×{tk}: max error {err}");
            }
        }
    }

    #[test]
    fn a_head_of_a_trace_tiles_with_the_traces_own_divisor() {
        use crate::attention::Mask;
        use crate::model::RunOptions;
        // Temperature and the causal mask must both reach the tiles, or the outputs differ.
        let options = RunOptions { mask: Mask::Causal, temperature: 0.3, ..RunOptions::default() };
        let trace = crate::model::random::sample_trace(&options);
        let head = trace.head(2).unwrap();
        let check = tile_head(&trace, head, 4);
        assert!(check.max_error < 1e-5, "max error {}", check.max_error);
        // 11 rows and 11 columns in tiles of 4: 3 × 3 steps.
        assert_eq!(check.tiled.steps.len(), 9);
        assert_eq!(check.tiled.peak_scores, 16);
    }

    #[test]
    fn a_row_with_nothing_allowed_is_zero() {
        let q = normal_matrix(2, 4, 1, 1);
        let blocked = ndarray::arr2(&[[true, true], [false, true]]);
        let t = tiled_attention(q.view(), q.view(), q.view(), &blocked, 2.0, (1, 1), false);
        assert!(t.output.row(0).iter().all(|x| *x == 0.0));
        assert_eq!(t.output.row(1), q.row(0));
    }
}
