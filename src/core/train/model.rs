//! The model's parameters and its forward pass over one sequence, keeping what the backward
//! pass needs (every layer's input, Q, K, V and attention weights, and the MLP's activations).
//! The softmax and the residual path after attention are the core's own (`softmax`, `block`),
//! in f64.

use crate::ablate::{replaced, Ablation};
use crate::block::{Activation, Block, Dense, Mlp};
use crate::embed::positional_encoding;
use crate::kernels::matmul_f64 as product;
use crate::mask::causal_mask;
use crate::rng::SplitMix64;
use crate::rotary::rotate;
use crate::softmax::{softmax_row, softmax_rows};
use ndarray::{s, Array2, Axis};

crate::slugged! {
    /// How the model knows where a token is.
    #[derive(Default)]
    pub enum Positions {
        /// A learned vector per place, added to the token's (parameters of the model's own).
        #[default]
        Learned = "learned",
        /// The fixed sinusoidal encoding, added to the token's.
        Sinusoidal = "sinusoidal",
        /// Nothing added: each head's queries and keys are rotated by their position (RoPE,
        /// `core::rotary`), so scores depend on offsets only.
        Rotary = "rope",
    }
}

/// The sizes and switches of a model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// Vocabulary size `v` (the tokens are 0..v).
    pub vocab: usize,
    /// The longest sequence `n` (one learned position embedding per place).
    pub context: usize,
    /// Width `d` of the residual stream.
    pub d_model: usize,
    /// Heads `h` per layer; `d_model` must be a multiple of it.
    pub n_heads: usize,
    /// Heads of keys and values, dividing `n_heads`: `n_heads` of them is multi-head
    /// attention, 1 multi-query, in between grouped-query. Query head h reads group
    /// h / (n_heads / kv_heads).
    pub kv_heads: usize,
    /// How positions enter.
    pub positions: Positions,
    /// Attention layers, 1 or 2.
    pub n_layers: usize,
    /// Divide the scores by √d_k.
    pub scaled: bool,
    /// A small MLP after each attention layer (ReLU, [`MLP_WIDTH`] × d_model wide), also
    /// added to the residual stream.
    pub mlp: bool,
}

/// The MLP's hidden width, in multiples of d_model (as in the original Transformer).
pub const MLP_WIDTH: usize = 4;

impl Config {
    /// d_k = d_model / heads.
    pub fn d_k(&self) -> usize {
        self.d_model / self.n_heads.max(1)
    }

    /// The width of K and of V: kv_heads · d_k.
    pub fn d_kv(&self) -> usize {
        self.kv_heads * self.d_k()
    }

    /// The K/V head query head `h` reads.
    pub fn group(&self, h: usize) -> usize {
        h / (self.n_heads / self.kv_heads.max(1)).max(1)
    }

    /// What is added to the token embeddings at each of `n` places: the learned positions
    /// (`pos`, (context, d)), the sinusoidal encoding, or nothing (rotary).
    pub fn added_positions(&self, pos: &Array2<f64>, n: usize) -> Option<Array2<f64>> {
        match self.positions {
            Positions::Learned => Some(pos.slice(s![..n, ..]).to_owned()),
            Positions::Sinusoidal => Some(positional_encoding(n, self.d_model).mapv(f64::from)),
            Positions::Rotary => None,
        }
    }
}

/// One attention layer's projections, each (d, d); the heads are column blocks of d_k. Then
/// what follows attention: the residual sum, and the MLP if the model has one.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerParams {
    /// (d, d).
    pub wq: Array2<f64>,
    /// (d, kv_heads · d_k) each.
    pub wk: Array2<f64>,
    pub wv: Array2<f64>,
    /// (d, d).
    pub wo: Array2<f64>,
    /// x + attention, then x + ReLU(x·W₁ + b₁)·W₂ + b₂ with f = [`MLP_WIDTH`]·d hidden units
    /// (W₁ (d, f), b₁ (1, f), W₂ (f, d), b₂ (1, d)) when it has an MLP. No LayerNorm.
    pub block: Block<f64>,
}

