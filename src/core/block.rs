//! What a Transformer layer does around its attention, written once for every model: the
//! residual sum, an optional LayerNorm after it, an optional two-layer MLP (GELU as BERT has
//! it, ReLU as the training view's model has it) with its own residual sum and LayerNorm.
//! Generic over f32 (the lesson's models) and f64 (training), see [`Real`].
//!
//! - post-LayerNorm BERT (all-MiniLM-L6-v2): a = LN(x + attn), out = LN(a + FFN(a));
//! - the learner's model: a = x + attn, out = a + MLP(a) (or a without its MLP).

use super::real::Real;
use ndarray::{Array1, Array2, ArrayView2};

/// LayerNorm over the last axis: y = (x − mean) / √(var + eps) · gamma + beta.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerNorm<F: Real> {
    /// (d)
    pub gamma: Array1<F>,
    /// (d)
    pub beta: Array1<F>,
    pub eps: F,
}

impl<F: Real> LayerNorm<F> {
    /// Normalise each row of `x` (n, d) in place.
    pub fn apply(&self, x: &mut Array2<F>) {
        let d = F::of(x.ncols() as f64);
        for mut row in x.rows_mut() {
            let mean = row.sum() / d;
            let var = row.iter().fold(F::zero(), |s, &v| s + (v - mean) * (v - mean)) / d;
            let inv = F::one() / (var + self.eps).sqrt();
            for ((v, &g), &b) in row.iter_mut().zip(&self.gamma).zip(&self.beta) {
                *v = (*v - mean) * inv * g + b;
            }
        }
    }
}

/// y = x · W + b: W (d_in, d_out) kept for the product, b (1, d_out).
#[derive(Debug, Clone, PartialEq)]
pub struct Dense<F: Real> {
    pub weight: F::Kept,
    /// (1, d_out), added to every row.
    pub bias: Array2<F>,
}

impl<F: Real> Dense<F> {
    /// A layer of `weight` (d_in, d_out) and `bias` (d_out).
    pub fn new(weight: ArrayView2<F>, bias: Array1<F>) -> Self {
        Self::kept(F::keep(weight), bias)
    }

    /// A layer of a weight already kept for products (such as int8 strips) and `bias` (d_out).
    pub fn kept(weight: F::Kept, bias: Array1<F>) -> Self {
        let d_out = bias.len();
        Self { weight, bias: bias.into_shape_with_order((1, d_out)).unwrap_or_default() }
    }

    /// (n, d_in) → (n, d_out).
    pub fn apply(&self, x: ArrayView2<F>) -> Array2<F> {
        F::times(x, &self.weight) + &self.bias
    }
}

/// The MLP's nonlinearity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activation {
    /// max(0, x).
    Relu,
    /// x · Φ(x), with erf (not the tanh approximation), as BERT uses it: within 1e-7·(1 + |x|)
    /// in f32 (the kernels' vectorised erfc), 1.2e-7 relative in f64.
    Gelu,
}

impl Activation {
    /// Apply in place.
    pub fn apply<F: Real>(self, x: &mut Array2<F>) {
        match self {
            Activation::Relu => x.mapv_inplace(|v| v.max(F::zero())),
            Activation::Gelu => match x.as_slice_memory_order_mut() {
                Some(values) => F::gelu_all(values),
                None => x.mapv_inplace(|v| {
                    let mut one = [v];
                    F::gelu_all(&mut one);
                    one[0]
                }),
            },
        }
    }
}

/// A two-layer network applied to every token: down(activation(up(x))).
#[derive(Debug, Clone, PartialEq)]
pub struct Mlp<F: Real> {
    /// d → f.
    pub up: Dense<F>,
    /// f → d.
    pub down: Dense<F>,
    pub activation: Activation,
}

/// What a block computed after attention, for the views and for the backward pass.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockTrace<F: Real> {
    /// x + attention output, normalised if the block normalises there: (n, d).
    pub attended: Array2<F>,
    /// The MLP's hidden activations, after its nonlinearity (n, f), if it has an MLP.
    pub hidden: Option<Array2<F>>,
    /// The layer's output, the next layer's input: (n, d).
    pub output: Array2<F>,
}

/// The residual path of one layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Block<F: Real> {
    /// LayerNorm after the attention's residual sum (post-norm), if any.
    pub attention_norm: Option<LayerNorm<F>>,
    pub mlp: Option<Mlp<F>>,
    /// LayerNorm after the MLP's residual sum, if any.
    pub mlp_norm: Option<LayerNorm<F>>,
}

