//! The matrix product in f64, for training: small matrices (a sequence's rows times a layer's
//! weights, often through a transposed view), where a general product's packing and edge
//! handling cost more than the arithmetic. In the browser: A read one number at a time at any
//! strides, B in row-major order (copied if it is a transposed view), two rows of C by eight
//! columns in eight two-lane accumulators while p runs, so each entry is summed in the
//! definition's order, p = 0, 1, …; natively, ndarray's product (the native tests' speed; the
//! browser tests check this one).

use ndarray::{Array2, ArrayView2};

/// C = A · B: (m, k) · (k, n) → (m, n), for any strides of either.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub fn matmul_f64(a: ArrayView2<f64>, b: ArrayView2<f64>) -> Array2<f64> {
    a.dot(&b)
}

/// C = A · B: (m, k) · (k, n) → (m, n), for any strides of either.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub fn matmul_f64(a: ArrayView2<f64>, b: ArrayView2<f64>) -> Array2<f64> {
    let ((m, k), (k2, n)) = (a.dim(), b.dim());
    assert_eq!(k, k2, "matmul_f64: inner dimensions differ"); // a bug in the core, never user input
    let mut c = Array2::zeros((m, n));
    let b = row_major(b);
    // A is read one number at a time, so any strides do; ndarray's strides of a non-empty
    // view are within its allocation.
    let strides = (a.strides()[0], a.strides()[1]);
    if let Some(out) = c.as_slice_mut() {
        if m > 0 && n > 0 && k > 0 {
            lanes::product(a, strides, &b, out, (m, k, n));
        }
    }
    c
}

/// B's numbers in row-major order: borrowed when they already are, else copied (a transposed
/// view such as Wᵀ is copied from its rows, which are B's columns).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn row_major(b: ArrayView2<'_, f64>) -> std::borrow::Cow<'_, [f64]> {
    use std::borrow::Cow;
    if let Some(values) = b.to_slice() {
        return Cow::Borrowed(values);
    }
    let (k, n) = b.dim();
    let mut out = vec![0.0; k * n];
    for (j, column) in b.columns().into_iter().enumerate() {
        match column.to_slice() {
            Some(values) => values.iter().enumerate().for_each(|(p, v)| out[p * n + j] = *v),
            None => column.iter().enumerate().for_each(|(p, v)| out[p * n + j] = *v),
        }
    }
    Cow::Owned(out)
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod lanes {
    use core::arch::wasm32::*;
    use ndarray::ArrayView2;

    /// Columns of C per block: four two-lane vectors.
    const WIDTH: usize = 8;

    /// out (m × n) = a (m × k, any strides) · b (k × n, row-major).
    pub fn product(
        a: ArrayView2<f64>,
        (rs, cs): (isize, isize),
        b: &[f64],
        out: &mut [f64],
        (m, k, n): (usize, usize, usize),
    ) {
        assert!(a.dim() == (m, k) && b.len() >= k * n && out.len() >= m * n); // once, never fails
        let blocks = n / WIDTH;
        let mut i = 0;
        while i < m {
            let rows = (m - i).min(2);
            for block in 0..blocks {
                let j0 = block * WIDTH;
                // SAFETY: A's rows i, i + rows − 1 < m and columns < k are elements of the view
                // (its strides rs, cs); columns j0..j0 + 8 ≤ n of b's k rows are in bounds, as
                // are those of out's rows i.. (checked above); the loads and stores are unaligned.
                unsafe {
                    let first = a.as_ptr().offset(i as isize * rs);
                    two_rows(first, (rs, cs), b.as_ptr().add(j0), out.as_mut_ptr().add(i * n + j0), rows, k, n)
                };
            }
            for r in i..i + rows {
                for j in blocks * WIDTH..n {
                    out[r * n + j] = (0..k).fold(0.0, |sum, p| sum + a[[r, p]] * b[p * n + j]);
                }
            }
            i += rows;
        }
    }

    /// C[0..rows, 0..8] = A[0..rows, ..] · B[.., 0..8] for one or two rows, C's stride n.
    ///
    /// # Safety
    /// `a` must hold `rows` rows of k at strides (rs, cs), `b` k rows of stride n with 8
    /// columns, `c` `rows` rows of stride n with 8 columns.
    #[inline(always)]
    unsafe fn two_rows(
        a: *const f64,
        (rs, cs): (isize, isize),
        b: *const f64,
        c: *mut f64,
        rows: usize,
        k: usize,
        n: usize,
    ) {
        let mut top = [f64x2_splat(0.0); 4];
        let mut bottom = [f64x2_splat(0.0); 4];
        let second = if rows == 2 { a.offset(rs) } else { a };
        for p in 0..k {
            let row = b.add(p * n);
            let parts = [0, 2, 4, 6].map(|q| v128_load(row.add(q) as *const v128));
            let at = p as isize * cs;
            let (x, y) =
                (v128_load64_splat(a.offset(at) as *const u64), v128_load64_splat(second.offset(at) as *const u64));
            for q in 0..4 {
                top[q] = f64x2_add(top[q], f64x2_mul(x, parts[q]));
                bottom[q] = f64x2_add(bottom[q], f64x2_mul(y, parts[q]));
            }
        }
        for (q, v) in top.into_iter().enumerate() {
            v128_store(c.add(2 * q) as *mut v128, v);
        }
        if rows == 2 {
            for (q, v) in bottom.into_iter().enumerate() {
                v128_store(c.add(n + 2 * q) as *mut v128, v);
            }
        }
    }
}
