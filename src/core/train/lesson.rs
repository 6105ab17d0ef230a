//! A model trained in the training view, as the lesson's seven stages read it: its tokens,
//! its learned token and position embeddings, every layer's W_Q, W_K, W_V, W_O and its MLP if
//! it has one, in f32.
//! The training view writes it as text ([`Trained::to_text`], every float as the hex of its
//! bits, so it comes back bit for bit) into the browser's storage; the lesson reads it back
//! ([`Trained::parse`]) and runs it on a sentence of its tokens up to the layer shown
//! ([`Trained::outcome`]), with the core's own attention, so every stage and hover is the
//! lesson's.

use super::session::{digits_of, Session};
use super::tasks::token_text;
use super::Task;
use crate::attention::{run, AttentionConfig};
use crate::kernels::matmul;
use crate::scenario::{checked_tokens, Outcome, Scenario, ScenarioError};
use crate::weights::Weights;
use ndarray::Array2;
use std::sync::Arc;

/// The first word of the text, and its version.
const MAGIC: &str = "attention-lab-trained-2";

/// A trained model, ready for the lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Trained {
    /// What it learned.
    pub task: Task,
    /// Steps it trained for.
    pub steps: usize,
    /// Heads per layer.
    pub heads: usize,
    /// Trained with ÷√d_k.
    pub scaled: bool,
    /// Token texts by id: the digits, then "|" where the task has a separator.
    pub vocab: Vec<String>,
    /// Token embeddings (v, d).
    pub embed: Array2<f32>,
    /// Position embeddings (n, d): one per place it was trained on (the most tokens it reads).
    pub pos: Array2<f32>,
    /// Each layer's projections, first to last.
    pub layers: Vec<Arc<Weights>>,
    /// Each layer's MLP, if the model has them: W₁ (d, f), b₁ (1, f), W₂ (f, d), b₂ (1, d).
    pub mlps: Option<Vec<[Array2<f32>; 4]>>,
    /// The token ids of the example the training view showed: the lesson opens on it.
    pub example: Vec<usize>,
}

