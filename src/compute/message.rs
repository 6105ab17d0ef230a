//! What the page and the forward worker say to each other, typed: the page asks a forward
//! pass (a model, a sentence and run options, numbered) or a sweep (every head off in turn);
//! the worker answers with the encoding's numbers a part at a time, or why there are none, or
//! a sweep's heads one by one. One codec (`crate::wire`): every message is bytes, with the
//! numbers of an encoding beside them, moved rather than copied; a message that does not read
//! is refused with a reason. A worker's panic or a script that will not load reaches the page
//! through `own_worker`, not as a message.

use crate::core::ablate::{Ablation, Replacement};
use crate::core::attention::Mask;
use crate::core::intervene::Readout;
use crate::core::model::wire::Numbers;
use crate::core::model::{Input, RunOptions};
use crate::models::ModelId;
pub use crate::wire::{Message, Packet};
use crate::wire::{Reader, Refused, Writer};

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
#[derive(Debug, Clone, PartialEq)]
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

/// What the page asks the forward worker (a sweeper asks its own).
#[derive(Debug, Clone, PartialEq)]
pub enum ToWorker {
    Forward(Question),
    Sweep(SweepQuestion),
}

// The variants' tags: the two directions apart, so that a message sent the wrong way is
// refused as unknown.
const FORWARD: u8 = 1;
const SWEEP: u8 = 2;
const ENCODED: u8 = 11;
const FAILED: u8 = 12;
const SWEPT: u8 = 13;

/// A question's model, sentence and run options.
fn put_run(w: &mut Writer, number: u32, model: ModelId, input: &Input, options: &RunOptions) {
    w.u32(number).text(model.slug()).text(&input.text).maybe_text(input.kv_text.as_deref());
    w.text(options.mask.slug()).flag(options.scaled).f32(options.temperature);
    let off = options.ablation.heads();
    w.usize(off.len());
    for &(layer, head) in off.iter() {
        w.usize(layer).usize(head);
    }
    w.text(options.ablation.replacement.slug());
}

/// Read what [`put_run`] wrote.
fn run_of(r: &mut Reader) -> Result<(u32, ModelId, Input, RunOptions), Refused> {
    let number = r.u32()?;
    let model = ModelId::from_slug(&r.text()?).ok_or(Refused::Invalid("model"))?;
    let input = Input { text: r.text()?, kv_text: r.maybe_text()? };
    let mask = Mask::from_slug(&r.text()?).ok_or(Refused::Invalid("mask"))?;
    let (scaled, temperature) = (r.flag()?, r.f32()?);
    let off = r.usize()?;
    // Each head off takes 8 bytes: a count beyond what is left is a message cut short (and
    // never a huge allocation).
    let mut heads = Vec::with_capacity(off.min(1024));
    for _ in 0..off {
        heads.push((r.usize()?, r.usize()?));
    }
    let replacement = Replacement::from_slug(&r.text()?).ok_or(Refused::Invalid("replacement"))?;
    let options = RunOptions { mask, scaled, temperature, ablation: Ablation::new(heads, replacement) };
    Ok((number, model, input, options))
}

/// Refused if a message that carries no encoding has numbers beside it.
fn no_numbers(packet: &Packet) -> Result<(), Refused> {
    if packet.numbers == Numbers::default() {
        Ok(())
    } else {
        Err(Refused::Invalid("numbers"))
    }
}

impl Message for ToWorker {
    fn encode(&self) -> Packet {
        let bytes = match self {
            ToWorker::Forward(q) => {
                let mut w = Writer::new(FORWARD);
                put_run(&mut w, q.number, q.model, &q.input, &q.options);
                w.finish()
            }
            ToWorker::Sweep(q) => {
                let mut w = Writer::new(SWEEP);
                put_run(&mut w, q.number, q.model, &q.input, &q.options);
                w.text(q.replacement.slug());
                match q.readout {
                    Readout::Final => w.byte(0),
                    Readout::Weight { layer, from, to } => w.byte(1).usize(layer).usize(from).usize(to),
                    Readout::Similarity => w.byte(2),
                };
                w.maybe_text(q.other.as_deref()).finish()
            }
        };
        Packet { bytes, numbers: Numbers::default() }
    }

