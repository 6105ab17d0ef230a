//! An encoding as plain numbers, to cross from a worker that computed it to the page that
//! draws it: every array of every layer, in one fixed order, as one list of `f32` and one list
//! of sizes. What the page already knows (the model's shape, the options it asked for, the
//! tokens and each layer's projections) stays out: the page supplies it as a [`Frame`].
//!
//! Sizes list: for each array its (rows, cols); for each optional part a flag (0 absent, 1
//! present); the counts of layers and heads. Numbers list: the arrays row by row, then each
//! trace's scalars (scaled, scale, temperature, d_k, mask).

use super::{Encoding, LayerTrace, RunOptions, Shape, Token};
use crate::block::BlockTrace;
use crate::mask::Mask;
use crate::projections::Projections;
use crate::trace::{HeadTrace, Trace};
use ndarray::Array2;
use std::sync::Arc;

/// An encoding's numbers: the arrays' values and their sizes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Numbers {
    pub data: Vec<f32>,
    pub sizes: Vec<u32>,
}

/// What the numbers leave out, known to the side that asked.
#[derive(Debug, Clone)]
pub struct Frame {
    pub shape: Shape,
    pub options: RunOptions,
    pub tokens: Vec<Token>,
    pub kv_tokens: Option<Vec<Token>>,
    /// One per layer, first to last (`Model::layer_projections`).
    pub projections: Vec<Arc<Projections>>,
}

/// `encoding`'s numbers.
pub fn encode(encoding: &Encoding) -> Numbers {
    let mut w = Numbers::default();
    w.array(&encoding.embedding);
    w.optional(encoding.position.as_ref());
    w.count(encoding.layers.len());
    for layer in &encoding.layers {
        w.trace(&layer.trace);
        w.flag(layer.block.is_some());
        if let Some(b) = &layer.block {
            w.array(&b.attended);
            w.optional(b.hidden.as_ref());
            w.array(&b.output);
        }
    }
    w
}

/// The encoding `numbers` are of, with what `frame` knows; `None` if they are not a whole
/// encoding or do not fit the frame (a row per token, as many layers as projections).
pub fn decode(data: &[f32], sizes: &[u32], frame: Frame) -> Option<Encoding> {
    let mut r = Reader { data, sizes, at_data: 0, at_size: 0 };
    // One row per token the page read the sentence into.
    let embedding = r.array().filter(|e| e.nrows() == frame.tokens.len())?;
    let position = r.optional()?;
    let n_layers = r.count()?;
    if n_layers != frame.projections.len() {
        return None;
    }
    let mut layers = Vec::with_capacity(n_layers);
    for projections in frame.projections {
        let trace = r.trace()?;
        let block = match r.flag()? {
            true => Some(BlockTrace { attended: r.array()?, hidden: r.optional()?, output: r.array()? }),
            false => None,
        };
        layers.push(LayerTrace { trace, projections, block });
    }
    let whole = r.at_data == data.len() && r.at_size == sizes.len();
    whole.then_some(Encoding {
        shape: frame.shape,
        options: frame.options,
        tokens: frame.tokens,
        kv_tokens: frame.kv_tokens,
        embedding,
        position,
        layers,
    })
}

impl Numbers {
    fn count(&mut self, n: usize) {
        self.sizes.push(n as u32);
    }

    fn flag(&mut self, on: bool) {
        self.sizes.push(u32::from(on));
    }

    fn array(&mut self, a: &Array2<f32>) {
        self.sizes.extend([a.nrows() as u32, a.ncols() as u32]);
        self.data.extend(a.iter());
    }

    fn optional(&mut self, a: Option<&Array2<f32>>) {
        self.flag(a.is_some());
        if let Some(a) = a {
            self.array(a);
        }
    }

    fn trace(&mut self, t: &Trace) {
        for a in [&t.x, &t.q, &t.k, &t.v, &t.concat, &t.output] {
            self.array(a);
        }
        self.optional(t.x_kv.as_ref());
        self.array(&t.blocked.mapv(|b| f32::from(u8::from(b))));
        self.count(t.head_traces.len());
        for h in &t.head_traces {
            for a in [&h.q, &h.k, &h.v, &h.scores, &h.scaled_scores, &h.weights, &h.output] {
                self.array(a);
            }
        }
        let causal = t.mask == Mask::Causal;
        self.data.extend([f32::from(u8::from(t.scaled)), t.scale, t.temperature, t.d_k as f32]);
        self.data.push(f32::from(u8::from(causal)));
    }
}

struct Reader<'a> {
    data: &'a [f32],
    sizes: &'a [u32],
    at_data: usize,
    at_size: usize,
}