/// The four tensors of an MLP with their names, in order: W₁, b₁, W₂, b₂.
pub fn mlp_tensors(m: &Mlp<f64>) -> [(&'static str, &Array2<f64>); 4] {
    [("mlp.w1", &m.up.weight), ("mlp.b1", &m.up.bias), ("mlp.w2", &m.down.weight), ("mlp.b2", &m.down.bias)]
}

fn mlp_tensors_mut(m: &mut Mlp<f64>) -> [&mut Array2<f64>; 4] {
    [&mut m.up.weight, &mut m.up.bias, &mut m.down.weight, &mut m.down.bias]
}

/// Every parameter of a model.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Token embeddings (v, d).
    pub embed: Array2<f64>,
    /// Position embeddings (n, d).
    pub pos: Array2<f64>,
    pub layers: Vec<LayerParams>,
    /// Unembedding (d, v).
    pub unembed: Array2<f64>,
}

impl Params {
    /// Small random weights fixed by `seed`: normal with standard deviation 1/√d for the
    /// matrices a vector of width d is multiplied by (1/√f for the MLP's second), 0.5 for the
    /// embeddings, biases 0.
    pub fn init(cfg: &Config, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let d = cfg.d_model;
        let mut normal = |rows: usize, cols: usize, sd: f64| {
            Array2::from_shape_simple_fn((rows, cols), || sd * f64::from(rng.normal()))
        };
        let sd = 1.0 / (d as f64).sqrt();
        let embed = normal(cfg.vocab, d, 0.5);
        let pos = normal(cfg.context, d, 0.5);
        let f = MLP_WIDTH * d;
        let layers = (0..cfg.n_layers)
            .map(|_| LayerParams {
                wq: normal(d, d, sd),
                wk: normal(d, cfg.d_kv(), sd),
                wv: normal(d, cfg.d_kv(), sd),
                wo: normal(d, d, sd),
                block: Block {
                    mlp: cfg.mlp.then(|| {
                        let w1 = normal(d, f, sd);
                        let w2 = normal(f, d, 1.0 / (f as f64).sqrt());
                        Mlp {
                            up: Dense { weight: w1, bias: Array2::zeros((1, f)) },
                            down: Dense { weight: w2, bias: Array2::zeros((1, d)) },
                            activation: Activation::Relu,
                        }
                    }),
                    ..Block::residual_only()
                },
            })
            .collect();
        let unembed = normal(d, cfg.vocab, sd);
        Self { embed, pos, layers, unembed }
    }

    /// Every tensor with its name, in a fixed order (the same as [`Params::tensors_mut`]).
    pub fn tensors(&self) -> Vec<(String, &Array2<f64>)> {
        let mut all = vec![("embed".to_string(), &self.embed), ("pos".to_string(), &self.pos)];
        for (l, p) in self.layers.iter().enumerate() {
            for (name, t) in [("wq", &p.wq), ("wk", &p.wk), ("wv", &p.wv), ("wo", &p.wo)] {
                all.push((format!("layer{}.{name}", l + 1), t));
            }
            for (name, t) in p.block.mlp.iter().flat_map(mlp_tensors) {
                all.push((format!("layer{}.{name}", l + 1), t));
            }
        }
        all.push(("unembed".to_string(), &self.unembed));
        all
    }

    /// Every tensor, mutable, in the order of [`Params::tensors`].
    pub fn tensors_mut(&mut self) -> Vec<&mut Array2<f64>> {
        let mut all = vec![&mut self.embed, &mut self.pos];
        for p in &mut self.layers {
            all.extend([&mut p.wq, &mut p.wk, &mut p.wv, &mut p.wo]);
            if let Some(m) = &mut p.block.mlp {
                all.extend(mlp_tensors_mut(m));
            }
        }
        all.push(&mut self.unembed);
        all
    }

    /// Every number, tensor after tensor in the order of [`Params::tensors`], row-major: what a
    /// worker sends of a model or a gradient.
    pub fn flat(&self) -> Vec<f64> {
        self.tensors().into_iter().flat_map(|(_, t)| t.iter().copied().collect::<Vec<_>>()).collect()
    }

    /// Take every number from `flat` (as [`Params::flat`] wrote it for these shapes); `false`,
    /// changing nothing, when its length is not theirs.
    pub fn set_flat(&mut self, flat: &[f64]) -> bool {
        let len: usize = self.tensors().iter().map(|(_, t)| t.len()).sum();
        if flat.len() != len {
            return false;
        }
        let mut at = 0;
        for t in self.tensors_mut() {
            for v in t.iter_mut() {
                *v = flat[at];
                at += 1;
            }
        }
        true
    }

