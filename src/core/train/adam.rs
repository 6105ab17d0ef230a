//! Adam (Kingma & Ba, 2015): per-parameter steps from running means of the gradient and of its
//! square, with bias correction.

use super::model::Params;
use ndarray::Zip;

/// The optimiser's state for one model.
#[derive(Debug, Clone)]
pub struct Adam {
    pub learning_rate: f64,
    beta1: f64,
    beta2: f64,
    epsilon: f64,
    step: i32,
    m: Params,
    v: Params,
}

impl Adam {
    /// Adam with the usual β₁ = 0.9, β₂ = 0.999, ε = 1e-8 for the shapes of `params`.
    pub fn new(params: &Params, learning_rate: f64) -> Self {
        Self {
            learning_rate,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            step: 0,
            m: params.zeros_like(),
            v: params.zeros_like(),
        }
    }

    /// One step: move `params` against `grads`.
    pub fn update(&mut self, params: &mut Params, grads: &Params) {
        self.step += 1;
        let (b1, b2, eps) = (self.beta1, self.beta2, self.epsilon);
        let lr = self.learning_rate * (1.0 - b2.powi(self.step)).sqrt() / (1.0 - b1.powi(self.step));
        let g = grads.tensors();
        for (((p, m), v), (_, g)) in
            params.tensors_mut().into_iter().zip(self.m.tensors_mut()).zip(self.v.tensors_mut()).zip(g)
        {
            Zip::from(p).and(m).and(v).and(g).for_each(|p, m, v, &g| {
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *p -= lr * *m / (v.sqrt() + eps);
            });
        }
    }
}
