//! The gradient of the loss with respect to every parameter, written out for this model and
//! checked against central finite differences (tests below): from the logits back through the
//! unembedding, each layer's MLP (if any), W_O, A·V, the causal softmax, the ÷√d_k scaling,
//! Q·Kᵀ (with K and V heads shared by groups of query heads, and the rotation of RoPE) and the
//! projections, the residual stream, and into the token and (learned) position embeddings.

use super::model::{Config, Forward, Params, Positions};
use crate::kernels::matmul_f64 as product;
use crate::rotary::rotate;
use ndarray::{s, Array2, Axis};

/// Add to `grads` the gradient for one sequence `tokens`, given its forward pass and the
/// gradient of the loss with respect to its logits (n, v).
pub fn accumulate(
    params: &Params,
    cfg: &Config,
    tokens: &[usize],
    fwd: &Forward,
    dlogits: &Array2<f64>,
    grads: &mut Params,
) {
    let dk = cfg.d_k();
    let c = if cfg.scaled { 1.0 / (dk as f64).sqrt() } else { 1.0 };
    grads.unembed += &product(fwd.out.t(), dlogits.view());
    let mut dx = product(dlogits.view(), params.unembed.t());
    for ((p, cache), g) in params.layers.iter().zip(&fwd.layers).zip(grads.layers.iter_mut()).rev() {
        // x_out = m + ReLU(m·W₁ + b₁)·W₂ + b₂: the residual passes dx through to m unchanged;
        // the ReLU passes the gradient where its output is positive.
        if let (Some(m), Some((mid, hidden)), Some(gm)) = (&p.block.mlp, &cache.mlp, &mut g.block.mlp) {
            gm.down.weight += &product(hidden.t(), dx.view());
            gm.down.bias += &dx.sum_axis(Axis(0)).insert_axis(Axis(0));
            let mut dh = product(dx.view(), m.down.weight.t());
            dh.zip_mut_with(hidden, |d, &h| {
                if h <= 0.0 {
                    *d = 0.0;
                }
            });
            gm.up.weight += &product(mid.t(), dh.view());
            gm.up.bias += &dh.sum_axis(Axis(0)).insert_axis(Axis(0));
            dx = dx + product(dh.view(), m.up.weight.t());
        }
        // m = x + concat · W_O: the residual passes dx through unchanged.
        g.wo += &product(cache.concat.t(), dx.view());
        let dconcat = product(dx.view(), p.wo.t());
        let (mut dq, mut dk_, mut dv) =
            (Array2::zeros(cache.q.dim()), Array2::zeros(cache.k.dim()), Array2::zeros(cache.v.dim()));
        for (h, a) in cache.weights.iter().enumerate() {
            let cols = s![.., h * dk..(h + 1) * dk];
            // The K/V head it reads, shared with the other query heads of its group: their
            // gradients add up there.
            let kv = s![.., cfg.group(h) * dk..(cfg.group(h) + 1) * dk];
            let dout = dconcat.slice(cols);
            // O_h = A · V_g
            let da = product(dout, cache.v.slice(kv).t());
            let mut dv_g = dv.slice_mut(kv);
            dv_g += &product(a.t(), dout);
            // Softmax, row by row: dS = A ⊙ (dA − Σ_j A_ij dA_ij); masked entries have A = 0.
            let inner = (&da * a).sum_axis(Axis(1)).insert_axis(Axis(1));
            let ds = a * &(&da - &inner) * c;
            // S = c · Q_h K_gᵀ (c folded in above).
            dq.slice_mut(cols).assign(&product(ds.view(), cache.k.slice(kv)));
            let mut dk_g = dk_.slice_mut(kv);
            dk_g += &product(ds.t(), cache.q.slice(cols));
        }
        // Under RoPE the scores saw Q and K rotated: a rotation's transpose takes the gradient
        // back to the projections' outputs.
        if cfg.positions == Positions::Rotary {
            rotate(&mut dq, dk, 0, true);
            rotate(&mut dk_, dk, 0, true);
        }
        g.wq += &product(cache.x.t(), dq.view());
        g.wk += &product(cache.x.t(), dk_.view());
        g.wv += &product(cache.x.t(), dv.view());
        dx = dx + product(dq.view(), p.wq.t()) + product(dk_.view(), p.wk.t()) + product(dv.view(), p.wv.t());
    }
    for (i, &t) in tokens.iter().enumerate() {
        let row = dx.row(i);
        let mut e = grads.embed.row_mut(t);
        e += &row;
        // Only learned positions are parameters.
        if cfg.positions == Positions::Learned {
            let mut pos = grads.pos.row_mut(i);
            pos += &row;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::{cross_entropy, forward};
    use super::super::tasks::Example;
    use super::*;

    /// The loss of `params` on a fixed little batch.
    fn loss(params: &Params, cfg: &Config, batch: &[Example]) -> f64 {
        let total: usize = batch.iter().map(|(_, t)| t.len()).sum();
        batch
            .iter()
            .map(|(tokens, targets)| cross_entropy(&forward(params, cfg, tokens).logits, targets, total).0)
            .sum()
    }

    /// Every parameter of every tensor: the written-out gradient against (L(θ+ε) − L(θ−ε)) / 2ε,
    /// for one and two layers, scaled or not.
    #[test]
    fn gradients_match_central_finite_differences_on_every_tensor() {
        let cases = [
            (1, true, false, 2, Positions::Learned),
            (2, true, false, 2, Positions::Learned),
            (2, false, false, 2, Positions::Learned),
            (2, true, true, 2, Positions::Learned),
            (2, true, false, 1, Positions::Learned),
            (1, true, false, 2, Positions::Sinusoidal),
            (2, true, true, 1, Positions::Rotary),
            (2, false, false, 2, Positions::Rotary),
        ];
        for (layers, scaled, mlp, kv_heads, positions) in cases {
            let n_heads = 2;
            let cfg = Config {
                vocab: 5,
                context: 6,
                d_model: 8,
                n_heads,
                kv_heads,
                positions,
                n_layers: layers,
                scaled,
                mlp,
            };
            let params = Params::init(&cfg, 7);
            let batch = vec![
                (vec![0, 3, 1, 4, 2, 2], vec![(1, 2), (3, 0), (5, 4)]),
                (vec![4, 4, 0, 1], vec![(0, 1), (2, 3), (3, 3)]),
            ];
            let total: usize = batch.iter().map(|(_, t)| t.len()).sum();
            let mut grads = params.zeros_like();
            for (tokens, targets) in &batch {
                let fwd = forward(&params, &cfg, tokens);
                let (_, dlogits) = cross_entropy(&fwd.logits, targets, total);
                accumulate(&params, &cfg, tokens, &fwd, &dlogits, &mut grads);
            }
            let eps = 1e-6;
            let names: Vec<String> = params.tensors().into_iter().map(|(n, _)| n).collect();
            let written: Vec<Array2<f64>> = grads.tensors().into_iter().map(|(_, g)| g.clone()).collect();
            for (t, name) in names.iter().enumerate() {
                let shape = written[t].dim();
                for idx in (0..shape.0).flat_map(|r| (0..shape.1).map(move |c| (r, c))) {
                    let mut plus = params.clone();
                    plus.tensors_mut()[t][idx] += eps;
                    let mut minus = params.clone();
                    minus.tensors_mut()[t][idx] -= eps;
                    let numeric = (loss(&plus, &cfg, &batch) - loss(&minus, &cfg, &batch)) / (2.0 * eps);
                    let analytic = written[t][idx];
                    let err = (numeric - analytic).abs() / (numeric.abs() + analytic.abs()).max(1e-6);
                    assert!(
                        err < 1e-5 || (numeric - analytic).abs() < 1e-9,
                        "layers {layers} scaled {scaled} mlp {mlp} kv {kv_heads} {positions:?}: {name}{idx:?}: written {analytic:e}, numeric {numeric:e}"
                    );
                }
            }
        }
    }
}
