//! Generation with the learner's model, one token at a time. The prompt goes through in one
//! pass, with the causal mask (its rows must not see each other's future); its keys and values
//! are kept, per layer and K/V head. Each step then picks the next token from the last row's
//! logits (greedily, or sampled with a temperature and the top k), and runs the new token alone:
//! its query against every cached key needs no mask, since no later token exists yet. Without
//! the cache, a step runs the whole sequence again, which gives the same numbers at more cost;
//! each step counts the multiply–adds both ways.

use super::model::{forward, project, Config, Params, Positions};
use crate::kernels::matmul_f64 as product;
use crate::rng::SplitMix64;
use crate::softmax::softmax_row;
use ndarray::{concatenate, s, Array2, Axis};

/// How the next token is picked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampling {
    /// 0: the most likely token (greedy); above 0, sampled from softmax(logits / T).
    pub temperature: f64,
    /// Sample among the `top_k` most likely only (0: among all).
    pub top_k: usize,
    /// The sampling's seed: the same seed repeats the same run.
    pub seed: u64,
}

impl Sampling {
    pub const GREEDY: Sampling = Sampling { temperature: 0.0, top_k: 0, seed: 1 };
}

/// Why a generation cannot start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenerateError {
    EmptyPrompt,
    /// The prompt is longer than the model's positions (given, most).
    TooLong {
        given: usize,
        max: usize,
    },
    /// A token the model does not have (the token, the vocabulary's size).
    UnknownToken {
        token: usize,
        vocab: usize,
    },
}

/// Multiply–adds of one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Work {
    /// The new token alone, against the cache.
    pub cached: u64,
    /// The whole sequence again.
    pub uncached: u64,
}

/// What one step computed and chose.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The position whose row gave the prediction (the last token so far).
    pub position: usize,
    /// That row's weights over every key so far, `[layer][head]`, each of position + 1.
    pub weights: Vec<Vec<Vec<f64>>>,
    /// The next-token probabilities (at temperature 1, whatever the sampling).
    pub probabilities: Vec<f64>,
    pub chosen: usize,
    /// The multiply–adds that computed the row of this step's prediction.
    pub work: Work,
}

/// One layer's cache: K and V of every position so far, (t, kv_heads · d_k) each.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerCache {
    pub k: Array2<f64>,
    pub v: Array2<f64>,
}

/// A generation under way.
#[derive(Debug, Clone)]
pub struct Generation {
    params: Params,
    cfg: Config,
    sampling: Sampling,
    rng: SplitMix64,
    /// The prompt's length.
    pub prompt: usize,
    /// Every token so far, the prompt's first.
    pub tokens: Vec<usize>,
    /// Per layer.
    pub cache: Vec<LayerCache>,
    /// Whether the steps use the cache (the numbers are the same either way).
    pub cached: bool,
    /// The last row's logits and its weights, and the work that computed them.
    last: (Vec<f64>, Vec<Vec<Vec<f64>>>, Work),
    /// What each step chose.
    pub steps: Vec<Step>,
}

impl Generation {
    /// Start from `prompt`, run in one pass with the causal mask.
    pub fn start(params: &Params, cfg: &Config, prompt: &[usize], sampling: Sampling) -> Result<Self, GenerateError> {
        if prompt.is_empty() {
            return Err(GenerateError::EmptyPrompt);
        }
        if prompt.len() > cfg.context {
            return Err(GenerateError::TooLong { given: prompt.len(), max: cfg.context });
        }
        if let Some(&token) = prompt.iter().find(|&&t| t >= cfg.vocab) {
            return Err(GenerateError::UnknownToken { token, vocab: cfg.vocab });
        }
        let run = forward(params, cfg, prompt);
        let cache = run.layers.iter().map(|l| LayerCache { k: l.k.clone(), v: l.v.clone() }).collect();
        let n = prompt.len();
        let weights = run.layers.iter().map(|l| l.weights.iter().map(|a| a.row(n - 1).to_vec()).collect()).collect();
        let work = Work { cached: whole_work(cfg, n), uncached: whole_work(cfg, n) };
        let rng = SplitMix64::new(sampling.seed);
        Ok(Self {
            params: params.clone(),
            cfg: *cfg,
            sampling,
            rng,
            prompt: n,
            tokens: prompt.to_vec(),
            cache,
            cached: true,
            last: (run.logits.row(n - 1).to_vec(), weights, work),
            steps: Vec::new(),
        })
    }