impl Trained {
    /// The session's model as it is now, with `example` (token ids) as its sentence.
    pub fn of(session: &Session, example: &[usize]) -> Result<Self, ScenarioError> {
        let task = session.setup.task;
        let (_, digits) = digits_of(task);
        let vocab: Vec<String> = (0..task.vocab(digits)).map(|t| token_text(t, digits)).collect();
        let f32s = |a: &Array2<f64>| a.mapv(|v| v as f32);
        let layers = session
            .params
            .layers
            .iter()
            .map(|l| Weights::from_matrices(f32s(&l.wq), f32s(&l.wk), f32s(&l.wv), f32s(&l.wo)).map(Arc::new))
            .collect::<Result<_, _>>()
            .map_err(ScenarioError::Attention)?;
        let mlps = session.config.mlp.then(|| {
            let layers = session.params.layers.iter().filter_map(|l| l.mlp.as_ref());
            layers.map(|m| [f32s(&m.w1), f32s(&m.b1), f32s(&m.w2), f32s(&m.b2)]).collect()
        });
        Ok(Self {
            task,
            steps: session.steps,
            heads: session.config.heads,
            scaled: session.config.scaled,
            vocab,
            embed: f32s(&session.params.embed),
            pos: f32s(&session.params.pos),
            layers,
            mlps,
            example: example.to_vec(),
        })
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

    /// The text [`Trained::parse`] reads back: words separated by spaces.
    pub fn to_text(&self) -> String {
        let (v, n, d) = (self.vocab.len(), self.context(), self.width());
        let mut out = format!(
            "{MAGIC} {} {} {} {} {} {} {v} {n} {d} {} {} {}",
            self.task.slug(),
            self.steps,
            self.heads,
            u8::from(self.scaled),
            self.layers.len(),
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
        for w in &self.layers {
            for m in [&w.w_q, &w.w_k, &w.w_v, &w.w_o] {
                put(m);
            }
        }
        for m in self.mlps.iter().flatten().flatten() {
            put(m);
        }
        out
    }

    /// The model [`Trained::to_text`] wrote, or `None` if the text is not one (another
    /// version, cut short, or edited).
    pub fn parse(text: &str) -> Option<Self> {
        let mut words = text.split_ascii_whitespace();
        if words.next()? != MAGIC {
            return None;
        }
        let task = Task::from_slug(words.next()?)?;
        let mut int = || words.next()?.parse::<usize>().ok();
        let [steps, heads, scaled, layers, mlp, v, n, d] =
            [int()?, int()?, int()?, int()?, int()?, int()?, int()?, int()?];
        // Within what the training view makes (an edited text must not ask for huge matrices).
        let sizes_ok = (1..=256).contains(&d) && (1..=64).contains(&v) && (1..=64).contains(&n);
        if !sizes_ok || heads == 0 || !d.is_multiple_of(heads) || !(1..=2).contains(&layers) || scaled > 1 || mlp > 1 {
            return None;
        }
        let vocab: Vec<String> = words.by_ref().take(v).map(String::from).collect();
        let shown = words.next()?.parse::<usize>().ok()?;
        let example = (0..shown)
            .map(|_| words.next()?.parse::<usize>().ok().filter(|&t| t < v))
            .collect::<Option<Vec<usize>>>()?;
        let mut matrix = |rows: usize, cols: usize| -> Option<Array2<f32>> {
            let values = words
                .by_ref()
                .take(rows * cols)
                .map(|w| u32::from_str_radix(w, 16).ok().map(f32::from_bits).filter(|x| x.is_finite()))
                .collect::<Option<Vec<f32>>>()?;
            Array2::from_shape_vec((rows, cols), values).ok()
        };
        let embed = matrix(v, d)?;
        let pos = matrix(n, d)?;
        let mut weights = Vec::with_capacity(layers);
        for _ in 0..layers {
            let [q, k, v, o] = [matrix(d, d)?, matrix(d, d)?, matrix(d, d)?, matrix(d, d)?];
            weights.push(Arc::new(Weights::from_matrices(q, k, v, o).ok()?));
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
        let whole = vocab.len() == v && words.next().is_none();
        whole.then_some(Self {
            task,
            steps,
            heads,
            scaled: scaled == 1,
            vocab,
            embed,
            pos,
            layers: weights,
            mlps,
            example,
        })
    }

    /// Layer `s.layer` (the last if past the end) on the query sentence, whose every token must
    /// be one of the model's: X (n, d) = token + position embedding, each layer before it
    /// adding its attention output, then its MLP's, to X (the residual stream). The scenario's
    /// mask, scaling and temperature apply; the heads and d_model are the model's (and so is
    /// the layer the outcome names). The MLP is the training model's own (`model::forward`),
    /// here in f32 with the lesson's matrix product.
    pub fn outcome(&self, s: &Scenario) -> Result<Outcome, ScenarioError> {
        let tokens = checked_tokens(&s.text, "query", self.context())?;
        let ids = tokens
            .iter()
            .map(|t| self.vocab.iter().position(|v| v == t).ok_or_else(|| ScenarioError::UnknownToken(t.clone())))
            .collect::<Result<Vec<usize>, _>>()?;
        let embedding = Array2::from_shape_fn((ids.len(), self.width()), |(i, j)| self.embed[[ids[i], j]]);
        let positional = self.pos.slice(ndarray::s![..ids.len(), ..]).to_owned();
        let cfg = AttentionConfig { heads: self.heads, ..s.config() };
        let layer = s.layer.min(self.layers.len() - 1);
        let mut x = &embedding + &positional;
        for (l, w) in self.layers[..layer].iter().enumerate() {
            x += &run(&x, None, w, &cfg).map_err(ScenarioError::Attention)?.output;
            if let Some([w1, b1, w2, b2]) = self.mlps.as_ref().and_then(|m| m.get(l)) {
                let hidden = (matmul(x.view(), w1.view()) + b1).mapv(|h| h.max(0.0));
                x += &(matmul(hidden.view(), w2.view()) + b2);
            }
        }
        let weights = Arc::clone(&self.layers[layer]);
        let trace = run(&x, None, &weights, &cfg).map_err(ScenarioError::Attention)?;
        let scenario = Scenario { heads: self.heads, d_model: self.width(), layer, ..s.clone() };
        Ok(Outcome {
            scenario,
            kv_tokens: tokens.clone(),
            tokens,
            embedding,
            positional: Some(positional),
            weights,
            trace,
            encoding: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::Mask;
    use crate::scenario::Source;
    use crate::train::model::forward;
    use crate::train::session::Setup;

    fn trained(layers: usize, mlp: bool) -> (Session, Trained) {
        let mut session = Session::new(Setup { layers, mlp, ..Setup::default() }).unwrap();
        for _ in 0..5 {
            session.step().unwrap();
        }
        let t = Trained::of(&session, &session.example()).unwrap();
        (session, t)
    }

    #[test]
    fn the_text_brings_back_every_bit() {
        let (_, t) = trained(2, true);
        let back = Trained::parse(&t.to_text()).expect("its own text parses");
        assert_eq!(back, t);
        assert_eq!(back.mlps.as_ref().map(|m| (m.len(), m[0][0].dim())), Some((2, (32, 128))));
        assert_eq!((back.steps, back.heads, back.width(), back.context()), (5, 2, 32, 16));
        assert_eq!(back.vocab.last().map(String::as_str), Some("|"));
    }

    #[test]
    fn a_damaged_text_is_refused_not_half_read() {
        let (_, t) = trained(1, false);
        let text = t.to_text();
        assert!(Trained::parse(&text[..text.len() - 9]).is_none(), "one float short");
        assert!(Trained::parse(&format!("{text} 00000000")).is_none(), "one float too many");
        assert!(Trained::parse(&text.replacen("trained-2", "trained-1", 1)).is_none(), "another version");
        let nan = text.replacen(&text[text.len() - 8..], "7fc00000", 1);
        assert!(Trained::parse(&nan).is_none(), "a NaN weight");
        assert!(Trained::parse("").is_none() && Trained::parse("attention-lab-trained-2 reverse 1 0").is_none());
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
        for layer in 0..2 {
            let s = Scenario {
                text: text.join(" "),
                mask: Mask::Causal,
                source: Source::Yours,
                layer,
                ..Scenario::default()
            };
            let o = t.outcome(&s).unwrap();
            assert_eq!(o.tokens, text);
            assert_eq!((o.scenario.d_model, o.scenario.heads, o.trace.heads.len()), (32, 2, 2));
            for (h, head) in o.trace.heads.iter().enumerate() {
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
        let s = Scenario { text: "1 2 x".into(), source: Source::Yours, ..Scenario::default() };
        assert_eq!(t.outcome(&s).unwrap_err(), ScenarioError::UnknownToken("x".into()));
        let long = Scenario { text: "1 ".repeat(17), source: Source::Yours, ..Scenario::default() };
        assert!(matches!(t.outcome(&long), Err(ScenarioError::TooManyTokens { max: 16, .. })));
    }
}