    fn decode(packet: Packet) -> Result<ToWorker, Refused> {
        no_numbers(&packet)?;
        let (tag, mut r) = Reader::open(&packet.bytes)?;
        let (number, model, input, options) = match tag {
            FORWARD | SWEEP => run_of(&mut r)?,
            other => return Err(Refused::Unknown(other)),
        };
        let message = if tag == FORWARD {
            ToWorker::Forward(Question { number, model, input, options })
        } else {
            let replacement = Replacement::from_slug(&r.text()?).ok_or(Refused::Invalid("replacement"))?;
            let readout = match r.byte()? {
                0 => Readout::Final,
                1 => Readout::Weight { layer: r.usize()?, from: r.usize()?, to: r.usize()? },
                2 => Readout::Similarity,
                _ => return Err(Refused::Invalid("readout")),
            };
            let other = r.maybe_text()?;
            ToWorker::Sweep(SweepQuestion { number, model, input, options, replacement, readout, other })
        };
        r.done()?;
        Ok(message)
    }
}

impl Message for Answer {
    fn encode(&self) -> Packet {
        match self {
            Answer::Encoded { number, numbers, work } => Packet {
                bytes: Writer::new(ENCODED).u32(*number).f64(work.ms).text(&work.kernels).finish(),
                numbers: numbers.clone(),
            },
            Answer::Failed { number, why } => {
                Packet { bytes: Writer::new(FAILED).u32(*number).text(why).finish(), numbers: Numbers::default() }
            }
            Answer::Swept { number, layer, head, effect, done, of } => Packet {
                bytes: Writer::new(SWEPT)
                    .u32(*number)
                    .usize(*layer)
                    .usize(*head)
                    .f32(*effect)
                    .usize(*done)
                    .usize(*of)
                    .finish(),
                numbers: Numbers::default(),
            },
        }
    }

