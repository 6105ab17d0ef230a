//! The page's side of the forward worker: it starts the worker when first asked (the script the
//! page names in `<meta name="attention-lab-forward">`, `bridge::FORWARD_META`), keeps one
//! question in flight and, for the lesson, only the latest one waiting (a question overtaken
//! before it was sent is never sent) and drops the answer to any question but the latest (the
//! pretrained views' module, whose views ask several passes at once, has every one answered
//! in turn: [`Forwarder::answering_every`]). It turns the answer's numbers back into an
//! encoding with what the page's own copy of the model knows, a part (the input, then each
//! layer) per message, so that no task of the page's rebuilds it all. A worker that fails (a
//! panic, out of memory, its script would not load) answers its question with why, and a new
//! one starts with the next question.

use super::message::{Answer, Message, Question, ToWorker, Work};
use crate::bridge::FORWARD_META;
use crate::core::model::wire::{Frame, Rebuild};
use crate::core::model::{Encoding, Input, Model, ModelError, RunOptions};
use crate::models::ModelId;
use crate::own_worker::OwnWorker;
use crate::wire::Refused;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

/// A question as the page asked it: with its copy of the model, which reads the answer.
#[derive(Clone)]
pub struct Asked {
    /// What the worker is told.
    pub question: Question,
    /// The page's own copy of the model: its tokens, shape and projections frame the answer.
    pub model: Arc<dyn Model>,
}

/// The answer to the latest question (to every question, for a forwarder
/// [`Forwarder::answering_every`]), as the page reads it (what its callback is told).
pub struct Reply {
    /// The question it answers.
    pub asked: Asked,
    /// The encoding rebuilt, or why there is none.
    pub result: Result<Encoding, ModelError>,
    /// How the worker computed it, if it did.
    pub work: Option<Work>,
}

/// The page's forward worker.
#[derive(Clone)]
pub struct Forwarder(Rc<Inner>);

struct Inner {
    script: String,
    running: RefCell<Option<OwnWorker>>,
    in_flight: RefCell<Option<Asked>>,
    /// The in-flight question's answer, from the parts heard so far.
    rebuilding: RefCell<Option<Rebuild>>,
    /// Oldest first: at most one unless every question is answered.
    waiting: RefCell<Vec<Asked>>,
    latest: Cell<u32>,
    /// Every question is answered, not only the latest.
    every: bool,
    told: Box<dyn Fn(Reply)>,
}

thread_local! {
    /// The worker's start script, looked up once.
    static SCRIPT: std::cell::OnceCell<Option<String>> = const { std::cell::OnceCell::new() };
}

/// Whether the page has a forward worker to start (natively, in the unit tests, it has none).
pub fn forward_worker() -> bool {
    forward_script().is_some()
}

/// The forward worker's start script, if the page has one.
pub fn forward_script() -> Option<String> {
    if !cfg!(target_arch = "wasm32") {
        return None;
    }
    SCRIPT.with(|s| s.get_or_init(script_url).clone())
}

/// The worker's start script, if the page names one (a test page has none). The script picks
/// the relaxed-SIMD build where the engine has it (scripts/postbuild.py).
fn script_url() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let meta = document.query_selector(&format!("meta[name='{FORWARD_META}']")).ok().flatten()?;
    meta.get_attribute("content")
}

impl Forwarder {
    /// A forwarder telling `told` every answer to the latest question; `None` if this page
    /// has no forward worker (then the page computes in place).
    pub fn new(told: impl Fn(Reply) + 'static) -> Option<Forwarder> {
        Self::with(false, told)
    }

    /// A forwarder telling `told` the answer to every question, in the order asked.
    pub fn answering_every(told: impl Fn(Reply) + 'static) -> Option<Forwarder> {
        Self::with(true, told)
    }

    fn with(every: bool, told: impl Fn(Reply) + 'static) -> Option<Forwarder> {
        let inner = Inner {
            script: SCRIPT.with(|s| s.get_or_init(script_url).clone())?,
            running: RefCell::new(None),
            in_flight: RefCell::new(None),
            rebuilding: RefCell::new(None),
            waiting: RefCell::new(Vec::new()),
            latest: Cell::new(0),
            every,
            told: Box::new(told),
        };
        Some(Forwarder(Rc::new(inner)))
    }

