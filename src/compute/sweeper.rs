//! A sweep off the page's thread: a forward worker of its own (the forward worker's script),
//! started for one sweep and ended with it, or as soon as its owner lets it go (the view
//! closed, another sweep asked for). It brings the model from the browser's cache, so the
//! lesson's own worker is never kept waiting.

use super::client::forward_script;
use super::message::{Answer, SweepQuestion};
use crate::bridge::describe;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};

/// What the page hears of a sweep.
pub enum Heard {
    /// One head: (layer, head) from 0, its effect, and how many heads of how many are done.
    Head { layer: usize, head: usize, effect: f32, done: usize, of: usize },
    /// The sweep stopped: why, in the worker's or the browser's words.
    Failed(String),
}

/// A sweep under way.
pub struct Sweeper {
    worker: Worker,
    _on_message: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(Event)>,
}

impl Sweeper {
    /// Start `question` in a worker of its own, if the page has a forward worker's script
    /// (`None` otherwise: the caller computes in place); `hear` gets each head and any failure.
    pub fn start(question: &SweepQuestion, hear: impl Fn(Heard) + 'static) -> Option<Result<Sweeper, String>> {
        let script = forward_script()?;
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = match Worker::new_with_options(&script, &options) {
            Ok(w) => w,
            Err(e) => return Some(Err(describe(e))),
        };
        let hear = std::rc::Rc::new(hear);
        let heard = std::rc::Rc::clone(&hear);
        let number = question.number;
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            if let Some(text) = data.as_string() {
                return heard(Heard::Failed(text));
            }
            match Answer::from_js(&data) {
                Some(Answer::Swept { number: n, layer, head, effect, done, of }) if n == number => {
                    heard(Heard::Head { layer, head, effect, done, of })
                }
                Some(Answer::Failed { why, .. }) => heard(Heard::Failed(why)),
                _ => heard(Heard::Failed("an answer the page cannot read".into())),
            }
        });
        let on_error = Closure::<dyn Fn(Event)>::new(move |event: Event| {
            event.prevent_default();
            let message = event.dyn_ref::<ErrorEvent>().map(ErrorEvent::message).unwrap_or_default();
            hear(Heard::Failed(if message.is_empty() { "the worker stopped".into() } else { message }));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        if let Err(e) = worker.post_message(&question.to_js()) {
            return Some(Err(describe(e)));
        }
        Some(Ok(Sweeper { worker, _on_message: on_message, _on_error: on_error }))
    }
}

impl Drop for Sweeper {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}
