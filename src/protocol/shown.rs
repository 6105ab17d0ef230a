//! The lesson's numbers as they cross to the side lessons' module (`ToModule::Shown`): the
//! shown layer of the page's outcome, exactly as the page computed it, for a module that has
//! no model of its own. The arrays cross as `core::model::wire` numbers (the embedding and the
//! layer's trace, in that codec's order; then the layer's W_Q, W_K, W_V, W_O and biases); what
//! a module cannot know otherwise goes in the bytes: the tokens, the model's shape (for a
//! pretrained model, its name: the module has its configuration) and the run's options. What
//! the lesson draws from one layer is all there is: the module rebuilds an encoding of that one
//! layer, without the heads switched off (its views draw the numbers, not the experiment).

use crate::core::bert::PRETRAINED;
use crate::core::mask::Mask;
use crate::core::model::wire::{self, Frame, Numbers};
use crate::core::model::{InputRule, Origin, Outcome, RunOptions, Shape, Token};
use crate::core::projections::Projections;
use crate::wire::{Reader, Refused, Writer};
use ndarray::{Array1, Array2};
use std::sync::Arc;

/// The shown layer as it crosses: the page's outcome, or what a module received of it, read
/// into an outcome only by the module that draws it (the others never link the reader).
#[derive(Debug, Clone, PartialEq)]
pub enum ShownLayer {
    Outcome(Arc<Outcome>),
    Received { bytes: Vec<u8>, numbers: Numbers },
}

/// The tag of the shown layer's own bytes (a message inside `ToModule::Shown`).
const LAYER: u8 = 24;

impl ShownLayer {
    /// Its bytes and numbers.
    pub fn encode(&self) -> (Vec<u8>, Numbers) {
        match self {
            ShownLayer::Outcome(o) => {
                let mut w = Writer::new(LAYER);
                let numbers = put(&mut w, o);
                (w.finish(), numbers)
            }
            ShownLayer::Received { bytes, numbers } => (bytes.clone(), numbers.clone()),
        }
    }

    /// The outcome of the one layer shown; refused with a reason if it does not read.
    pub fn outcome(&self) -> Result<Arc<Outcome>, Refused> {
        match self {
            ShownLayer::Outcome(o) => Ok(Arc::clone(o)),
            ShownLayer::Received { bytes, numbers } => {
                let (tag, mut r) = Reader::open(bytes)?;
                if tag != LAYER {
                    return Err(Refused::Unknown(tag));
                }
                let outcome = take(&mut r, numbers)?;
                r.done()?;
                Ok(Arc::new(outcome))
            }
        }
    }
}

/// Write `outcome`'s shown layer: its frame into `w`, its numbers returned.
fn put(w: &mut Writer, outcome: &Outcome) -> Numbers {
    let encoding = &outcome.encoding;
    let texts = |tokens: &[Token]| tokens.iter().map(|t| t.text.clone()).collect::<Vec<_>>();
    put_texts(w, &texts(&encoding.tokens));
    w.flag(encoding.kv_tokens.is_some());
    if let Some(kv) = &encoding.kv_tokens {
        put_texts(w, &texts(kv));
    }
    put_shape(w, &encoding.shape);
    let o = &encoding.options;
    w.text(o.mask.slug()).flag(o.scaled).f32(o.temperature);
    // The numbers: the input's part and the layer's (one layer), then the projections.
    let layers: Vec<_> = encoding.layers.get(outcome.layer).into_iter().collect();
    let mut parts = wire::encode_layers(encoding, &layers);
    parts.push(projection_numbers(outcome.projections()));
    w.usize(parts.len());
    let mut all = Numbers::default();
    for part in parts {
        w.usize(part.data.len()).usize(part.sizes.len());
        all.data.extend(part.data);
        all.sizes.extend(part.sizes);
    }
    all
}