    /// Ask for `model` (the registry's `id`) on `input` under `options`.
    pub fn ask(&self, id: ModelId, model: Arc<dyn Model>, input: Input, options: RunOptions) {
        let number = self.0.latest.get() + 1;
        self.0.latest.set(number);
        let asked = Asked { question: Question { number, model: id, input, options }, model };
        if self.0.in_flight.borrow().is_some() {
            let mut waiting = self.0.waiting.borrow_mut();
            if !self.0.every {
                waiting.clear();
            }
            waiting.push(asked);
        } else {
            self.send(asked);
        }
    }

    fn send(&self, asked: Asked) {
        if self.0.running.borrow().is_none() {
            match self.start() {
                Ok(running) => *self.0.running.borrow_mut() = Some(running),
                // Answered with why; the next question waiting tries a worker again.
                Err(why) => return self.tell_and_go_on(asked, Err(ModelError::Worker(why)), None),
            }
        }
        let (message, moved) = ToWorker::Forward(asked.question.clone()).to_js();
        *self.0.in_flight.borrow_mut() = Some(asked);
        *self.0.rebuilding.borrow_mut() = None;
        let posted = self.0.running.borrow().as_ref().map(|r| r.post(&message, Some(&moved)));
        if let Some(Err(why)) = posted {
            self.failed(why);
        }
    }

    fn start(&self) -> Result<OwnWorker, String> {
        let (heard, failed) = (Rc::downgrade(&self.0), Rc::downgrade(&self.0));
        OwnWorker::start(
            &self.0.script,
            move |data| {
                if let Some(inner) = heard.upgrade() {
                    Forwarder(inner).heard(Answer::from_js(&data));
                }
            },
            move |why| {
                if let Some(inner) = failed.upgrade() {
                    Forwarder(inner).failed(why);
                }
            },
        )
    }

    /// A message from the worker: a part of the answer to the question in flight (told once
    /// the last part is in), or why it has none. A part of an earlier question's answer (after
    /// one of its parts did not fit) is passed over.
    fn heard(&self, answer: Result<Answer, Refused>) {
        let in_flight = self.0.in_flight.borrow().as_ref().map(|a| a.question.number);
        let Some(asked) = in_flight else { return };
        let unfit = || ModelError::Worker("an answer that does not fit the model".into());
        match answer {
            Ok(Answer::Encoded { number, numbers, work }) if number == asked => {
                match self.rebuilt(&numbers.data[..], &numbers.sizes) {
                    Ok(None) => {}
                    Ok(Some(encoding)) => self.answered(Ok(encoding), Some(work)),
                    Err(e) => self.answered(Err(e.unwrap_or_else(unfit)), Some(work)),
                }
            }
            Ok(Answer::Failed { number, why }) if number == asked => self.answered(Err(ModelError::Worker(why)), None),
            Ok(_) => {}
            Err(why) => self.answered(Err(ModelError::Worker(format!("an answer the page cannot read: {why}"))), None),
        }
    }

    /// Add one part to the answer being rebuilt: the encoding once it is whole, `None` while
    /// parts are to come; an error (`None` inside: the part does not fit) otherwise.
    fn rebuilt(&self, data: &[f32], sizes: &[u32]) -> Result<Option<Encoding>, Option<ModelError>> {
        let mut rebuilding = self.0.rebuilding.borrow_mut();
        match rebuilding.as_mut() {
            Some(r) => r.add(data, sizes).ok_or(None)?,
            None => {
                let frame = self.0.in_flight.borrow().as_ref().map(frame).ok_or(None)?.map_err(Some)?;
                *rebuilding = Some(Rebuild::start(data, sizes, frame).ok_or(None)?);
            }
        }
        if !rebuilding.as_ref().is_some_and(Rebuild::complete) {
            return Ok(None);
        }
        rebuilding.take().and_then(Rebuild::finish).map(Some).ok_or(None)
    }

