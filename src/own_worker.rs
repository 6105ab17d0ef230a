//! A Web Worker the page keeps, written once for every worker it starts (the forward worker,
//! the sweeper of the model view, the trainers of a pool, the scorer of the learner's model):
//! started as a module from the script the page names, its answers handed to the owner, its
//! failure in words (a text it sent, as the workers say a panic, or the browser's error: a
//! script that would not load, out of memory), and ended as soon as the owner drops it.
use crate::bridge::describe;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};

/// A worker, alive while this is.
pub struct OwnWorker {
    worker: Worker,
    _on_message: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(Event)>,
}

impl OwnWorker {
    /// Start `script`; `heard` gets every answer (a message that is not a text), `failed` why
    /// the worker stopped or could not go on.
    pub fn start(
        script: &str,
        heard: impl Fn(JsValue) + 'static,
        failed: impl Fn(String) + 'static,
    ) -> Result<Self, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(script, &options).map_err(describe)?;
        let failed = Rc::new(failed);
        let said = Rc::clone(&failed);
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            match data.as_string() {
                Some(text) => said(text),
                None => heard(data),
            }
        });
        // An `ErrorEvent` for a panic or a script that throws; a plain `Event` for a script
        // that would not load.
        let on_error = Closure::<dyn Fn(Event)>::new(move |event: Event| {
            event.prevent_default();
            let message = event.dyn_ref::<ErrorEvent>().map(ErrorEvent::message).unwrap_or_default();
            failed(if message.is_empty() { "the worker stopped".into() } else { message });
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Self { worker, _on_message: on_message, _on_error: on_error })
    }

    /// Send `message`, moving the buffers in `moved` (if any) rather than copying them.
    pub fn post(&self, message: &JsValue, moved: Option<&js_sys::Array>) -> Result<(), String> {
        match moved {
            Some(m) => self.worker.post_message_with_transfer(message, m),
            None => self.worker.post_message(message),
        }
        .map_err(describe)
    }
}

impl Drop for OwnWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}