/// Read what [`put`] wrote: an outcome of the one layer shown.
fn take(r: &mut Reader, numbers: &Numbers) -> Result<Outcome, Refused> {
    let tokens = take_texts(r)?;
    let kv_tokens = if r.flag()? { Some(take_texts(r)?) } else { None };
    let shape = take_shape(r)?;
    let mask = Mask::from_slug(&r.text()?).ok_or(Refused::Invalid("mask"))?;
    let options = RunOptions { mask, scaled: r.flag()?, temperature: r.f32()?, ..RunOptions::default() };
    let count = r.usize()?;
    let mut parts = Vec::new();
    let (mut data_at, mut sizes_at) = (0usize, 0usize);
    for _ in 0..count.min(3) {
        let (data_len, sizes_len) = (r.usize()?, r.usize()?);
        let data = numbers.data.get(data_at..data_at.saturating_add(data_len)).ok_or(Refused::Invalid("numbers"))?;
        let sizes =
            numbers.sizes.get(sizes_at..sizes_at.saturating_add(sizes_len)).ok_or(Refused::Invalid("numbers"))?;
        parts.push(Numbers { data: data.to_vec(), sizes: sizes.to_vec() });
        (data_at, sizes_at) = (data_at + data_len, sizes_at + sizes_len);
    }
    if count != 3 || data_at != numbers.data.len() || sizes_at != numbers.sizes.len() {
        return Err(Refused::Invalid("numbers"));
    }
    let projections = projections_of(&parts[2], shape.d_model, shape.biases).ok_or(Refused::Invalid("projections"))?;
    let token = |text: String| Token { id: 0, text };
    let frame = Frame {
        shape,
        options,
        tokens: tokens.into_iter().map(token).collect(),
        kv_tokens: kv_tokens.map(|kv| kv.into_iter().map(token).collect()),
        projections: vec![Arc::new(projections)],
    };
    let encoding = wire::decode(&parts[..2], frame).ok_or(Refused::Invalid("numbers"))?;
    Outcome::new(Arc::new(encoding), 0).ok_or(Refused::Invalid("numbers"))
}

fn put_texts(w: &mut Writer, texts: &[String]) {
    w.usize(texts.len());
    texts.iter().for_each(|t| {
        w.text(t);
    });
}

fn take_texts(r: &mut Reader) -> Result<Vec<String>, Refused> {
    let n = r.usize()?;
    // Each text takes at least its length's 4 bytes: a count beyond that is a message cut short.
    let mut texts = Vec::with_capacity(n.min(4096));
    for _ in 0..n {
        texts.push(r.text()?);
    }
    Ok(texts)
}

const SEEDED: u8 = 0;
const PRETRAINED_MODEL: u8 = 1;
const YOURS: u8 = 2;

/// The shape; a pretrained model by its name (its configuration knows the rest).
fn put_shape(w: &mut Writer, s: &Shape) {
    match s.origin {
        Origin::Pretrained { name, .. } => {
            w.byte(PRETRAINED_MODEL).text(name);
            return;
        }
        Origin::Seeded { seed } => w.byte(SEEDED).u32(seed as u32).u32((seed >> 32) as u32),
        Origin::Yours => w.byte(YOURS),
    };
    let (input, on) = match s.input {
        InputRule::Sinusoidal { on } => (0, on),
        InputRule::Learned => (1, false),
        InputRule::LearnedNormed => (2, false),
        InputRule::SinusoidalTrained => (3, false),
        InputRule::Rotary => (4, false),
    };
    w.usize(s.n_heads).usize(s.kv_heads).usize(s.d_model).usize(s.max_tokens);
    w.flag(s.causal).flag(s.scaled).byte(input).flag(on).flag(s.framed).flag(s.cross).flag(s.biases);
}

fn take_shape(r: &mut Reader) -> Result<Shape, Refused> {
    let origin = match r.byte()? {
        PRETRAINED_MODEL => {
            let name = r.text()?;
            let config = PRETRAINED.into_iter().find(|c| c.name == name).ok_or(Refused::Invalid("model"))?;
            return Ok(Shape { n_layers: 1, ..config.shape() });
        }
        SEEDED => Origin::Seeded { seed: u64::from(r.u32()?) | (u64::from(r.u32()?) << 32) },
        YOURS => Origin::Yours,
        _ => return Err(Refused::Invalid("origin")),
    };
    let (n_heads, kv_heads, d_model, max_tokens) = (r.usize()?, r.usize()?, r.usize()?, r.usize()?);
    let (causal, scaled, input, on) = (r.flag()?, r.flag()?, r.byte()?, r.flag()?);
    let input = match input {
        0 => InputRule::Sinusoidal { on },
        1 => InputRule::Learned,
        2 => InputRule::LearnedNormed,
        3 => InputRule::SinusoidalTrained,
        4 => InputRule::Rotary,
        _ => return Err(Refused::Invalid("input")),
    };
    let (framed, cross, biases) = (r.flag()?, r.flag()?, r.flag()?);
    if n_heads == 0 || d_model % n_heads != 0 {
        return Err(Refused::Invalid("shape"));
    }
    let unknown = None;
    Ok(Shape {
        n_layers: 1,
        n_heads,
        kv_heads,
        d_model,
        max_tokens,
        causal,
        scaled,
        input,
        framed,
        unknown,
        cross,
        biases,
        origin,
    })
}

