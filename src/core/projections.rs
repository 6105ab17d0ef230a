//! The four projection matrices of multi-head attention, seeded or supplied by the caller.

use super::error::AttnError;
use super::kernels::PackedB;
use super::rng::SplitMix64;
use ndarray::{Array1, Array2};
use std::sync::OnceLock;

/// W_Q, W_K, W_V, W_O, each (d_model, d_model), and optionally their biases (a trained model
/// has them; seeded weights do not): Q = X · W_Q + b_Q. Each matrix is kept as a matrix to
/// show and packed for the matrix product (a projection packs only its input), each form made
/// from the other when first asked for: a page that only shows the weights (a pretrained
/// model's frame) never packs them, and a worker that only multiplies with a model file's
/// strips never holds them as f32 matrices.
#[derive(Debug, Clone)]
pub struct Projections {
    /// W_Q, W_K, W_V, W_O as matrices (at least one of the two forms is set).
    matrices: OnceLock<[Array2<f32>; 4]>,
    /// W_Q, W_K, W_V, W_O packed, in that order.
    packed: OnceLock<[PackedB; 4]>,
    /// b_Q, b_K, b_V, b_O, each (d_model), if any.
    pub biases: Option<[Array1<f32>; 4]>,
    d_model: usize,
}

impl PartialEq for Projections {
    /// The same weights and biases (the packed strips hold the same numbers as the matrices).
    /// The same projections (a model's layer met twice) are equal without unpacking either.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other) || (self.matrices(), &self.biases) == (other.matrices(), &other.biases)
    }
}

impl Projections {
    /// Glorot-uniform weights fixed by `seed`: entries ~ U(-a, a) with a = √(6 / (d_model + d_model)).
    ///
    /// Why Glorot: Var(W) = a²/3 = 1/d_model, so for unit-variance X every entry of Q, K and V has
    /// variance ≈ 1 — exactly the setting of the "why divide by √d_k" argument.
    pub fn seeded(d_model: usize, seed: u64) -> Result<Self, AttnError> {
        if d_model == 0 {
            return Err(AttnError::ZeroModelWidth);
        }
        // A stream of its own, so changing the embedding scheme never changes the weights.
        let mut rng = SplitMix64::new(seed ^ 0x005E_ED0F_A77E_u64);
        let a = (6.0 / (2.0 * d_model as f32)).sqrt();
        let mut matrix = || Array2::from_shape_fn((d_model, d_model), |_| rng.symmetric(a));
        let matrices = [(); 4].map(|()| matrix());
        Ok(Self { matrices: OnceLock::from(matrices), packed: OnceLock::new(), biases: None, d_model })
    }

    /// Caller-supplied matrices, each checked to be (d_model, d_model) and finite.
    pub fn from_matrices(
        w_q: Array2<f32>,
        w_k: Array2<f32>,
        w_v: Array2<f32>,
        w_o: Array2<f32>,
    ) -> Result<Self, AttnError> {
        check_square([&w_q, &w_k, &w_v, &w_o])?;
        let d_model = w_q.nrows();
        Ok(Self { matrices: OnceLock::from([w_q, w_k, w_v, w_o]), packed: OnceLock::new(), biases: None, d_model })
    }

    /// Weights already packed (such as a model file's int8 strips), each (d_model, d_model): the
    /// matrices are read back from them when asked for, so what is shown is exactly what
    /// multiplies (checked here, then let go until then).
    pub fn from_packed(packed: [PackedB; 4]) -> Result<Self, AttnError> {
        let [w_q, w_k, w_v, w_o] = packed.each_ref().map(PackedB::unpacked);
        check_square([&w_q, &w_k, &w_v, &w_o])?;
        let d_model = w_q.nrows();
        Ok(Self { matrices: OnceLock::new(), packed: OnceLock::from(packed), biases: None, d_model })
    }

    /// These weights with biases b_Q, b_K, b_V, b_O, each checked to be (d_model) and finite.
    pub fn with_biases(mut self, biases: [Array1<f32>; 4]) -> Result<Self, AttnError> {
        let d_model = self.d_model();
        for (what, b) in ["b_Q", "b_K", "b_V", "b_O"].into_iter().zip(&biases) {
            if b.len() != d_model {
                return Err(AttnError::Shape { what, expected: format!("{d_model}"), given: (b.len(), 1) });
            }
            if let Some(col) = b.iter().position(|v| !v.is_finite()) {
                return Err(AttnError::NonFinite { what, row: 0, col });
            }
        }
        self.biases = Some(biases);
        Ok(self)
    }