    /// Whether another token can be predicted (a step feeds it back when there is room).
    pub fn can_step(&self) -> bool {
        self.tokens.len() <= self.cfg.context
    }

    /// Pick the next token from the last row, then (if the model has a position left) run it,
    /// with the cache or without; `None` when the model's positions are all used.
    pub fn step(&mut self) -> Option<&Step> {
        if !self.can_step() {
            return None;
        }
        let (logits, weights, work) = self.last.clone();
        let mut probabilities = vec![0.0; logits.len()];
        softmax_row(&logits, None, 1.0, &mut probabilities);
        let chosen = self.pick(&logits);
        let position = self.tokens.len() - 1;
        self.tokens.push(chosen);
        if self.tokens.len() <= self.cfg.context {
            self.last = if self.cached { self.run_new() } else { self.run_all() };
        }
        self.steps.push(Step { position, weights, probabilities, chosen, work });
        self.steps.last()
    }

    /// The next token: the most likely, or sampled.
    fn pick(&mut self, logits: &[f64]) -> usize {
        let s = self.sampling;
        let order = crate::order::largest_first(logits);
        if s.temperature <= 0.0 {
            return order[0];
        }
        let kept = if s.top_k == 0 { order.len() } else { s.top_k.min(order.len()) };
        let chosen: Vec<f64> = order[..kept].iter().map(|&t| logits[t]).collect();
        let mut p = vec![0.0; kept];
        softmax_row(&chosen, None, s.temperature, &mut p);
        let mut u = self.rng.uniform();
        for (i, &pi) in p.iter().enumerate() {
            if u < pi {
                return order[i];
            }
            u -= pi;
        }
        order[kept - 1]
    }

    /// The newest token alone through every layer, its K and V appended to the cache: its
    /// logits, its weights over every cached key, and the work.
    fn run_new(&mut self) -> (Vec<f64>, Vec<Vec<Vec<f64>>>, Work) {
        let cfg = self.cfg;
        let t = self.tokens.len() - 1;
        let token = self.tokens[t];
        let mut x = self.params.embed.slice(s![token..token + 1, ..]).to_owned();
        if let Some(added) = cfg.added_positions(&self.params.pos, t + 1) {
            x += &added.slice(s![t..t + 1, ..]);
        }
        let (dk, c) = (cfg.d_k(), if cfg.scaled { 1.0 / (cfg.d_k() as f64).sqrt() } else { 1.0 });
        let mut weights = Vec::with_capacity(cfg.n_layers);
        for (p, cache) in self.params.layers.iter().zip(&mut self.cache) {
            let (q, k, v) = project(&cfg, p, &x, t);
            cache.k = concatenate(Axis(0), &[cache.k.view(), k.view()]).unwrap_or_else(|_| cache.k.clone());
            cache.v = concatenate(Axis(0), &[cache.v.view(), v.view()]).unwrap_or_else(|_| cache.v.clone());
            let mut concat = Array2::zeros((1, cfg.d_model));
            let mut layer = Vec::with_capacity(cfg.n_heads);
            for h in 0..cfg.n_heads {
                let (cols, g) = (s![.., h * dk..(h + 1) * dk], cfg.group(h));
                let kv = s![.., g * dk..(g + 1) * dk];
                // One query over every key so far: nothing later exists, so nothing to mask.
                let scores = product(q.slice(cols), cache.k.slice(kv).t()) * c;
                let mut a = vec![0.0; scores.ncols()];
                softmax_row(scores.row(0).as_slice().unwrap_or_default(), None, 1.0, &mut a);
                let a = Array2::from_shape_vec((1, a.len()), a).unwrap_or_else(|_| Array2::zeros((1, 0)));
                concat.slice_mut(cols).assign(&product(a.view(), cache.v.slice(kv)));
                layer.push(a.row(0).to_vec());
            }
            x = p.block.forward(&x, &product(concat.view(), p.wo.view())).output;
            weights.push(layer);
        }
        let logits = product(x.view(), self.params.unembed.view()).row(0).to_vec();
        let n = self.tokens.len();
        (logits, weights, Work { cached: step_work(&cfg, n), uncached: whole_work(&cfg, n) })
    }