/// W_Q, W_K, W_V, W_O (d_model × d_model each, as rows and columns), then the four biases
/// if the model has them (as one row each).
fn projection_numbers(p: &Projections) -> Numbers {
    let mut n = Numbers::default();
    for w in [p.w_q(), p.w_k(), p.w_v(), p.w_o()] {
        n.sizes.extend([w.nrows() as u32, w.ncols() as u32]);
        n.data.extend(w.iter());
    }
    for b in p.biases.iter().flatten() {
        n.sizes.extend([1, b.len() as u32]);
        n.data.extend(b.iter());
    }
    n
}

fn projections_of(n: &Numbers, d_model: usize, biases: bool) -> Option<Projections> {
    let count = if biases { 8 } else { 4 };
    let mut at = 0;
    let mut arrays = Vec::with_capacity(count);
    for (i, pair) in n.sizes.chunks_exact(2).enumerate() {
        let (rows, cols) = (pair[0] as usize, pair[1] as usize);
        let expected = if i < 4 { (d_model, d_model) } else { (1, d_model) };
        if (rows, cols) != expected {
            return None;
        }
        let values = n.data.get(at..at + rows * cols)?.to_vec();
        at += rows * cols;
        arrays.push(Array2::from_shape_vec((rows, cols), values).ok()?);
    }
    if arrays.len() != count || at != n.data.len() || n.sizes.len() != 2 * count {
        return None;
    }
    let mut arrays = arrays.into_iter();
    let mut next = || arrays.next();
    let p = Projections::from_matrices(next()?, next()?, next()?, next()?).ok()?;
    if !biases {
        return Some(p);
    }
    let mut bias = || next().map(|b| Array1::from_iter(b.iter().copied()));
    p.with_biases([bias()?, bias()?, bias()?, bias()?]).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::reading::tests::outcome;

    fn round_trip(o: &Outcome) -> Outcome {
        let (bytes, numbers) = ShownLayer::Outcome(Arc::new(o.clone())).encode();
        let back = ShownLayer::Received { bytes, numbers }.outcome().expect("reads back");
        Outcome::clone(&back)
    }

    #[test]
    fn the_shown_layer_reads_back_as_the_page_computed_it() {
        let o = outcome(Lang::En, |_, _| {});
        let back = round_trip(&o);
        let (a, b) = (o.trace(), back.trace());
        assert_eq!((&back.tokens, &back.kv_tokens), (&o.tokens, &o.kv_tokens));
        assert_eq!(a, b, "the whole trace, every head from Q_h to A·V_h");
        assert_eq!(back.projections().w_q(), o.projections().w_q());
        assert_eq!(back.shape().origin, o.shape().origin);
        assert_eq!(back.embedding(), o.embedding());
        assert_eq!(back.encoding.options.mask, o.encoding.options.mask);
        // The learner's model: its own shape crosses whole (grouped keys, rotary positions).
        let mut yours = (*o.encoding).clone();
        yours.shape =
            Shape { origin: Origin::Yours, input: InputRule::Rotary, kv_heads: 1, causal: true, ..yours.shape };
        let yours = Outcome::new(Arc::new(yours), 0).expect("one layer");
        assert_eq!(round_trip(&yours).shape(), yours.shape());
        let seeded = Shape { origin: Origin::Seeded { seed: u64::MAX - 7 }, ..o.shape().clone() };
        let mut far = (*o.encoding).clone();
        far.shape = seeded.clone();
        assert_eq!(round_trip(&Outcome::new(Arc::new(far), 0).expect("one layer")).shape(), &seeded);
    }

    #[test]
    fn a_shown_layer_cut_short_or_with_numbers_that_do_not_fit_is_refused() {
        let o = outcome(Lang::En, |_, _| {});
        let (bytes, numbers) = ShownLayer::Outcome(Arc::new(o)).encode();
        let read = |bytes: &[u8], numbers: &Numbers| {
            ShownLayer::Received { bytes: bytes.to_vec(), numbers: numbers.clone() }.outcome().err()
        };
        for end in [0, 4, bytes.len() / 2, bytes.len() - 1] {
            assert!(read(&bytes[..end], &numbers).is_some(), "cut at {end}");
        }
        let mut fewer = numbers.clone();
        fewer.data.pop();
        assert_eq!(read(&bytes, &fewer), Some(Refused::Invalid("numbers")));
        let mut other = bytes.clone();
        other[3] = 23;
        assert_eq!(read(&other, &numbers), Some(Refused::Unknown(23)));
    }
}