    /// The bias of projection `which` (0 = Q, 1 = K, 2 = V, 3 = O), if any.
    pub fn bias(&self, which: usize) -> Option<&Array1<f32>> {
        self.biases.as_ref().and_then(|b| b.get(which))
    }

    /// W_Q, W_K, W_V and W_O packed for [`matmul_packed`](super::kernels::matmul_packed).
    pub fn packed(&self) -> &[PackedB; 4] {
        self.packed.get_or_init(|| self.matrices().each_ref().map(|w| PackedB::new(w.view())))
    }

    /// W_Q, W_K, W_V and W_O as matrices, each (d_model, d_model).
    pub fn matrices(&self) -> &[Array2<f32>; 4] {
        self.matrices.get_or_init(|| self.packed().each_ref().map(PackedB::unpacked))
    }

    /// W_Q (d_model, d_model).
    pub fn w_q(&self) -> &Array2<f32> {
        &self.matrices()[0]
    }

    /// W_K (d_model, d_model).
    pub fn w_k(&self) -> &Array2<f32> {
        &self.matrices()[1]
    }

    /// W_V (d_model, d_model).
    pub fn w_v(&self) -> &Array2<f32> {
        &self.matrices()[2]
    }

    /// W_O (d_model, d_model).
    pub fn w_o(&self) -> &Array2<f32> {
        &self.matrices()[3]
    }

    /// The model width these weights were made for.
    pub fn d_model(&self) -> usize {
        self.d_model
    }
}

/// `Err` unless W_Q, W_K, W_V, W_O are all (d_model, d_model), d_model > 0, and finite.
fn check_square(weights: [&Array2<f32>; 4]) -> Result<(), AttnError> {
    let d_model = weights[0].nrows();
    if d_model == 0 {
        return Err(AttnError::ZeroModelWidth);
    }
    for (what, w) in ["W_Q", "W_K", "W_V", "W_O"].into_iter().zip(weights) {
        check_shape(what, w, d_model, d_model)?;
        check_finite(what, w)?;
    }
    Ok(())
}

/// `Err` unless `m` is (rows, cols).
pub(crate) fn check_shape(what: &'static str, m: &Array2<f32>, rows: usize, cols: usize) -> Result<(), AttnError> {
    if m.dim() != (rows, cols) {
        return Err(AttnError::Shape { what, expected: format!("{rows} × {cols}"), given: m.dim() });
    }
    Ok(())
}

/// `Err` naming the first NaN or ±∞ in `m`.
pub(crate) fn check_finite(what: &'static str, m: &Array2<f32>) -> Result<(), AttnError> {
    // The quick pass first (over the memory in order when it is one block); only a failure
    // needs the position.
    let finite = match m.as_slice_memory_order() {
        Some(values) => values.iter().all(|v| v.is_finite()),
        None => m.iter().all(|v| v.is_finite()),
    };
    if finite {
        return Ok(());
    }
    match m.indexed_iter().find(|(_, v)| !v.is_finite()) {
        Some(((row, col), _)) => Err(AttnError::NonFinite { what, row, col }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_is_deterministic_and_glorot_scaled() {
        let a = Projections::seeded(64, 9).unwrap();
        assert_eq!(a, Projections::seeded(64, 9).unwrap());
        assert_ne!(a.w_q(), a.w_k());
        let var = a.w_q().iter().map(|v| v * v).sum::<f32>() / a.w_q().len() as f32;
        // Var should be 1/64 = 0.0156; 4096 samples give a standard error of about 4%.
        assert!((var * 64.0 - 1.0).abs() < 0.15, "var·d_model = {}", var * 64.0);
    }

    #[test]
    fn wrong_shaped_or_non_finite_weights_are_refused_by_name() {
        let ok = Array2::<f32>::eye(3);
        let bad = Array2::<f32>::zeros((3, 2));
        let err = Projections::from_matrices(ok.clone(), bad, ok.clone(), ok.clone()).unwrap_err();
        assert_eq!(err.to_string(), "W_K must be 3 × 3, got 3 × 2");
        let mut nan = ok.clone();
        nan[[1, 2]] = f32::NAN;
        let err = Projections::from_matrices(ok.clone(), ok.clone(), ok.clone(), nan).unwrap_err();
        assert_eq!(err, AttnError::NonFinite { what: "W_O", row: 1, col: 2 });
        assert_eq!(Projections::seeded(0, 1), Err(AttnError::ZeroModelWidth));
    }
}