    /// The whole sequence again (no cache): the last row's logits and weights.
    fn run_all(&mut self) -> (Vec<f64>, Vec<Vec<Vec<f64>>>, Work) {
        let run = forward(&self.params, &self.cfg, &self.tokens);
        let n = self.tokens.len();
        self.cache = run.layers.iter().map(|l| LayerCache { k: l.k.clone(), v: l.v.clone() }).collect();
        let weights = run.layers.iter().map(|l| l.weights.iter().map(|a| a.row(n - 1).to_vec()).collect()).collect();
        let work = Work { cached: step_work(&self.cfg, n), uncached: whole_work(&self.cfg, n) };
        (run.logits.row(n - 1).to_vec(), weights, work)
    }

    /// The generated tokens (after the prompt).
    pub fn generated(&self) -> &[usize] {
        &self.tokens[self.prompt..]
    }
}

/// Multiply–adds of one layer's work on `rows` new rows against `keys` keys: the projections,
/// the scores and A·V, W_O, the MLP.
fn layer_work(cfg: &Config, rows: u64, keys: u64) -> u64 {
    let (d, d_kv) = (cfg.d_model as u64, cfg.d_kv() as u64);
    let projections = rows * (d * d + 2 * d * d_kv + d * d);
    let attention = 2 * rows * keys * d;
    let mlp = if cfg.mlp { rows * 2 * d * (super::model::MLP_WIDTH as u64 * d) } else { 0 };
    projections + attention + mlp
}

/// One new row at length `n`: every layer, then its logits.
pub fn step_work(cfg: &Config, n: usize) -> u64 {
    cfg.n_layers as u64 * layer_work(cfg, 1, n as u64) + (cfg.d_model * cfg.vocab) as u64
}

/// The whole sequence of length `n` (as [`forward`] computes it: every row's scores against
/// every key, the mask applied after, and every row's logits).
pub fn whole_work(cfg: &Config, n: usize) -> u64 {
    let n = n as u64;
    cfg.n_layers as u64 * layer_work(cfg, n, n) + n * (cfg.d_model * cfg.vocab) as u64
}

/// The answer `generation` should give for *reverse*, if its prompt is the digits and the
/// separator: the digits backwards.
pub fn reversed(prompt: &[usize], separator: usize) -> Option<Vec<usize>> {
    let (digits, rest) = prompt.split_at(prompt.iter().position(|&t| t == separator)?);
    (rest.len() == 1).then(|| digits.iter().rev().copied().collect())
}

