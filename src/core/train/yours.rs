//! The learner's own model ("yours"), trained in the training view, as the lesson reads it:
//! one implementation of [`Model`]. Its tokens (the task's digits and separator), its learned
//! token embeddings and its positions (learned, or the sinusoidal encoding it was trained with,
//! added to them; or none added, its queries and keys rotated instead), every layer's W_Q, W_K,
//! W_V, W_O and its MLP if it has one, in f32, run by the core's own layers (`model::stack`), so
//! every stage and hover is the lesson's. A model whose K/V heads are shared by groups of query
//! heads is shown with each query head's own columns of W_K and W_V (its group's, repeated):
//! the same numbers, in the lesson's shape. The training view writes it as text ([`YourModel::to_text`], every float as the
//! hex of its bits, so it comes back bit for bit) into the browser's storage; the lesson reads
//! it back ([`YourModel::parse`]).

use super::model::{Config, LayerParams, Positions};
use super::session::{digits_of, Session, Setup};
use super::tasks::token_text;
use super::{Params, Task};
use crate::block::{Activation, Block, Dense, Mlp};
use crate::model::stack::{Embedded, Layer};
use crate::model::{Encoding, Input, InputRule, Model, ModelError, Origin, RunOptions, SentenceProblem, Shape, Token};
use crate::projections::Projections;
use crate::tokenize::tokenize;
use ndarray::Array2;
use std::sync::Arc;

/// The first word of the text, and its version; the version before K/V heads and positions
/// could be chosen (its models: a K/V head per head, learned positions) still reads.
const MAGIC: &str = "attention-lab-trained-3";
const MAGIC_2: &str = "attention-lab-trained-2";

/// Each layer's MLP as stored: W₁ (d, f), b₁ (1, f), W₂ (f, d), b₂ (1, d).
pub type MlpMatrices = [Array2<f32>; 4];

/// A model the learner trained, ready for the lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct YourModel {
    /// What it learned.
    task: Task,
    /// Steps it trained for.
    steps: usize,
    /// Heads per layer.
    n_heads: usize,
    /// Heads of keys and values (dividing `n_heads`).
    kv_heads: usize,
    /// How it was told positions.
    positions: Positions,
    /// Trained with ÷√d_k.
    scaled: bool,
    /// Token texts by id: the digits, then "|" where the task has a separator.
    vocab: Vec<String>,
    /// Token embeddings (v, d).
    embed: Array2<f32>,
    /// What is added for each place it was trained on (the most tokens it reads): the learned
    /// position embeddings, the sinusoidal encoding, or zeros for rotary positions (n, d).
    pos: Array2<f32>,
    /// Each layer's projections, first to last.
    projections: Vec<Arc<Projections>>,
    /// Each layer's MLP, if the model has them.
    mlps: Option<Vec<MlpMatrices>>,
    /// The unembedding (d, v), which turns the last layer's rows into next-token logits: what
    /// generating needs (a model saved before it was kept has none).
    unembed: Option<Array2<f32>>,
    /// The token ids of the example the training view showed: the lesson opens on it.
    example: Vec<usize>,
    /// The layers as the core runs them (made from the projections and MLPs above).
    layers: Vec<Layer>,
    shape: Shape,
}

/// Where the lesson shows what a learner's model learned (0-based, in its example's tokens):
/// the first query that must answer, the key that holds its answer, and the head that puts the
/// most weight there (reverse: the separator's row, on the anti-diagonal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shown {
    pub layer: usize,
    pub head: usize,
    pub query: usize,
    pub key: usize,
}

impl YourModel {
    /// [`Shown`] on its example, run as it was trained; `None` when the example has no query
    /// whose answer is an earlier token, or does not run.
    pub fn where_it_shows(&self) -> Option<Shown> {
        let tokens = &self.example;
        let (_, digits) = digits_of(self.task);
        let (query, key) = self
            .task
            .targets_of(tokens, digits)
            .into_iter()
            .find_map(|(i, t)| (0..i.min(tokens.len())).rev().find(|&j| tokens[j] == t).map(|j| (i, j)))?;
        let input = Input { text: self.sentence(tokens), kv_text: None };
        let options = self.shape.trained_options().unwrap_or_default();
        let run = self.forward(&input, &options).ok()?;
        let weight = |l: usize, h: usize| {
            let heads = &run.layers.get(l)?.trace.head_traces;
            heads.get(h)?.weights.get((query, key)).copied()
        };
        let (layer, head, _) = (0..run.layers.len())
            .flat_map(|l| (0..self.n_heads).map(move |h| (l, h)))
            .filter_map(|(l, h)| Some((l, h, weight(l, h)?)))
            .max_by(|a, b| a.2.total_cmp(&b.2))?;
        Some(Shown { layer, head, query, key })
    }

