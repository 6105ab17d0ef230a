//! The pretrained model as this module holds it: its frame (shape, tokenizer, the attention
//! weights in the file's own 8- or 4-bit form, as the page holds it) and a forward worker of
//! the module's own that computes its forward passes. The views ask it as they would ask any
//! model (`Model::forward`, synchronously, from a memo): a pass the worker has answered is
//! given at once; one it has not is asked for and is [`ModelError::Computing`] meanwhile, and
//! the memo that asked runs again when the answer arrives. So the module never holds the
//! model's embeddings and feed-forward weights, and the worker, with the whole model, ends
//! when the view closes ([`Asking::end`], on `ToModule::Closed`; a view mounted again for a
//! new sentence keeps it).

use crate::compute::client::{Forwarder, Reply};
use crate::core::model::{Encoding, Input, Model, ModelError, RunOptions, SentenceProblem, Shape, Token};
use crate::core::projections::Projections;
use crate::models::ModelId;
use leptos::prelude::{ArcTrigger, Notify, Track};
use send_wrapper::SendWrapper;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// The answers kept: at least the most passes one view asks at once, so that a computation
/// needing two of them finds the first still kept when the second arrives (the model view with
/// heads off: the sentence whole and with the heads off, the second sentence's pair, on e5 each
/// with its "query: " prefix, so four, whole and with the heads off, and the two of the
/// same-word panel: eight). Each is a few MB for a short sentence; all go when the view closes.
const KEPT: usize = 8;

/// A pretrained model whose forward passes run in a worker.
pub struct Asking {
    id: ModelId,
    /// What frames the worker's answers.
    frame: Arc<dyn Model>,
    state: SendWrapper<Rc<State>>,
}

/// A pass asked for and not answered yet, and what the computations that asked wait on.
struct Waiting {
    input: Input,
    options: RunOptions,
    answered: ArcTrigger,
}

/// A pass the worker answered.
struct Answered {
    input: Input,
    options: RunOptions,
    result: Result<Arc<Encoding>, ModelError>,
}

#[derive(Default)]
struct State {
    /// The worker, once asked (started again by the next question after [`Asking::end`]).
    forwarder: RefCell<Option<Forwarder>>,
    waiting: RefCell<Vec<Waiting>>,
    /// Newest last.
    answered: RefCell<Vec<Answered>>,
}

impl Asking {
    /// Model `id`, whose `frame` this page read from its file.
    pub fn new(id: ModelId, frame: Arc<dyn Model>) -> Self {
        Self { id, frame, state: SendWrapper::new(Rc::default()) }
    }

    /// End the worker (the views closed): its memory goes back to the tab, and a question in
    /// flight is dropped with it, the answers kept with them (the views that read them are
    /// gone). The next question starts a worker again.
    pub fn end(&self) {
        drop(self.state.forwarder.borrow_mut().take());
        self.state.waiting.borrow_mut().clear();
        self.state.answered.borrow_mut().clear();
    }

    /// The worker's answer to `input` under `options`, if it has given it.
    fn answer(&self, input: &Input, options: &RunOptions) -> Option<Result<Encoding, ModelError>> {
        let answered = self.state.answered.borrow();
        let answer = answered.iter().find(|a| a.input == *input && a.options == *options)?;
        Some(answer.result.clone().map(|e| Encoding::clone(&e)))
    }

    /// Ask the worker for `input` under `options`, unless that is asked already; returns what
    /// the asking computation waits on.
    fn ask(&self, input: &Input, options: &RunOptions) -> ArcTrigger {
        let state = &self.state;
        if let Some(w) = state.waiting.borrow().iter().find(|w| w.input == *input && w.options == *options) {
            return w.answered.clone();
        }
        if state.forwarder.borrow().is_none() {
            let heard = Rc::downgrade(&*self.state);
            *state.forwarder.borrow_mut() = Forwarder::answering_every(move |reply| {
                if let Some(state) = heard.upgrade() {
                    state.heard(reply);
                }
            });
        }
        let answered = ArcTrigger::new();
        let waiting = Waiting { input: input.clone(), options: options.clone(), answered: answered.clone() };
        state.waiting.borrow_mut().push(waiting);
        let forwarder = state.forwarder.borrow().clone();
        match forwarder {
            Some(f) => f.ask(self.id, Arc::clone(&self.frame), input.clone(), options.clone()),
            // No worker to ask (a page without its script): the pass cannot be computed here.
            None => {
                state.waiting.borrow_mut().pop();
                let why = Err(ModelError::Worker("no forward worker".into()));
                state.keep(Answered { input: input.clone(), options: options.clone(), result: why });
            }
        }
        answered
    }
}

impl State {
    /// The worker's answer to one question: kept, and the computations that waited on it run
    /// again.
    fn heard(&self, reply: Reply) {
        let (input, options) = (reply.asked.question.input, reply.asked.question.options);
        let at = self.waiting.borrow().iter().position(|w| w.input == input && w.options == options);
        self.keep(Answered { input, options, result: reply.result.map(Arc::new) });
        if let Some(at) = at {
            // Taken out before it is told: the computations run again at once, and may ask more.
            let waited = self.waiting.borrow_mut().remove(at);
            waited.answered.notify();
        }
    }

    fn keep(&self, answer: Answered) {
        let mut answered = self.answered.borrow_mut();
        answered.retain(|a| (&a.input, &a.options) != (&answer.input, &answer.options));
        if answered.len() >= KEPT {
            answered.remove(0);
        }
        answered.push(answer);
    }
}

impl Model for Asking {
    fn shape(&self) -> &Shape {
        self.frame.shape()
    }

    fn tokenize(&self, text: &str) -> Result<Vec<Token>, SentenceProblem> {
        self.frame.tokenize(text)
    }

    /// The worker's answer, if it has given it; else [`ModelError::Computing`] while it is
    /// asked (a sentence the model cannot read is refused at once, without asking).
    fn forward(&self, input: &Input, options: &RunOptions) -> Result<Encoding, ModelError> {
        self.frame.tokenize(&input.text).map_err(|p| p.of("query"))?;
        if let Some(kv) = &input.kv_text {
            self.frame.tokenize(kv).map_err(|p| p.of("key/value"))?;
        }
        if let Some(answer) = self.answer(input, options) {
            return answer;
        }
        let answered = self.ask(input, options);
        // A pass that cannot be asked fails at once.
        if let Some(answer) = self.answer(input, options) {
            return answer;
        }
        answered.track();
        Err(ModelError::Computing)
    }

    fn layer_projections(&self) -> Vec<Arc<Projections>> {
        self.frame.layer_projections()
    }
}
