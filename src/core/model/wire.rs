//! An encoding as plain numbers, to cross from a worker that computed it to the page that
//! draws it: every array of every layer, in one fixed order, as one list of `f32` and one list
//! of sizes. What the page already knows (the model's shape, the options it asked for, the
//! tokens and each layer's projections) stays out: the page supplies it as a [`Frame`].
//!
//! Sizes list: for each array its (rows, cols); for each optional part a flag (0 absent, 1
//! present); the counts of layers and heads. Numbers list: the arrays row by row, each trace's
//! scalars (scaled, scale, temperature, d_k, mask) before its heads.
//!
//! What the page can rebuild exactly is not sent: a head's Q_h, K_h and V_h are columns of the
//! layer's Q, K and V, and its scaled scores are its scores divided by the trace's scale (the
//! same f32 division the core does, so the same bits). That is a quarter of the numbers at 128
//! tokens; a head's output is sent, since a switched-off head's is not in the concatenation.

use super::{Encoding, LayerTrace, RunOptions, Shape, Token};
use crate::block::BlockTrace;
use crate::mask::Mask;
use crate::projections::Projections;
use crate::trace::{HeadTrace, Trace};
use ndarray::{s, Array2};
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

/// `encoding`'s numbers in parts: first the input (the embedding, the positions, the count of
/// layers), then one part per layer, so that the side reading them can rebuild each part in a
/// task of its own (at 128 tokens a layer is about 4 MB of numbers).
pub fn encode(encoding: &Encoding) -> Vec<Numbers> {
    encode_layers(encoding, &encoding.layers.iter().collect::<Vec<_>>())
}

/// [`encode`] of `encoding` with only `layers` (some of its own): what [`decode`] reads back as
/// an encoding of those layers (the page hands the side lessons the one layer it shows).
pub fn encode_layers(encoding: &Encoding, layers: &[&LayerTrace]) -> Vec<Numbers> {
    let mut first = Numbers::default();
    first.array(&encoding.embedding);
    first.optional(encoding.position.as_ref());
    first.count(layers.len());
    let mut parts = vec![first];
    for layer in layers {
        let mut w = Numbers::default();
        w.trace(&layer.trace);
        w.flag(layer.block.is_some());
        if let Some(b) = &layer.block {
            w.array(&b.attended);
            w.optional(b.hidden.as_ref());
            w.array(&b.output);
        }
        parts.push(w);
    }
    parts
}

/// An encoding being rebuilt from its parts, in [`encode`]'s order, with what the frame knows.
pub struct Rebuild {
    frame: Frame,
    embedding: Array2<f32>,
    position: Option<Array2<f32>>,
    layers: Vec<LayerTrace>,
}

impl Rebuild {
    /// From the first part; `None` if it is not whole or does not fit the frame (a row per
    /// token, as many layers as projections).
    pub fn start(data: &[f32], sizes: &[u32], frame: Frame) -> Option<Rebuild> {
        let mut r = Reader::new(data, sizes);
        let embedding = r.array().filter(|e| e.nrows() == frame.tokens.len())?;
        let position = r.optional()?;
        let fits = r.count()? == frame.projections.len() && r.whole();
        let layers = Vec::with_capacity(frame.projections.len());
        fits.then_some(Rebuild { frame, embedding, position, layers })
    }

    /// The next layer's part; `None` if it is not whole or every layer is already in.
    pub fn add(&mut self, data: &[f32], sizes: &[u32]) -> Option<()> {
        let projections = Arc::clone(self.frame.projections.get(self.layers.len())?);
        let mut r = Reader::new(data, sizes);
        let trace = r.trace()?;
        let block = match r.flag()? {
            true => Some(BlockTrace { attended: r.array()?, hidden: r.optional()?, output: r.array()? }),
            false => None,
        };
        r.whole().then_some(())?;
        self.layers.push(LayerTrace { trace, projections, block });
        Some(())
    }

    /// Every layer is in.
    pub fn complete(&self) -> bool {
        self.layers.len() == self.frame.projections.len()
    }

    /// The encoding, once [`Self::complete`].
    pub fn finish(self) -> Option<Encoding> {
        let f = self.frame;
        (self.layers.len() == f.projections.len()).then_some(Encoding {
            shape: f.shape,
            options: f.options,
            tokens: f.tokens,
            kv_tokens: f.kv_tokens,
            embedding: self.embedding,
            position: self.position,
            layers: self.layers,
        })
    }
}