    /// A model from its parts (the layers and shape follow from them).
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        task: Task,
        steps: usize,
        (n_heads, kv_heads, positions): (usize, usize, Positions),
        scaled: bool,
        vocab: Vec<String>,
        [embed, pos]: [Array2<f32>; 2],
        projections: Vec<Arc<Projections>>,
        mlps: Option<Vec<MlpMatrices>>,
        unembed: Option<Array2<f32>>,
        example: Vec<usize>,
    ) -> Self {
        let layers = projections
            .iter()
            .enumerate()
            .map(|(l, p)| {
                let mlp = mlps.as_ref().and_then(|m| m.get(l)).map(|[w1, b1, w2, b2]| Mlp {
                    up: Dense::new(w1.view(), b1.row(0).to_owned()),
                    down: Dense::new(w2.view(), b2.row(0).to_owned()),
                    activation: Activation::Relu,
                });
                let rotary = positions == Positions::Rotary;
                Layer { projections: Arc::clone(p), block: Some(Block { mlp, ..Block::residual_only() }), rotary }
            })
            .collect();
        let shape = Shape {
            kv_heads,
            input: match positions {
                Positions::Learned => InputRule::Learned,
                Positions::Sinusoidal => InputRule::SinusoidalTrained,
                Positions::Rotary => InputRule::Rotary,
            },
            ..Self::shape_of(projections.len(), n_heads, embed.ncols(), pos.nrows(), scaled)
        };
        Self {
            task,
            steps,
            n_heads,
            kv_heads,
            positions,
            scaled,
            vocab,
            embed,
            pos,
            projections,
            mlps,
            unembed,
            example,
            layers,
            shape,
        }
    }

    /// The session's model as it is now, with `example` (token ids) as its sentence.
    pub fn of(session: &Session, example: &[usize]) -> Result<Self, ModelError> {
        Self::trained(&session.setup, &session.params, session.steps, example)
    }

    /// The model of a run of `setup` with `params` after `steps` steps (a copy of a run
    /// trained elsewhere: a worker's), with `example` (token ids) as its sentence.
    pub fn trained(setup: &Setup, params: &Params, steps: usize, example: &[usize]) -> Result<Self, ModelError> {
        let config = setup.config();
        let task = setup.task;
        let (_, digits) = digits_of(task);
        let vocab: Vec<String> = (0..task.vocab(digits)).map(|t| token_text(t, digits)).collect();
        let f32s = |a: &Array2<f64>| a.mapv(|v| v as f32);
        // Each query head's own columns of a shared K/V head's: its group's, repeated.
        let (dk, d) = (config.d_k(), config.d_model);
        let per_head =
            |w: &Array2<f64>| Array2::from_shape_fn((d, d), |(r, c)| w[[r, config.group(c / dk) * dk + c % dk]] as f32);
        let projections = params
            .layers
            .iter()
            .map(|l| {
                Projections::from_matrices(f32s(&l.wq), per_head(&l.wk), per_head(&l.wv), f32s(&l.wo)).map(Arc::new)
            })
            .collect::<Result<_, _>>()?;
        let mlps = config.mlp.then(|| {
            let layers = params.layers.iter().filter_map(|l| l.block.mlp.as_ref());
            layers.map(|m| [f32s(&m.up.weight), f32s(&m.up.bias), f32s(&m.down.weight), f32s(&m.down.bias)]).collect()
        });
        let added = config.added_positions(&params.pos, config.context);
        let pos = added.map_or_else(|| Array2::zeros((config.context, d)), |p| f32s(&p));
        let embeddings = [f32s(&params.embed), pos];
        let heads = (config.n_heads, config.kv_heads, config.positions);
        let unembed = Some(f32s(&params.unembed));
        Ok(Self::assemble(
            task,
            steps,
            heads,
            config.scaled,
            vocab,
            embeddings,
            projections,
            mlps,
            unembed,
            example.to_vec(),
        ))
    }

    /// The model as the training core runs it, to generate with: its shared K/V heads taken
    /// back from the first query head of each group; `None` for a model saved before its
    /// unembedding was kept.
    pub fn generator(&self) -> Option<(Params, Config)> {
        let unembed = self.unembed.as_ref()?;
        let (d, n_layers) = (self.width(), self.projections.len());
        let config = Config {
            vocab: self.vocab.len(),
            context: self.context(),
            d_model: d,
            n_heads: self.n_heads,
            kv_heads: self.kv_heads,
            positions: self.positions,
            n_layers,
            scaled: self.scaled,
            mlp: self.mlps.is_some(),
        };
        let f64s = |a: &Array2<f32>| a.mapv(f64::from);
        let (dk, per) = (config.d_k(), self.n_heads / self.kv_heads.max(1));
        let shared = |w: &Array2<f32>| {
            Array2::from_shape_fn((d, config.d_kv()), |(r, c)| f64::from(w[[r, (c / dk) * per * dk + c % dk]]))
        };
        let layers = self
            .projections
            .iter()
            .enumerate()
            .map(|(l, p)| {
                let mlp = self.mlps.as_ref().and_then(|m| m.get(l)).map(|[w1, b1, w2, b2]| Mlp {
                    up: Dense { weight: f64s(w1), bias: f64s(b1) },
                    down: Dense { weight: f64s(w2), bias: f64s(b2) },
                    activation: Activation::Relu,
                });
                LayerParams {
                    wq: f64s(p.w_q()),
                    wk: shared(p.w_k()),
                    wv: shared(p.w_v()),
                    wo: f64s(p.w_o()),
                    block: Block { mlp, ..Block::residual_only() },
                }
            })
            .collect();
        let pos = match self.positions {
            Positions::Learned => f64s(&self.pos),
            _ => Array2::zeros(self.pos.dim()),
        };
        Some((Params { embed: f64s(&self.embed), pos, layers, unembed: f64s(unembed) }, config))
    }

    /// The token ids of the example the training view showed.
    pub fn example_ids(&self) -> &[usize] {
        &self.example
    }

    /// What it learned.
    pub fn task(&self) -> Task {
        self.task
    }

    /// The steps it trained for.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Trained with ÷√d_k.
    pub fn scaled(&self) -> bool {
        self.scaled
    }

    /// Token ids as a sentence the lesson reads (ids it does not have are left out).
    pub fn sentence(&self, ids: &[usize]) -> String {
        ids.iter().filter_map(|&i| self.vocab.get(i).map(String::as_str)).collect::<Vec<_>>().join(" ")
    }

    /// d_model.
    pub fn width(&self) -> usize {
        self.embed.ncols()
    }

    /// The most tokens it reads.
    pub fn context(&self) -> usize {
        self.pos.nrows()
    }

    /// The text [`YourModel::parse`] reads back: words separated by spaces.
    pub fn to_text(&self) -> String {
        let (v, n, d) = (self.vocab.len(), self.context(), self.width());
        let mut out = format!(
            "{MAGIC} {} {} {} {} {} {} {} {} {v} {n} {d} {} {} {}",
            self.task.slug(),
            self.steps,
            self.n_heads,
            self.kv_heads,
            self.positions.slug(),
            u8::from(self.scaled),
            self.projections.len(),
            u8::from(self.mlps.is_some()),
            self.vocab.join(" "),
            self.example.len(),
            self.example.iter().map(usize::to_string).collect::<Vec<_>>().join(" ")
        );
        let mut put = |a: &Array2<f32>| {
            for x in a {
                out.push_str(&format!(" {:08x}", x.to_bits()));
            }
        };
        put(&self.embed);
        put(&self.pos);
        for w in &self.projections {
            for m in [w.w_q(), w.w_k(), w.w_v(), w.w_o()] {
                put(m);
            }
        }
        for m in self.mlps.iter().flatten().flatten() {
            put(m);
        }
        if let Some(u) = &self.unembed {
            put(u);
        }
        out
    }

    /// The model [`YourModel::to_text`] wrote, or `None` if the text is not one (another
    /// version, cut short, or edited).
    pub fn parse(text: &str) -> Option<Self> {
        let words = Words { list: text.split_ascii_whitespace().collect(), at: std::cell::Cell::new(0) };
        let current = match words.next()? {
            MAGIC => true,
            MAGIC_2 => false,
            _ => return None,
        };
        let task = Task::from_slug(words.next()?)?;
        let int = || words.next()?.parse::<usize>().ok();
        let [steps, n_heads] = [int()?, int()?];
        let (kv_heads, positions) = match current {
            true => (int()?, Positions::from_slug(words.next()?)?),
            false => (n_heads, Positions::Learned),
        };
        let [scaled, layers, mlp, v, n, d] = [int()?, int()?, int()?, int()?, int()?, int()?];
        // Within what the training view makes (an edited text must not ask for huge matrices).
        let sizes_ok = (1..=256).contains(&d) && (1..=64).contains(&v) && (1..=64).contains(&n);
        if !sizes_ok
            || n_heads == 0
            || !d.is_multiple_of(n_heads)
            || kv_heads == 0
            || !n_heads.is_multiple_of(kv_heads)
            || !(1..=2).contains(&layers)
            || scaled > 1
            || mlp > 1
        {
            return None;
        }
        let vocab: Vec<String> = (0..v).map(|_| words.next().map(String::from)).collect::<Option<_>>()?;
        let shown = int()?;
        let example = (0..shown).map(|_| int().filter(|&t| t < v)).collect::<Option<Vec<usize>>>()?;
        let matrix = |rows: usize, cols: usize| -> Option<Array2<f32>> {
            let values = (0..rows * cols)
                .map(|_| u32::from_str_radix(words.next()?, 16).ok().map(f32::from_bits).filter(|x| x.is_finite()))
                .collect::<Option<Vec<f32>>>()?;
            Array2::from_shape_vec((rows, cols), values).ok()
        };
        let embed = matrix(v, d)?;
        let pos = matrix(n, d)?;
        let mut projections = Vec::with_capacity(layers);
        for _ in 0..layers {
            let [q, k, v, o] = [matrix(d, d)?, matrix(d, d)?, matrix(d, d)?, matrix(d, d)?];
            projections.push(Arc::new(Projections::from_matrices(q, k, v, o).ok()?));
        }
        let f = super::model::MLP_WIDTH * d;
        let mlps = match mlp {
            0 => None,
            _ => Some(
                (0..layers)
                    .map(|_| Some([matrix(d, f)?, matrix(1, f)?, matrix(f, d)?, matrix(1, d)?]))
                    .collect::<Option<Vec<_>>>()?,
            ),
        };
        // The unembedding, which a model saved before generation existed does not have.
        let unembed = match words.left() {
            0 => None,
            _ => Some(matrix(d, v)?),
        };
        let heads = (n_heads, kv_heads, positions);
        (words.left() == 0).then(|| {
            Self::assemble(task, steps, heads, scaled == 1, vocab, [embed, pos], projections, mlps, unembed, example)
        })
    }

    /// The shape of a model of the training view with these counts and sizes (a causal stack
    /// of learned token and position embeddings; the largest one bounds what a link may name).
    pub fn shape_of(n_layers: usize, n_heads: usize, d_model: usize, max_tokens: usize, scaled: bool) -> Shape {
        Shape {
            n_layers,
            n_heads,
            kv_heads: n_heads,
            d_model,
            max_tokens,
            causal: true,
            scaled,
            input: InputRule::Learned,
            framed: false,
            unknown: None,
            cross: false,
            biases: false,
            origin: Origin::Yours,
        }
    }
}

