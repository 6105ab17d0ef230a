//! The page's side of a scoring worker: one more training worker (the same script as the
//! pool's) that runs no replica, only the experiments on the learner's model with heads
//! switched off (`core::train::ablate`), so the page never waits for them. A job replaces the
//! one in its slot; the worker answers set by set. Dropping the scorer ends its worker.

use super::pool::script_url;
use super::{numbers_of, numbers_to_js};
use crate::bridge::describe;
use crate::core::train::wire::{Message, ScoreJob, Scored};
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};

/// What the page hears from its scoring worker.
pub enum Heard {
    Scored(Scored),
    /// The worker failed, or said why it could not score: in its own words.
    Failed(String),
}

/// A worker scoring the learner's model.
pub struct Scorer {
    worker: Worker,
    _on_message: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(Event)>,
}

impl Scorer {
    /// Start the worker; `hear` gets every answer and failure.
    pub fn start(hear: impl Fn(Heard) + 'static) -> Result<Scorer, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(&script_url()?, &options).map_err(describe)?;
        let hear = std::rc::Rc::new(hear);
        let heard = std::rc::Rc::clone(&hear);
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            if let Some(text) = data.as_string() {
                return heard(Heard::Failed(text));
            }
            match numbers_of(&data).and_then(|d| Message::decode(&d, None)) {
                Some(Message::Scored(scored)) => heard(Heard::Scored(scored)),
                _ => heard(Heard::Failed("a message from the worker that the page cannot read".into())),
            }
        });
        let on_error = Closure::<dyn Fn(Event)>::new(move |event: Event| {
            event.prevent_default();
            let message = event.dyn_ref::<ErrorEvent>().map(ErrorEvent::message).unwrap_or_default();
            hear(Heard::Failed(if message.is_empty() { "the worker stopped".into() } else { message }));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Scorer { worker, _on_message: on_message, _on_error: on_error })
    }

    /// Score `job` (replacing any job of its slot).
    pub fn ask(&self, job: ScoreJob) -> Result<(), String> {
        let (array, transfer) = numbers_to_js(&Message::Score(job).encode());
        self.worker.post_message_with_transfer(&array, &transfer).map_err(describe)
    }
}

impl Drop for Scorer {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}
