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

/// The strips' numbers: f32, or int8 with one f32 scale per column (B[p, j] = q · scale[j]),
/// or int8 with one scale per [`BLOCK`] rows of a column (B[p, j] = q · scale[p / BLOCK, j];
/// per strip, its blocks' NR scales one block after another).
#[derive(Debug, Clone, PartialEq)]
enum Strips {
    F32(Vec<f32>),
    Int8 { data: Vec<i8>, scales: Vec<f32> },
    Blocks { data: Vec<i8>, scales: Vec<f32> },
}

/// Entries of a row of W that share one scale in [`PackedB::from_block_rows`] (ggml's Q4_0).
pub const BLOCK: usize = 32;

/// W (n × k) int8, row-major, as B = Wᵀ in strips of NR columns (zero columns past n).
fn int8_strips(n: usize, k: usize, data: &[i8]) -> Vec<i8> {
    let mut packed = vec![0i8; n.div_ceil(NR) * NR * k];
    for (j, row) in data.chunks_exact(k.max(1)).enumerate().take(n) {
        let strip = &mut packed[(j / NR) * k * NR..(j / NR + 1) * k * NR];
        for (p, q) in row.iter().enumerate() {
            strip[p * NR + j % NR] = *q;
        }
    }
    packed
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
        PackedB { k, n, strips: Strips::F32(data) }
    }

    /// B = Wᵀ (k × n) for W (n × k) stored as int8 rows, W[j, p] = `data[j·k + p]` · `scales[j]`
    /// (a PyTorch Linear's (out, in) weight quantised per output row). None if the lengths are
    /// not n · k and n.
    pub fn from_int8_rows(n: usize, k: usize, scales: &[f32], data: &[i8]) -> Option<Self> {
        if scales.len() != n || data.len() != n * k {
            return None;
        }
        let mut padded = scales.to_vec();
        padded.resize(n.div_ceil(NR) * NR, 0.0);
        Some(PackedB { k, n, strips: Strips::Int8 { data: int8_strips(n, k, data), scales: padded } })
    }

    /// B = Wᵀ (k × n) for W (n × k) stored as int8 with a scale per [`BLOCK`] entries of a
    /// row, W[j, p] = `data[j·k + p]` · `scales[j·(k / BLOCK) + p / BLOCK]` (a 4-bit model
    /// file's blocks: a quarter of the f32 matrix's bytes, plus an eighth for the scales). None
    /// if k is not a multiple of [`BLOCK`] or the lengths are not n · k and n · k / BLOCK.
    pub fn from_block_rows(n: usize, k: usize, scales: &[f32], data: &[i8]) -> Option<Self> {
        let blocks = k / BLOCK;
        if !k.is_multiple_of(BLOCK) || scales.len() != n * blocks || data.len() != n * k {
            return None;
        }
        let mut packed = vec![0.0f32; n.div_ceil(NR) * NR * blocks];
        for (j, row) in scales.chunks_exact(blocks.max(1)).enumerate().take(n) {
            for (b, scale) in row.iter().enumerate() {
                packed[((j / NR) * blocks + b) * NR + j % NR] = *scale;
            }
        }
        Some(PackedB { k, n, strips: Strips::Blocks { data: int8_strips(n, k, data), scales: packed } })
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
            Strips::Int8 { data, scales } => {
                scratch.resize(len, 0.0);
                if let Ok(scale) = <&[f32; NR]>::try_from(&scales[s * NR..(s + 1) * NR]) {
                    lanes::widen(&data[s * len..(s + 1) * len], scale, scratch);
                }
                scratch
            }
            Strips::Blocks { data, scales } => {
                scratch.resize(len, 0.0);
                let (rows, blocks) = (BLOCK * NR, self.k / BLOCK);
                let data = &data[s * len..(s + 1) * len];
                let scales = &scales[s * blocks * NR..(s + 1) * blocks * NR];
                for ((q, out), scale) in
                    data.chunks_exact(rows).zip(scratch.chunks_exact_mut(rows)).zip(scales.chunks_exact(NR))
                {
                    if let Ok(scale) = <&[f32; NR]>::try_from(scale) {
                        lanes::widen(q, scale, out);
                    }
                }
                scratch
            }
        }
    }
}
