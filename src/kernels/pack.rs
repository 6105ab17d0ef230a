//! The operands of the matrix product laid out for the micro-kernel: A in panels of MR rows,
//! B in strips of NR columns, padded with zeros. Packing reads each element once; a packed B
//! (the weights) is kept and reused by every product. Weights stored as int8 with a scale per
//! output column stay int8 in their strips (a quarter of the bytes to stream from memory, which
//! is what bounds a product of few rows) and are widened one strip at a time, each value to
//! exactly the f32 the dequantised matrix holds; so do weights with a scale per [`BLOCK`]
//! entries of each output row (ggml's 4-bit blocks, their values −8…7 kept as int8).

use super::{lanes, MR, NR};
use ndarray::{Array2, ArrayView2};

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
    strips: Strips,
}

/// The strips' numbers: f32, or int8 with one f32 scale per `block` rows of a column,
/// B[p, j] = q · scale[p / block, j] (per strip, its blocks' NR scales one block after
/// another): a block of all k rows for a Linear layer quantised per output row, [`BLOCK`] for
/// 4-bit blocks.
#[derive(Debug, Clone, PartialEq)]
enum Strips {
    F32(Vec<f32>),
    Int8 { data: Vec<i8>, scales: Vec<f32>, block: usize },
}

/// Entries of a row of W that share one scale in [`PackedB::from_block_rows`] (ggml's Q4_0).
pub const BLOCK: usize = 32;

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
        PackedB { k, n, strips: Strips::F32(data) }
    }

    /// B = Wᵀ (k × n) for W (n × k) stored as int8 rows, W[j, p] = `data[j·k + p]` · `scales[j]`
    /// (a PyTorch Linear's (out, in) weight quantised per output row). None if the lengths are
    /// not n · k and n.
    pub fn from_int8_rows(n: usize, k: usize, scales: &[f32], data: &[i8]) -> Option<Self> {
        (scales.len() == n && data.len() == n * k).then(|| Self::scaled(n, k, k.max(1), scales, data))
    }

    /// B = Wᵀ (k × n) for W (n × k) stored as int8 with a scale per [`BLOCK`] entries of a
    /// row, W[j, p] = `data[j·k + p]` · `scales[j·(k / BLOCK) + p / BLOCK]` (a 4-bit model
    /// file's blocks: a quarter of the f32 matrix's bytes, plus an eighth for the scales). None
    /// if k is not a multiple of [`BLOCK`] or the lengths are not n · k and n · k / BLOCK.
    pub fn from_block_rows(n: usize, k: usize, scales: &[f32], data: &[i8]) -> Option<Self> {
        let whole = k.is_multiple_of(BLOCK) && scales.len() == n * (k / BLOCK) && data.len() == n * k;
        whole.then(|| Self::scaled(n, k, BLOCK, scales, data))
    }

    /// W (n × k) int8, row-major, with a scale per `block` (≥ 1) entries of a row (`scales`
    /// row-major, ⌈k / block⌉ a row; the lengths checked), as B = Wᵀ in strips of NR columns,
    /// zero columns past n.
    fn scaled(n: usize, k: usize, block: usize, scales: &[f32], data: &[i8]) -> Self {
        let (width, per_row) = (n.div_ceil(NR) * NR, k.div_ceil(block));
        let mut packed = vec![0i8; width * k];
        let mut packed_scales = vec![0.0f32; width * per_row];
        for j in 0..n {
            let strip = &mut packed[(j / NR) * k * NR..(j / NR + 1) * k * NR];
            for (p, q) in data[j * k..(j + 1) * k].iter().enumerate() {
                strip[p * NR + j % NR] = *q;
            }
            for b in 0..per_row {
                packed_scales[((j / NR) * per_row + b) * NR + j % NR] = scales[j * per_row + b];
            }
        }
        PackedB { k, n, strips: Strips::Int8 { data: packed, scales: packed_scales, block } }
    }

    /// (k, n).
    pub fn dim(&self) -> (usize, usize) {
        (self.k, self.n)
    }

    /// B itself, (k, n), exactly as packed: the f32 values, or the int8 ones widened.
    pub fn unpacked(&self) -> Array2<f32> {
        let mut b = Array2::zeros((self.k, self.n));
        let mut scratch = Vec::new();
        for s in 0..self.strip_count() {
            let (strip, j0) = (self.strip(s, &mut scratch), s * NR);
            let width = NR.min(self.n - j0);
            for (mut row, values) in b.rows_mut().into_iter().zip(strip.chunks_exact(NR)) {
                for (jj, v) in values.iter().take(width).enumerate() {
                    row[j0 + jj] = *v;
                }
            }
        }
        b
    }

    /// How many strips of NR columns.
    pub(super) fn strip_count(&self) -> usize {
        self.n.div_ceil(NR)
    }

    /// Strip `s` (k × NR) as f32: borrowed, or widened from int8 into `scratch` (a block's
    /// rows at a time where each block has its scales).
    pub(super) fn strip<'a>(&'a self, s: usize, scratch: &'a mut Vec<f32>) -> &'a [f32] {
        let len = self.k * NR;
        match &self.strips {
            Strips::F32(data) => &data[s * len..(s + 1) * len],
            Strips::Int8 { data, scales, block } => {
                scratch.resize(len, 0.0);
                let (rows, per_row) = (block * NR, self.k.div_ceil(*block));
                let data = &data[s * len..(s + 1) * len];
                let scales = &scales[s * per_row * NR..(s + 1) * per_row * NR];
                for ((q, out), scale) in data.chunks(rows).zip(scratch.chunks_mut(rows)).zip(scales.chunks_exact(NR)) {
                    if let Ok(scale) = <&[f32; NR]>::try_from(scale) {
                        lanes::widen(q, scale, out);
                    }
                }
                scratch
            }
        }
    }
}