impl<F: Real> Block<F> {
    /// No MLP, no normalisation: the layer's output is x + attention.
    pub const fn residual_only() -> Self {
        Self { attention_norm: None, mlp: None, mlp_norm: None }
    }

    /// The layer's work after attention: `x` its input and `attention` its attention output,
    /// both (n, d). (A product that overflows gives infinities, which the caller checks for.)
    pub fn forward(&self, x: &Array2<F>, attention: &Array2<F>) -> BlockTrace<F> {
        let mut attended = x + attention;
        if let Some(norm) = &self.attention_norm {
            norm.apply(&mut attended);
        }
        let Some(mlp) = &self.mlp else {
            let output = attended.clone();
            return BlockTrace { attended, hidden: None, output };
        };
        let mut hidden = mlp.up.apply(attended.view());
        mlp.activation.apply(&mut hidden);
        let mut output = mlp.down.apply(hidden.view()) + &attended;
        if let Some(norm) = &self.mlp_norm {
            norm.apply(&mut output);
        }
        BlockTrace { attended, hidden: Some(hidden), output }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::erf;
    use ndarray::array;

    #[test]
    fn erf_matches_known_values() {
        for (x, want) in [(0.0, 0.0), (0.5, 0.520_499_9), (1.0, 0.842_700_8), (2.0, 0.995_322_3), (-1.0, -0.842_700_8)]
        {
            assert!((erf(x) - want).abs() < 2e-7, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn layer_norm_gives_zero_mean_unit_variance_rows() {
        let ln = LayerNorm { gamma: Array1::ones(4), beta: Array1::zeros(4), eps: 1e-12f32 };
        let mut x = array![[1.0f32, 2.0, 3.0, 4.0], [10.0, 10.0, 10.0, 14.0]];
        ln.apply(&mut x);
        for row in x.rows() {
            assert!(row.sum().abs() < 1e-5);
            assert!((row.iter().map(|v| v * v).sum::<f32>() / 4.0 - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn gelu_is_x_times_the_normal_cdf() {
        let mut x = array![[-3.0f32, -1.0, 0.0, 1.0, 3.0]];
        Activation::Gelu.apply(&mut x);
        let want = [-0.004_049_7, -0.158_655_3, 0.0, 0.841_344_7, 2.995_950_3];
        for (g, w) in x.iter().zip(want) {
            assert!((g - w).abs() < 1e-6, "{g} vs {w}");
        }
        // The f32 path (the kernels) and the f64 one (`real::erf`) agree over the range BERT's
        // hidden values take, in column-major order too.
        let wide = Array2::from_shape_fn((4, 2001), |(r, i)| (r as f32 - 1.5) + (i as f32 - 1000.0) / 100.0);
        let (mut f32s, mut f64s) = (wide.clone().reversed_axes(), wide.mapv(f64::from));
        Activation::Gelu.apply(&mut f32s);
        Activation::Gelu.apply(&mut f64s);
        for (g, w) in f32s.reversed_axes().iter().zip(&f64s) {
            assert!((*g as f64 - w).abs() < 3e-7 * (1.0 + w.abs()), "{g} vs {w}");
        }
    }

    /// x = [1, −2], attention [1, 1]: a = [2, −1]; ReLU(a·I) = [2, 0]; out = a + [2, 0]·I = [4, −1],
    /// the same in f32 and f64.
    #[test]
    fn the_residual_path_adds_what_each_part_computes() {
        fn block<F: Real>() -> Block<F> {
            let eye = Array2::<F>::eye(2);
            let dense = || Dense::new(eye.view(), Array1::zeros(2));
            Block {
                attention_norm: None,
                mlp: Some(Mlp { up: dense(), down: dense(), activation: Activation::Relu }),
                mlp_norm: None,
            }
        }
        let out = block::<f32>().forward(&array![[1.0, -2.0]], &array![[1.0, 1.0]]);
        assert_eq!((out.attended, out.output), (array![[2.0, -1.0]], array![[4.0, -1.0]]));
        let out = block::<f64>().forward(&array![[1.0, -2.0]], &array![[1.0, 1.0]]);
        assert_eq!(out.hidden, Some(array![[2.0, 0.0]]));
    }
}