impl Reader<'_> {
    fn size(&mut self) -> Option<usize> {
        let s = *self.sizes.get(self.at_size)?;
        self.at_size += 1;
        Some(s as usize)
    }

    fn count(&mut self) -> Option<usize> {
        self.size()
    }

    fn flag(&mut self) -> Option<bool> {
        match self.size()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    fn values(&mut self, n: usize) -> Option<&[f32]> {
        let end = self.at_data.checked_add(n)?;
        let values = self.data.get(self.at_data..end)?;
        self.at_data = end;
        Some(values)
    }

    fn array(&mut self) -> Option<Array2<f32>> {
        let (rows, cols) = (self.size()?, self.size()?);
        let values = self.values(rows.checked_mul(cols)?)?.to_vec();
        Array2::from_shape_vec((rows, cols), values).ok()
    }

    fn optional(&mut self) -> Option<Option<Array2<f32>>> {
        match self.flag()? {
            true => self.array().map(Some),
            false => Some(None),
        }
    }

    fn trace(&mut self) -> Option<Trace> {
        // In the order `Numbers::trace` writes.
        let (x, q, k, v, concat, output) =
            (self.array()?, self.array()?, self.array()?, self.array()?, self.array()?, self.array()?);
        let x_kv = self.optional()?;
        let blocked = self.array()?.mapv(|b| b != 0.0);
        let n_heads = self.count()?;
        let mut head_traces = Vec::new();
        for _ in 0..n_heads {
            head_traces.push(HeadTrace {
                q: self.array()?,
                k: self.array()?,
                v: self.array()?,
                scores: self.array()?,
                scaled_scores: self.array()?,
                weights: self.array()?,
                output: self.array()?,
            });
        }
        let scalars = self.values(5)?;
        let (scaled, scale, temperature, d_k, causal) = (scalars[0], scalars[1], scalars[2], scalars[3], scalars[4]);
        Some(Trace {
            x,
            x_kv,
            q,
            k,
            v,
            blocked,
            mask: if causal != 0.0 { Mask::Causal } else { Mask::None },
            scaled: scaled != 0.0,
            scale,
            temperature,
            d_k: d_k as usize,
            head_traces,
            concat,
            output,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::random::{Random, RandomCache, RandomSetup};
    use crate::model::{Input, Model};
    use crate::train::session::{Session, Setup};
    use crate::train::yours::YourModel;

    fn frame_of(model: &dyn Model, e: &Encoding) -> Frame {
        Frame {
            shape: e.shape.clone(),
            options: e.options.clone(),
            tokens: e.tokens.clone(),
            kv_tokens: e.kv_tokens.clone(),
            projections: model.layer_projections(),
        }
    }

    fn round_trip(model: &dyn Model, e: &Encoding) -> Option<Encoding> {
        let n = encode(e);
        decode(&n.data, &n.sizes, frame_of(model, e))
    }

    #[test]
    fn a_stack_of_layers_with_their_blocks_crosses_whole() {
        let session = Session::new(Setup { n_layers: 2, ..Setup::default() }).expect("the default setup");
        let model = YourModel::of(&session, &session.example()).expect("a model");
        let input = Input { text: model.example().expect("an example"), kv_text: None };
        let options = RunOptions { scaled: false, temperature: 0.5, switched_off: vec![(1, 0)], ..model_options() };
        let e = model.forward(&input, &options).expect("computes");
        assert!(e.layers.len() == 2 && e.layers.iter().all(|l| l.block.is_some()));
        assert_eq!(round_trip(&model, &e), Some(e));
    }

    fn model_options() -> RunOptions {
        RunOptions { mask: Mask::Causal, ..RunOptions::default() }
    }

    #[test]
    fn cross_attention_without_positions_crosses_whole() {
        let setup = RandomSetup { positional: false, ..RandomSetup::default() };
        let model = Random::new(setup, 64, Arc::new(RandomCache::default()));
        let input = Input { text: "the cat sat down".into(), kv_text: Some("le chat".into()) };
        let e = model.forward(&input, &RunOptions::default()).expect("computes");
        assert!(e.position.is_none() && e.layers[0].trace.x_kv.is_some());
        assert_eq!(round_trip(&model, &e), Some(e));
    }

    #[test]
    fn numbers_cut_short_lengthened_or_for_another_model_or_sentence_are_refused() {
        let model = Random::new(RandomSetup::default(), 64, Arc::new(RandomCache::default()));
        let input = Input { text: "one two three".into(), kv_text: None };
        let e = model.forward(&input, &model_options()).expect("computes");
        let n = encode(&e);
        let frame = || frame_of(&model, &e);
        assert!(decode(&n.data[..n.data.len() - 1], &n.sizes, frame()).is_none());
        assert!(decode(&n.data, &n.sizes[..n.sizes.len() - 1], frame()).is_none());
        assert!(decode(&[n.data.clone(), vec![0.0]].concat(), &n.sizes, frame()).is_none());
        let mut sizes = n.sizes.clone();
        sizes[0] = u32::MAX;
        assert!(decode(&n.data, &sizes, frame()).is_none());
        let two_layers = Frame { projections: vec![Arc::clone(&frame().projections[0]); 2], ..frame() };
        assert!(decode(&n.data, &n.sizes, two_layers).is_none());
        let fewer_tokens = Frame { tokens: frame().tokens[..2].to_vec(), ..frame() };
        assert!(decode(&n.data, &n.sizes, fewer_tokens).is_none());
    }
}