    /// Add `other` (of the same shapes) to these, tensor by tensor.
    pub fn add(&mut self, other: &Params) {
        for (t, (_, o)) in self.tensors_mut().into_iter().zip(other.tensors()) {
            *t += o;
        }
    }

    /// Zeros of the same shapes (the start of a gradient sum).
    pub fn zeros_like(&self) -> Self {
        let z = |a: &Array2<f64>| Array2::zeros(a.dim());
        Self {
            embed: z(&self.embed),
            pos: z(&self.pos),
            layers: self
                .layers
                .iter()
                .map(|p| LayerParams {
                    wq: z(&p.wq),
                    wk: z(&p.wk),
                    wv: z(&p.wv),
                    wo: z(&p.wo),
                    block: Block {
                        mlp: p.block.mlp.as_ref().map(|m| Mlp {
                            up: Dense { weight: z(&m.up.weight), bias: z(&m.up.bias) },
                            down: Dense { weight: z(&m.down.weight), bias: z(&m.down.bias) },
                            activation: m.activation,
                        }),
                        ..Block::residual_only()
                    },
                })
                .collect(),
            unembed: z(&self.unembed),
        }
    }
}

/// What one layer computed.
#[derive(Debug, Clone)]
pub struct LayerCache {
    /// The layer's input (n, d).
    pub x: Array2<f64>,
    /// Q (n, d), K and V (n, d_kv), as the scores use them (under RoPE, Q and K rotated).
    pub q: Array2<f64>,
    pub k: Array2<f64>,
    pub v: Array2<f64>,
    /// Attention weights per head (n, n); zero above the diagonal (causal).
    pub weights: Vec<Array2<f64>>,
    /// The heads' outputs side by side (n, d).
    pub concat: Array2<f64>,
    /// With an MLP: its input, x + concat·W_O (n, d), and its hidden ReLU activations (n, f).
    pub mlp: Option<(Array2<f64>, Array2<f64>)>,
}

/// A forward pass over one sequence.
#[derive(Debug, Clone)]
pub struct Forward {
    pub layers: Vec<LayerCache>,
    /// The last residual stream (n, d).
    pub out: Array2<f64>,
    /// Logits (n, v).
    pub logits: Array2<f64>,
}

/// Run the model on `tokens` (each below `cfg.vocab`, at most `cfg.context` of them).
pub fn forward(params: &Params, cfg: &Config, tokens: &[usize]) -> Forward {
    forward_with(params, cfg, tokens, &Ablation::default())
}

/// [`forward`] with the heads `off` switched off: each keeps its weights, but passes on its
/// replacement (zeros, or its output's mean over the positions) to W_O. `concat` holds what
/// was passed on.
pub fn forward_with(params: &Params, cfg: &Config, tokens: &[usize], off: &Ablation) -> Forward {
    let n = tokens.len();
    let dk = cfg.d_k();
    let c = if cfg.scaled { 1.0 / (dk as f64).sqrt() } else { 1.0 };
    let mut x = Array2::zeros((n, cfg.d_model));
    for (i, &t) in tokens.iter().enumerate() {
        let mut row = x.row_mut(i);
        row += &params.embed.row(t);
    }
    if let Some(added) = cfg.added_positions(&params.pos, n) {
        x += &added;
    }
    let mut layers = Vec::with_capacity(params.layers.len());
    let blocked = causal_mask(n);
    for (l, p) in params.layers.iter().enumerate() {
        let off_here = off.in_layer(l);
        let (q, k, v) = project(cfg, p, &x, 0);
        let mut concat = Array2::zeros((n, cfg.d_model));
        let mut weights = Vec::with_capacity(cfg.n_heads);
        for h in 0..cfg.n_heads {
            let cols = s![.., h * dk..(h + 1) * dk];
            let kv = s![.., cfg.group(h) * dk..(cfg.group(h) + 1) * dk];
            let scores = product(q.slice(cols), k.slice(kv).t()) * c;
            let a = softmax_rows(&scores, &blocked, 1.0);
            let output = product(a.view(), v.slice(kv));
            // The learner's model is causal: a mean-ablated head's row i gets the mean of rows 0..=i.
            let passed = if off_here.contains(&h) { replaced(output.view(), off.replacement, true) } else { output };
            concat.slice_mut(cols).assign(&passed);
            weights.push(a);
        }
        let b = p.block.forward(&x, &product(concat.view(), p.wo.view()));
        let (next, mlp) = (b.output, b.hidden.map(|h| (b.attended, h)));
        layers.push(LayerCache { x, q, k, v, weights, concat, mlp });
        x = next;
    }
    let logits = product(x.view(), params.unembed.view());
    Forward { layers, out: x, logits }
}