impl Positions {
    /// Whether a model with these positions can run past the length it was trained on (the
    /// learned ones have a vector only for each place they were trained on).
    pub fn extends(self) -> bool {
        self != Positions::Learned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::session::{Session, Setup};
    use crate::train::Task;

    fn trained(setup: Setup) -> Session {
        let mut session = Session::new(setup).unwrap_or_else(|e| panic!("{e:?}"));
        while session.accuracy() < 0.99 && session.steps < 3000 {
            let _ = session.step();
        }
        session
    }

    /// With the cache or without, every step gives the same logits (to float rounding) and the
    /// same tokens, for every kind of K/V sharing and positions; the cache grows a row a step.
    #[test]
    fn the_cache_gives_what_recomputing_gives() {
        for (kv_heads, positions, mlp) in [
            (None, Positions::Learned, false),
            (Some(1), Positions::Rotary, true),
            (Some(2), Positions::Sinusoidal, false),
        ] {
            let setup = Setup { n_heads: 4, kv_heads, positions, mlp, n_layers: 2, ..Setup::default() };
            let session = Session::new(setup).unwrap_or_else(|e| panic!("{e:?}"));
            let (params, cfg) = (&session.params, &session.config);
            let prompt = vec![3, 1, 4, 1, 5, 10];
            let sampling = Sampling { temperature: 0.8, top_k: 4, seed: 9 };
            let mut with = Generation::start(params, cfg, &prompt, sampling).unwrap_or_else(|e| panic!("{e:?}"));
            let mut without = with.clone();
            without.cached = false;
            while with.can_step() {
                let (a, b) = (with.step().cloned(), without.step().cloned());
                let (a, b) = (a.unwrap_or_else(|| panic!("a step")), b.unwrap_or_else(|| panic!("a step")));
                assert_eq!(a.chosen, b.chosen, "{kv_heads:?} {positions:?}");
                let far = a.probabilities.iter().zip(&b.probabilities).fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
                assert!(far < 1e-12, "{kv_heads:?} {positions:?}: probabilities differ by {far}");
                assert_eq!(with.cache[0].k.nrows(), with.tokens.len().min(cfg.context), "a row a step");
                assert!(a.work.cached < a.work.uncached || a.position + 1 == prompt.len());
            }
            assert_eq!(with.tokens, without.tokens);
            assert_eq!(
                (with.tokens.len(), with.step().is_none()),
                (cfg.context + 1, true),
                "until the positions run out"
            );
        }
    }

    /// A model trained on *reverse* writes the digits backwards from a prompt it never saw.
    #[test]
    fn a_reverse_model_generates_the_digits_backwards() {
        let session = trained(Setup::default());
        assert!(session.accuracy() >= 0.99);
        let prompt = vec![7, 2, 9, 9, 0, 4, 1, 6, 10];
        let mut g = Generation::start(&session.params, &session.config, &prompt, Sampling::GREEDY)
            .unwrap_or_else(|e| panic!("{e:?}"));
        for _ in 0..8 {
            let _ = g.step();
        }
        assert_eq!(Some(g.generated().to_vec()), reversed(&prompt, 10));
        assert_eq!(g.cache[0].k.nrows(), 16, "every position of the model's context cached");
    }

    /// The work of a step: with the cache it grows with n (one row against n keys), without
    /// it with n² (every row against every key).
    #[test]
    fn the_cache_saves_work_that_grows_with_the_length() {
        let cfg = Setup { task: Task::Induction, ..Setup::default() }.config();
        let (short, long) = (step_work(&cfg, 4), step_work(&cfg, 16));
        let (whole_short, whole_long) = (whole_work(&cfg, 4), whole_work(&cfg, 16));
        assert!(long < 2 * short, "one row: {short} → {long}");
        assert!(whole_long > 4 * whole_short, "every row: {whole_short} → {whole_long}");
    }

    #[test]
    fn a_prompt_the_model_cannot_read_is_named() {
        let session = Session::new(Setup::default()).unwrap_or_else(|e| panic!("{e:?}"));
        let start = |p: &[usize]| Generation::start(&session.params, &session.config, p, Sampling::GREEDY).err();
        assert_eq!(start(&[]), Some(GenerateError::EmptyPrompt));
        assert_eq!(start(&[11]), Some(GenerateError::UnknownToken { token: 11, vocab: 11 }));
        assert_eq!(start(&[1; 17]), Some(GenerateError::TooLong { given: 17, max: 16 }));
    }
}