    /// The question in flight is answered: tell its answer if it is the latest (or every answer
    /// is told), then send the next one waiting.
    fn answered(&self, result: Result<Encoding, ModelError>, work: Option<Work>) {
        let asked = self.0.in_flight.borrow_mut().take();
        *self.0.rebuilding.borrow_mut() = None;
        if let Some(asked) = asked {
            self.tell_and_go_on(asked, result, work);
        }
    }

    /// The worker failed: its question is answered with why, and the next starts a new worker.
    fn failed(&self, why: String) {
        drop(self.0.running.borrow_mut().take());
        self.answered(Err(ModelError::Worker(why)), None);
    }

    /// Send the next question waiting, then tell `asked`'s answer if it is told (so a question
    /// asked from `told` finds the forwarder as it will stay).
    fn tell_and_go_on(&self, asked: Asked, result: Result<Encoding, ModelError>, work: Option<Work>) {
        let next = {
            let mut waiting = self.0.waiting.borrow_mut();
            (!waiting.is_empty()).then(|| waiting.remove(0))
        };
        if let Some(next) = next {
            self.send(next);
        }
        if self.0.every || asked.question.number == self.0.latest.get() {
            (self.0.told)(Reply { asked, result, work });
        }
    }
}

/// What the page's copy of the model knows of an answer: its shape and tokens, the options
/// asked for, its layers' projections.
fn frame(asked: &Asked) -> Result<Frame, ModelError> {
    let (model, q) = (&asked.model, &asked.question);
    let tokens = model.tokenize(&q.input.text).map_err(|p| p.of("query"))?;
    let kv_tokens = match &q.input.kv_text {
        Some(t) => Some(model.tokenize(t).map_err(|p| p.of("key/value"))?),
        None => None,
    };
    Ok(Frame {
        shape: model.shape().clone(),
        options: q.options.clone(),
        tokens,
        kv_tokens,
        projections: model.layer_projections(),
    })
}

/// A module whose one function returns `f32x4.relaxed_madd` of three zero vectors: the probe
/// the forward worker's start script validates to choose its build (scripts/postbuild.py's
/// `RELAXED_PROBE`, byte for byte).
#[rustfmt::skip]
const RELAXED_PROBE: [u8; 82] = [
    0, 0x61, 0x73, 0x6D, 1, 0, 0, 0, // the header
    1, 5, 1, 0x60, 0, 1, 0x7B, // one type: () -> v128
    3, 2, 1, 0, // one function of it
    0x0A, 0x3D, 1, 0x3B, 0, // its body, no locals:
    0xFD, 0x0C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // v128.const 0
    0xFD, 0x0C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // v128.const 0
    0xFD, 0x0C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // v128.const 0
    0xFD, 0x85, 0x02, 0x0B, // f32x4.relaxed_madd, end
];

/// Whether this browser runs relaxed SIMD, so that the forward worker starts its relaxed-SIMD
/// build (Chromium, Firefox) rather than the plain simd128 one (WebKit, Safari's engine).
pub fn relaxed_simd() -> bool {
    js_sys::WebAssembly::validate(&js_sys::Uint8Array::from(&RELAXED_PROBE[..]).into()).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    /// The page's probe is the one the worker's start script runs (scripts/postbuild.py).
    #[test]
    fn the_relaxed_simd_probe_is_the_start_scripts() {
        let script = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/postbuild.py")).unwrap();
        let start = script.find("RELAXED_PROBE = (").unwrap();
        let end = start + script[start..].find("\n)\n").unwrap() + 3;
        let program = format!("{}\nprint(','.join(map(str, RELAXED_PROBE)))", &script[start..end]);
        let out = std::process::Command::new("python3").args(["-c", &program]).output().unwrap();
        let bytes: Vec<u8> =
            String::from_utf8_lossy(&out.stdout).trim().split(',').map(|b| b.parse().unwrap()).collect();
        assert_eq!(bytes, super::RELAXED_PROBE);
    }
}
