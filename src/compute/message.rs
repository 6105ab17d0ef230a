//! What the page and the forward worker say to each other, as plain JS objects: a question (a
//! model, a sentence and run options, numbered) and its answer (the encoding's numbers, or why
//! there are none); or a sweep (every head off in turn) and its answers, a head at a time. A message that does not read as one of these reads as `None`.

use crate::core::ablate::{Ablation, Replacement};
use crate::core::attention::Mask;
use crate::core::intervene::Readout;
use crate::core::model::wire::Numbers;
use crate::core::model::{Input, RunOptions};
use crate::models::ModelId;
use js_sys::{Array, Float32Array, Float64Array, Object, Reflect, Uint32Array};
use wasm_bindgen::{JsCast, JsValue};

/// A forward pass asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// Counts up on the page: the answer names the question it answers.
    pub number: u32,
    /// The registry's model, which the worker brings itself.
    pub model: ModelId,
    /// The sentence (and the second one of cross-attention).
    pub input: Input,
    /// How attention runs in every layer.
    pub options: RunOptions,
}

/// A head-importance sweep asked for: every head of the model switched off alone in turn on
/// the sentence (and the second one, for a similarity), each scored by `readout`.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepQuestion {
    pub number: u32,
    pub model: ModelId,
    pub input: Input,
    /// How attention runs (the heads switched off in it are ignored: each runs alone).
    pub options: RunOptions,
    pub replacement: Replacement,
    pub readout: Readout,
    /// The second sentence, for [`Readout::Similarity`].
    pub other: Option<String>,
}

/// What the worker answers.
#[derive(Debug, Clone)]
pub enum Answer {
    /// One part of the encoding's numbers (`core::model::wire`: the input, then each layer, in
    /// order), and how long the forward pass took.
    Encoded { number: u32, numbers: Numbers, work: Work },
    /// The forward pass refused, or the model would not load: why.
    Failed { number: u32, why: String },
    /// One head of a sweep: (layer, head) from 0, its effect, and how many of how many heads
    /// are done.
    Swept { number: u32, layer: usize, head: usize, effect: f32, done: usize, of: usize },
}

/// How the worker computed an answer (the benchmark prints it).
#[derive(Debug, Clone, PartialEq)]
pub struct Work {
    /// The forward pass alone, in the worker (ms).
    pub ms: f64,
    /// Which build of the kernels ran (`core::kernels::BUILD`).
    pub kernels: String,
}

fn set(object: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(object, &JsValue::from_str(key), value);
}

