//! The operands of the matrix product laid out for the micro-kernel: A in panels of MR rows,
//! B in strips of NR columns, padded with zeros. Packing reads each element once; a packed B
//! (the weights) is kept and reused by every product.

use super::{MR, NR};
use ndarray::ArrayView2;

/// A (m × k) as ⌈m / MR⌉ panels of MR × k, each interleaved p-major (panel[p·MR + r] =
/// A[i0 + r, p]), zero rows past m.
#[derive(Debug, Clone, PartialEq)]
pub struct PackedA {
    m: usize,
    k: usize,
    data: Vec<f32>,
}

impl PackedA {
    /// Pack `a`, any strides.
    pub fn new(a: ArrayView2<f32>) -> Self {
        let (m, k) = a.dim();
        let mut data = vec![0.0f32; m.div_ceil(MR) * MR * k];
        for (i, row) in a.rows().into_iter().enumerate() {
            let panel = &mut data[(i / MR) * MR * k..(i / MR + 1) * MR * k];
            let r = i % MR;
            for (p, v) in row.iter().enumerate() {
                panel[p * MR + r] = *v;
            }
        }
        PackedA { m, k, data }
    }

    /// (m, k).
    pub fn dim(&self) -> (usize, usize) {
        (self.m, self.k)
    }

    /// The panels, top to bottom, each MR × k.
    pub(super) fn panels(&self) -> impl Iterator<Item = &[f32]> {
        self.data.chunks_exact((MR * self.k).max(1))
    }
}

/// B (k × n) as ⌈n / NR⌉ strips of k × NR (row-major within a strip), zero columns past n.
#[derive(Debug, Clone, PartialEq)]
pub struct PackedB {
    k: usize,
    n: usize,
    data: Vec<f32>,
}

impl PackedB {
    /// Pack `b`, any strides: whole rows are copied when B's rows are contiguous, whole columns
    /// when its columns are (a transposed view such as Kᵀ).
    pub fn new(b: ArrayView2<f32>) -> Self {
        let (k, n) = b.dim();
        let mut data = vec![0.0f32; n.div_ceil(NR) * k * NR];
        let strides = b.strides();
        for (s, strip) in data.chunks_exact_mut((k * NR).max(1)).enumerate() {
            let (j0, width) = (s * NR, NR.min(n - s * NR));
            if strides[1] == 1 {
                for (p, dst) in strip.chunks_exact_mut(NR).enumerate() {
                    if let Some(src) = b.row(p).to_slice() {
                        dst[..width].copy_from_slice(&src[j0..j0 + width]);
                    }
                }
            } else if strides[0] == 1 {
                for jj in 0..width {
                    if let Some(col) = b.column(j0 + jj).to_slice() {
                        for (p, v) in col.iter().enumerate() {
                            strip[p * NR + jj] = *v;
                        }
                    }
                }
            } else {
                for (p, dst) in strip.chunks_exact_mut(NR).enumerate() {
                    for (jj, slot) in dst.iter_mut().take(width).enumerate() {
                        *slot = b[[p, j0 + jj]];
                    }
                }
            }
        }
        PackedB { k, n, data }
    }

    /// (k, n).
    pub fn dim(&self) -> (usize, usize) {
        (self.k, self.n)
    }

    /// The strips, left to right, each k × NR.
    pub(super) fn strips(&self) -> impl Iterator<Item = &[f32]> {
        self.data.chunks_exact((self.k * NR).max(1))
    }
}