/// The encoding `parts` are of, all at once; `None` where [`Rebuild`] would refuse a part, or
/// a layer is missing.
pub fn decode(parts: &[Numbers], frame: Frame) -> Option<Encoding> {
    let (first, layers) = parts.split_first()?;
    let mut rebuild = Rebuild::start(&first.data[..], &first.sizes, frame)?;
    for part in layers {
        rebuild.add(&part.data[..], &part.sizes)?;
    }
    rebuild.finish()
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
        let causal = t.mask == Mask::Causal;
        self.data.extend([f32::from(u8::from(t.scaled)), t.scale, t.temperature, t.d_k as f32]);
        self.data.push(f32::from(u8::from(causal)));
        self.count(t.head_traces.len());
        for h in &t.head_traces {
            for a in [&h.scores, &h.weights, &h.output] {
                self.array(a);
            }
        }
    }
}

struct Reader<'a> {
    data: &'a [f32],
    sizes: &'a [u32],
    at_data: usize,
    at_size: usize,
}

impl<'a> Reader<'a> {
    fn new(data: &'a [f32], sizes: &'a [u32]) -> Self {
        Reader { data, sizes, at_data: 0, at_size: 0 }
    }

    /// Every value and size was read.
    fn whole(&self) -> bool {
        self.at_data == self.data.len() && self.at_size == self.sizes.len()
    }

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

    fn values(&mut self, n: usize) -> Option<Vec<f32>> {
        let end = self.at_data.checked_add(n)?;
        let values = self.data.get(self.at_data..end)?.to_vec();
        self.at_data = end;
        Some(values)
    }

    fn array(&mut self) -> Option<Array2<f32>> {
        let (rows, cols) = (self.size()?, self.size()?);
        let values = self.values(rows.checked_mul(cols)?)?;
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
        let scalars = self.values(5)?;
        let (scaled, scale, temperature, d_k, causal) = (scalars[0], scalars[1], scalars[2], scalars[3], scalars[4]);
        let (d_k, n_heads) = (d_k as usize, self.count()?);
        // Every head's columns must lie inside Q, K and V.
        let width = n_heads.checked_mul(d_k)?;
        if [&q, &k, &v].iter().any(|a| a.ncols() < width) {
            return None;
        }
        let mut head_traces = Vec::with_capacity(n_heads);
        for h in 0..n_heads {
            let cols = s![.., h * d_k..(h + 1) * d_k];
            let scores = self.array()?;
            let scaled_scores = &scores / scale;
            head_traces.push(HeadTrace {
                q: q.slice(cols).to_owned(),
                k: k.slice(cols).to_owned(),
                v: v.slice(cols).to_owned(),
                scores,
                scaled_scores,
                weights: self.array()?,
                output: self.array()?,
            });
        }
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
            d_k,
            head_traces,
            concat,
            output,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ablate::{Ablation, Replacement};
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
        decode(&encode(e), frame_of(model, e))
    }

    #[test]
    fn a_stack_of_layers_with_their_blocks_crosses_whole() {
        let session = Session::new(Setup { n_layers: 2, ..Setup::default() }).expect("the default setup");
        let model = YourModel::of(&session, &session.example()).expect("a model");
        let input = Input { text: model.example().expect("an example"), kv_text: None };
        let options = RunOptions {
            scaled: false,
            temperature: 0.5,
            ablation: Ablation::one(1, 0, Replacement::Mean),
            ..model_options()
        };
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
        let parts = encode(&e);
        assert_eq!(parts.len(), 2, "the input, then the one layer");
        let frame = || frame_of(&model, &e);
        let with_layer = |f: &dyn Fn(&mut Numbers)| {
            let mut p = parts.clone();
            f(&mut p[1]);
            decode(&p, frame())
        };
        assert!(with_layer(&|l| l.data.truncate(l.data.len() - 1)).is_none());
        assert!(with_layer(&|l| l.sizes.truncate(l.sizes.len() - 1)).is_none());
        assert!(with_layer(&|l| l.data.push(0.0)).is_none());
        // A d_k (the trace's fourth scalar, after its arrays) wider than Q's columns allow.
        let t = &e.layers[0].trace;
        let d_k_at =
            t.x.len() + t.q.len() + t.k.len() + t.v.len() + t.concat.len() + t.output.len() + t.blocked.len() + 3;
        assert_eq!(parts[1].data[d_k_at], t.d_k as f32);
        assert!(with_layer(&|l| l.data[d_k_at] = (t.d_k + 1) as f32).is_none());
        assert!(decode(&parts[..1], frame()).is_none(), "a layer missing");
        assert!(decode(&[parts.clone(), vec![parts[1].clone()]].concat(), frame()).is_none(), "a layer too many");
        let mut first = parts.clone();
        first[0].sizes[0] = u32::MAX;
        assert!(decode(&first, frame()).is_none());
        let two_layers = Frame { projections: vec![Arc::clone(&frame().projections[0]); 2], ..frame() };
        assert!(decode(&parts, two_layers).is_none());
        let fewer_tokens = Frame { tokens: frame().tokens[..2].to_vec(), ..frame() };
        assert!(decode(&parts, fewer_tokens).is_none());
    }
}