fn get(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn number_of(object: &JsValue, key: &str) -> Option<u32> {
    get(object, key).as_f64().filter(|n| n.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(n)).map(|n| n as u32)
}

/// Write a question's model, sentence and run options into `o`.
fn put_run(o: &Object, number: u32, model: ModelId, input: &Input, options: &RunOptions) {
    set(o, "number", &number.into());
    set(o, "model", &model.slug().into());
    set(o, "text", &input.text.as_str().into());
    set(o, "kv", &input.kv_text.as_deref().map_or(JsValue::NULL, JsValue::from_str));
    set(o, "mask", &options.mask.slug().into());
    set(o, "scaled", &options.scaled.into());
    set(o, "temperature", &options.temperature.into());
    let off: Vec<f64> = options.ablation.heads().iter().flat_map(|&(l, h)| [l as f64, h as f64]).collect();
    set(o, "off", &Float64Array::from(&off[..]));
    set(o, "replacement", &options.ablation.replacement.slug().into());
}

/// Read what [`put_run`] wrote.
fn run_of(value: &JsValue) -> Option<(u32, ModelId, Input, RunOptions)> {
    let model = ModelId::from_slug(&get(value, "model").as_string()?)?;
    let kv = get(value, "kv");
    let kv_text = if kv.is_null() { None } else { Some(kv.as_string()?) };
    let off = get(value, "off").dyn_into::<Float64Array>().ok()?.to_vec();
    if off.len() % 2 != 0 || off.iter().any(|x| x.fract() != 0.0 || *x < 0.0) {
        return None;
    }
    let options = RunOptions {
        mask: Mask::from_slug(&get(value, "mask").as_string()?)?,
        scaled: get(value, "scaled").as_bool()?,
        temperature: get(value, "temperature").as_f64()? as f32,
        ablation: Ablation::new(
            off.chunks(2).map(|p| (p[0] as usize, p[1] as usize)),
            Replacement::from_slug(&get(value, "replacement").as_string()?)?,
        ),
    };
    Some((number_of(value, "number")?, model, Input { text: get(value, "text").as_string()?, kv_text }, options))
}

impl Question {
    pub fn to_js(&self) -> JsValue {
        let o = Object::new();
        put_run(&o, self.number, self.model, &self.input, &self.options);
        o.into()
    }

    pub fn from_js(value: &JsValue) -> Option<Question> {
        if !get(value, "readout").is_undefined() {
            return None;
        }
        let (number, model, input, options) = run_of(value)?;
        Some(Question { number, model, input, options })
    }
}

impl SweepQuestion {
    pub fn to_js(&self) -> JsValue {
        let o = Object::new();
        put_run(&o, self.number, self.model, &self.input, &self.options);
        set(&o, "sweep_replacement", &self.replacement.slug().into());
        let (kind, layer, from, to) = match self.readout {
            Readout::Final => ("final", 0, 0, 0),
            Readout::Weight { layer, from, to } => ("weight", layer, from, to),
            Readout::Similarity => ("similarity", 0, 0, 0),
        };
        set(&o, "readout", &kind.into());
        set(&o, "readout_at", &Float64Array::from(&[layer as f64, from as f64, to as f64][..]));
        set(&o, "other", &self.other.as_deref().map_or(JsValue::NULL, JsValue::from_str));
        o.into()
    }

    pub fn from_js(value: &JsValue) -> Option<SweepQuestion> {
        let (number, model, input, options) = run_of(value)?;
        let at = get(value, "readout_at").dyn_into::<Float64Array>().ok()?.to_vec();
        let whole = |x: &f64| (x.fract() == 0.0 && *x >= 0.0).then_some(*x as usize);
        let [layer, from, to] = [whole(at.first()?)?, whole(at.get(1)?)?, whole(at.get(2)?)?];
        let readout = match get(value, "readout").as_string()?.as_str() {
            "final" => Readout::Final,
            "weight" => Readout::Weight { layer, from, to },
            "similarity" => Readout::Similarity,
            _ => return None,
        };
        let other = get(value, "other");
        let other = if other.is_null() { None } else { Some(other.as_string()?) };
        let replacement = Replacement::from_slug(&get(value, "sweep_replacement").as_string()?)?;
        Some(SweepQuestion { number, model, input, options, replacement, readout, other })
    }
}

impl Answer {
    /// The message, and the list of buffers to move with it.
    pub fn to_js(&self) -> (JsValue, Array) {
        let o = Object::new();
        let moved = Array::new();
        match self {
            Answer::Encoded { number, numbers, work } => {
                set(&o, "number", &(*number).into());
                set(&o, "ms", &work.ms.into());
                set(&o, "kernels", &work.kernels.as_str().into());
                let (data, sizes) = (Float32Array::from(&numbers.data[..]), Uint32Array::from(&numbers.sizes[..]));
                moved.push(&data.buffer());
                moved.push(&sizes.buffer());
                set(&o, "data", &data);
                set(&o, "sizes", &sizes);
            }
            Answer::Failed { number, why } => {
                set(&o, "number", &(*number).into());
                set(&o, "why", &why.as_str().into());
            }
            Answer::Swept { number, layer, head, effect, done, of } => {
                set(&o, "number", &(*number).into());
                let cell = [*layer as f64, *head as f64, f64::from(*effect), *done as f64, *of as f64];
                set(&o, "swept", &Float64Array::from(&cell[..]));
            }
        }
        (o.into(), moved)
    }

    pub fn from_js(value: &JsValue) -> Option<Answer> {
        let number = number_of(value, "number")?;
        if let Some(why) = get(value, "why").as_string() {
            return Some(Answer::Failed { number, why });
        }
        if let Ok(cell) = get(value, "swept").dyn_into::<Float64Array>() {
            let cell = cell.to_vec();
            let whole = |i: usize| cell.get(i).filter(|x| x.fract() == 0.0 && **x >= 0.0).map(|x| *x as usize);
            let (layer, head, done, of) = (whole(0)?, whole(1)?, whole(3)?, whole(4)?);
            return Some(Answer::Swept { number, layer, head, effect: *cell.get(2)? as f32, done, of });
        }
        let data = get(value, "data").dyn_into::<Float32Array>().ok()?.to_vec();
        let sizes = get(value, "sizes").dyn_into::<Uint32Array>().ok()?.to_vec();
        let work = Work { ms: get(value, "ms").as_f64()?, kernels: get(value, "kernels").as_string()? };
        Some(Answer::Encoded { number, numbers: Numbers { data, sizes }, work })
    }
}