    fn decode(packet: Packet) -> Result<Answer, Refused> {
        let (tag, mut r) = Reader::open(&packet.bytes)?;
        let number = match tag {
            ENCODED | FAILED | SWEPT => r.u32()?,
            other => return Err(Refused::Unknown(other)),
        };
        let answer = match tag {
            ENCODED => {
                let work = Work { ms: r.f64()?, kernels: r.text()? };
                Answer::Encoded { number, numbers: packet.numbers.clone(), work }
            }
            FAILED => {
                no_numbers(&packet)?;
                Answer::Failed { number, why: r.text()? }
            }
            _ => {
                no_numbers(&packet)?;
                let (layer, head, effect) = (r.usize()?, r.usize()?, r.f32()?);
                Answer::Swept { number, layer, head, effect, done: r.usize()?, of: r.usize()? }
            }
        };
        r.done()?;
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::VERSION;

    fn questions() -> Vec<ToWorker> {
        let plain = Question {
            number: 1,
            model: ModelId::Minilm,
            input: Input { text: "the cat sat".into(), kv_text: None },
            options: RunOptions::default(),
        };
        let mut crossed = plain.clone();
        crossed.number = u32::MAX;
        crossed.input = Input { text: "猫坐着".into(), kv_text: Some("a mat".into()) };
        crossed.options = RunOptions {
            mask: Mask::Causal,
            scaled: false,
            temperature: 0.25,
            ablation: Ablation::new([(0, 1), (5, 11)], Replacement::Zero),
        };
        let sweep = |readout, other: Option<&str>| SweepQuestion {
            number: 7,
            model: ModelId::Minilm,
            input: crossed.input.clone(),
            options: crossed.options.clone(),
            replacement: Replacement::Mean,
            readout,
            other: other.map(String::from),
        };
        vec![
            ToWorker::Forward(plain),
            ToWorker::Forward(crossed.clone()),
            ToWorker::Sweep(sweep(Readout::Final, None)),
            ToWorker::Sweep(sweep(Readout::Weight { layer: 2, from: 3, to: 4 }, None)),
            ToWorker::Sweep(sweep(Readout::Similarity, Some("another sentence"))),
        ]
    }

    fn answers() -> Vec<Answer> {
        vec![
            Answer::Encoded {
                number: 3,
                numbers: Numbers { data: vec![0.5, -1.0, f32::MIN_POSITIVE], sizes: vec![1, 3] },
                work: Work { ms: 12.25, kernels: "simd128".into() },
            },
            Answer::Encoded { number: 4, numbers: Numbers::default(), work: Work { ms: 0.0, kernels: String::new() } },
            Answer::Failed { number: 5, why: "the model did not load: 404".into() },
            Answer::Swept { number: 6, layer: 5, head: 11, effect: -0.125, done: 72, of: 72 },
        ]
    }

    #[test]
    fn every_message_comes_back_as_it_was_sent() {
        for q in questions() {
            assert_eq!(ToWorker::decode(q.encode()), Ok(q));
        }
        for a in answers() {
            assert_eq!(Answer::decode(a.encode()), Ok(a));
        }
    }

    #[test]
    fn a_message_cut_short_is_refused_at_every_length() {
        let packets: Vec<(Packet, bool)> = questions()
            .iter()
            .map(|q| (q.encode(), true))
            .chain(answers().iter().map(|a| (a.encode(), false)))
            .collect();
        for (whole, question) in packets {
            for len in 0..whole.bytes.len() {
                let cut = Packet { bytes: whole.bytes[..len].to_vec(), numbers: whole.numbers.clone() };
                let read = if question { ToWorker::decode(cut).err() } else { Answer::decode(cut).err() };
                assert_eq!(read, Some(Refused::Truncated), "cut at {len} of {}", whole.bytes.len());
            }
        }
    }

    #[test]
    fn a_message_of_the_other_direction_another_version_or_not_ours_is_refused() {
        let question = questions().remove(0).encode();
        assert_eq!(Answer::decode(question.clone()), Err(Refused::Unknown(FORWARD)));
        assert_eq!(ToWorker::decode(answers().remove(2).encode()), Err(Refused::Unknown(FAILED)));
        let mut future = question.clone();
        future.bytes[2] = VERSION + 1;
        assert_eq!(ToWorker::decode(future), Err(Refused::Version(VERSION + 1)));
        let json = Packet { bytes: br#"{"number":1,"model":"minilm"}"#.to_vec(), numbers: Numbers::default() };
        assert_eq!(ToWorker::decode(json), Err(Refused::Foreign));
        let mut longer = question.clone();
        longer.bytes.push(0);
        assert_eq!(ToWorker::decode(longer), Err(Refused::Trailing));
        let mut with_numbers = question;
        with_numbers.numbers.data.push(1.0);
        assert_eq!(ToWorker::decode(with_numbers), Err(Refused::Invalid("numbers")));
    }

    #[test]
    fn a_field_that_names_nothing_is_refused_by_name() {
        let mut w = Writer::new(FORWARD);
        w.u32(1).text("no-such-model");
        let packet = Packet { bytes: w.finish(), numbers: Numbers::default() };
        assert_eq!(ToWorker::decode(packet), Err(Refused::Invalid("model")));
        // A sweep whose readout is none of the three.
        let mut bytes = questions().remove(2).encode().bytes;
        let at = bytes.len() - 2; // the readout's byte, before "no other sentence"
        bytes[at] = 9;
        assert_eq!(ToWorker::decode(Packet { bytes, numbers: Numbers::default() }), Err(Refused::Invalid("readout")));
    }
}