impl Model for YourModel {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The site's tokens, each of which must be one of the model's, at most as many as its
    /// positions.
    fn tokenize(&self, text: &str) -> Result<Vec<Token>, SentenceProblem> {
        let texts = tokenize(text);
        let tokens = texts
            .into_iter()
            .map(|t| match self.vocab.iter().position(|v| *v == t) {
                Some(id) => Ok(Token { id: id as u32, text: t }),
                None => Err(SentenceProblem::Unknown(t)),
            })
            .collect::<Result<Vec<_>, _>>()?;
        SentenceProblem::within(tokens.len(), self.context())?;
        Ok(tokens)
    }

    /// X (n, d) = token + position embedding; each layer adds its attention output, then its
    /// MLP's, to X (the residual stream). The run options apply; the heads and d_model are the
    /// model's.
    fn forward(&self, input: &Input, options: &RunOptions) -> Result<Encoding, ModelError> {
        let tokens = self.tokenize(&input.text).map_err(|p| p.of("query"))?;
        let embedding =
            Array2::from_shape_fn((tokens.len(), self.width()), |(i, j)| self.embed[[tokens[i].id as usize, j]]);
        let position =
            (self.positions != Positions::Rotary).then(|| self.pos.slice(ndarray::s![..tokens.len(), ..]).to_owned());
        Embedded { tokens, embedding, position }.encode(&self.shape, &self.layers, options, |x| x)
    }