/// Layer 1's scores of every head on `tokens` standing at positions `first`, `first` + 1, …
/// (scaled as the model scales them): under rotary positions the same wherever the tokens
/// stand, since only their offsets count; with positions added, they move. `None` for learned
/// positions past the places the model was trained on (it has no vector there).
pub fn first_layer_scores(params: &Params, cfg: &Config, tokens: &[usize], first: usize) -> Option<Vec<Array2<f64>>> {
    let (n, dk) = (tokens.len(), cfg.d_k());
    let mut x = Array2::zeros((n, cfg.d_model));
    for (i, &t) in tokens.iter().enumerate() {
        x.row_mut(i).assign(&params.embed.row(t));
    }
    match cfg.positions {
        Positions::Learned => {
            if first + n > params.pos.nrows() {
                return None;
            }
            x += &params.pos.slice(s![first..first + n, ..]);
        }
        Positions::Sinusoidal => {
            x += &positional_encoding(first + n, cfg.d_model).mapv(f64::from).slice(s![first.., ..])
        }
        Positions::Rotary => {}
    }
    let p = params.layers.first()?;
    let (q, k, _) = project(cfg, p, &x, first);
    let c = if cfg.scaled { 1.0 / (dk as f64).sqrt() } else { 1.0 };
    let head = |h: usize| {
        let g = cfg.group(h);
        product(q.slice(s![.., h * dk..(h + 1) * dk]), k.slice(s![.., g * dk..(g + 1) * dk]).t()) * c
    };
    Some((0..cfg.n_heads).map(head).collect())
}

/// Q (n, d), K and V (n, d_kv) of a layer's input `x` (rows at positions `first`, …), the
/// queries and keys rotated by their positions under RoPE.
pub fn project(
    cfg: &Config,
    p: &LayerParams,
    x: &Array2<f64>,
    first: usize,
) -> (Array2<f64>, Array2<f64>, Array2<f64>) {
    let (mut q, mut k) = (product(x.view(), p.wq.view()), product(x.view(), p.wk.view()));
    if cfg.positions == Positions::Rotary {
        rotate(&mut q, cfg.d_k(), first, false);
        rotate(&mut k, cfg.d_k(), first, false);
    }
    (q, k, product(x.view(), p.wv.view()))
}

/// The mean cross-entropy over the positions `targets` names, (position, token) pairs, and
/// the gradient of that mean with respect to the logits (n, v): softmax − one-hot, over the
/// count. `total` is how many targets the whole batch has (the mean is over the batch).
pub fn cross_entropy(logits: &Array2<f64>, targets: &[(usize, usize)], total: usize) -> (f64, Array2<f64>) {
    let mut grad = Array2::zeros(logits.dim());
    let mut loss = 0.0;
    let scale = 1.0 / total.max(1) as f64;
    let mut p = vec![0.0; logits.ncols()];
    for &(i, t) in targets {
        let row: Vec<f64> = logits.row(i).to_vec();
        softmax_row(&row, None, 1.0, &mut p);
        loss -= p[t].ln() * scale;
        let mut g = grad.row_mut(i);
        g.iter_mut().zip(&p).for_each(|(g, p)| *g = p * scale);
        g[t] -= scale;
    }
    (loss, grad)
}

/// The index of the largest logit of each row.
pub fn predictions(logits: &Array2<f64>) -> Vec<usize> {
    logits
        .axis_iter(Axis(0))
        .map(|row| row.iter().enumerate().fold((0, f64::NEG_INFINITY), |b, (i, &x)| if x > b.1 { (i, x) } else { b }).0)
        .collect()
}