    fn ablated(&self, input: &Input, intact: &Encoding, options: &RunOptions) -> Result<Encoding, ModelError> {
        crate::model::stack::resume(intact, &self.layers, options).unwrap_or_else(|| self.forward(input, options))
    }

    fn layer_projections(&self) -> Vec<Arc<Projections>> {
        self.layers.iter().map(|l| Arc::clone(&l.projections)).collect()
    }

    fn example(&self) -> Option<String> {
        Some(self.sentence(&self.example))
    }
}

/// The words of a saved model's text, read one after another.
struct Words<'a> {
    list: Vec<&'a str>,
    at: std::cell::Cell<usize>,
}

impl<'a> Words<'a> {
    fn next(&self) -> Option<&'a str> {
        let word = self.list.get(self.at.get()).copied();
        self.at.set(self.at.get() + 1);
        word
    }

    /// How many are still to read.
    fn left(&self) -> usize {
        self.list.len().saturating_sub(self.at.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::Mask;
    use crate::train::model::forward;
    use crate::train::session::Setup;

    fn trained(layers: usize, mlp: bool) -> (Session, YourModel) {
        trained_as(Setup { n_layers: layers, mlp, ..Setup::default() })
    }

    fn trained_as(setup: Setup) -> (Session, YourModel) {
        let mut session = Session::new(setup).unwrap();
        for _ in 0..5 {
            session.step().unwrap();
        }
        let t = YourModel::of(&session, &session.example()).unwrap();
        (session, t)
    }

    #[test]
    fn the_text_brings_back_every_bit() {
        let (_, t) = trained(2, true);
        let back = YourModel::parse(&t.to_text()).expect("its own text parses");
        assert_eq!(back, t);
        assert_eq!(back.mlps.as_ref().map(|m| (m.len(), m[0][0].dim())), Some((2, (32, 128))));
        assert_eq!((back.steps, back.n_heads, back.width(), back.context()), (5, 2, 32, 16));
        assert_eq!(back.vocab.last().map(String::as_str), Some("|"));
    }

    #[test]
    fn a_damaged_text_is_refused_not_half_read() {
        let (_, t) = trained(1, false);
        let text = t.to_text();
        assert!(YourModel::parse(&text[..text.len() - 9]).is_none(), "one float short");
        assert!(YourModel::parse(&format!("{text} 00000000")).is_none(), "one float too many");
        assert!(YourModel::parse(&text.replacen("trained-3", "trained-1", 1)).is_none(), "another version");
        let nan = text.replacen(&text[text.len() - 8..], "7fc00000", 1);
        assert!(YourModel::parse(&nan).is_none(), "a NaN weight");
        assert!(YourModel::parse("").is_none() && YourModel::parse("attention-lab-trained-2 reverse 1 0").is_none());
    }

    /// The saved model generates as the run it was saved from does: the same tokens from the
    /// same prompt (shared K/V heads and rotary positions included), to f32 rounding of its
    /// weights; a model saved before the unembedding was kept cannot.
    #[test]
    fn the_saved_model_generates_as_its_run_does() {
        use crate::train::generate::{Generation, Sampling};
        let setup =
            Setup { n_heads: 4, kv_heads: Some(2), positions: Positions::Rotary, n_layers: 2, ..Setup::default() };
        let (session, t) = trained_as(setup);
        let (params, config) = YourModel::parse(&t.to_text()).and_then(|t| t.generator()).expect("a generator");
        assert_eq!(config, session.config);
        let prompt = [3, 1, 4, 1, 5, 9, 2, 6, 10];
        let run = |p: &Params, c: &Config| {
            let mut g = Generation::start(p, c, &prompt, Sampling::GREEDY).expect("a prompt it reads");
            while g.step().is_some() {}
            g.tokens
        };
        assert_eq!(run(&params, &config), run(&session.params, &session.config));
        let text = t.to_text();
        let cut = text.rsplitn(1 + config.d_model * config.vocab, ' ').last().unwrap_or_default().to_string();
        let old = YourModel::parse(&cut).expect("a model saved without its unembedding still opens");
        assert!(old.generator().is_none());
    }

    /// A model saved before K/V heads and positions could be chosen (version 2: the same text
    /// without those two words) still opens, as the model it was.
    #[test]
    fn a_model_saved_by_the_previous_version_still_opens() {
        let (_, t) = trained(2, true);
        let text = t.to_text();
        let old =
            text.replacen("attention-lab-trained-3 reverse 5 2 2 learned ", "attention-lab-trained-2 reverse 5 2 ", 1);
        assert_ne!(old, text);
        assert_eq!(YourModel::parse(&old), Some(t));
    }

    /// The lesson runs grouped-query models with rotary positions and one-K/V-head models with
    /// the sinusoidal encoding as they were trained, layer by layer; the shape says how.
    #[test]
    fn the_lesson_runs_shared_kv_heads_and_every_kind_of_positions() {
        for (kv_heads, positions, input) in [
            (Some(2), Positions::Rotary, InputRule::Rotary),
            (Some(1), Positions::Sinusoidal, InputRule::SinusoidalTrained),
        ] {
            let setup = Setup { n_heads: 4, kv_heads, positions, n_layers: 2, mlp: true, ..Setup::default() };
            let (session, t) = trained_as(setup);
            assert_eq!((t.shape.input, t.shape.kv_heads), (input, kv_heads.unwrap_or(4)));
            assert_eq!(YourModel::parse(&t.to_text()).as_ref(), Some(&t), "its text brings it back");
            let tokens = session.example();
            let want = forward(&session.params, &session.config, &tokens);
            let input = Input { text: t.sentence(&tokens), kv_text: None };
            let e = t.forward(&input, &RunOptions { mask: Mask::Causal, ..RunOptions::default() }).unwrap();
            assert_eq!(e.position.is_none(), positions == Positions::Rotary, "rotary adds no position");
            for layer in 0..2 {
                for (h, head) in e.layers[layer].trace.head_traces.iter().enumerate() {
                    let diff =
                        head.weights.iter().zip(&want.layers[layer].weights[h]).map(|(a, b)| (f64::from(*a) - b).abs());
                    let worst = diff.fold(0.0, f64::max);
                    assert!(worst < 1e-4, "{positions:?} layer {layer} head {h}: {worst}");
                }
            }
        }
    }

    /// The lesson's stages show what the training view's model computes: layer by layer, the
    /// same attention weights (f32 against f64) on the same tokens, with and without MLPs.
    #[test]
    fn the_lesson_runs_the_model_that_was_trained() {
        for mlp in [false, true] {
            lesson_matches_training(mlp);
        }
    }

    fn lesson_matches_training(mlp: bool) {
        let (session, t) = trained(2, mlp);
        let tokens = session.example();
        let text: Vec<String> = tokens.iter().map(|&i| t.vocab[i].clone()).collect();
        let want = forward(&session.params, &session.config, &tokens);
        let input = Input { text: text.join(" "), kv_text: None };
        let e = t.forward(&input, &RunOptions { mask: Mask::Causal, ..RunOptions::default() }).unwrap();
        assert_eq!(Token::texts(&e.tokens), text);
        for layer in 0..2 {
            let trace = &e.layers[layer].trace;
            assert_eq!((e.shape.d_model, e.shape.n_heads, trace.n_heads()), (32, 2, 2));
            for (h, head) in trace.head_traces.iter().enumerate() {
                let diff =
                    head.weights.iter().zip(&want.layers[layer].weights[h]).map(|(a, b)| (f64::from(*a) - b).abs());
                let worst = diff.fold(0.0, f64::max);
                assert!(worst < 1e-4, "mlp {mlp} layer {layer} head {h}: {worst}");
            }
        }
    }

    #[test]
    fn a_token_it_never_saw_is_named() {
        let (_, t) = trained(1, false);
        let run = |text: String| t.forward(&Input { text, kv_text: None }, &RunOptions::default());
        assert_eq!(run("1 2 x".into()).unwrap_err(), ModelError::UnknownToken("x".into()));
        assert!(matches!(run("1 ".repeat(17)), Err(ModelError::TooManyTokens { max: 16, .. })));
    }
}
