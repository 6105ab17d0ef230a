//! The page's side of a training pool: it starts the workers (the script the page names in
//! `<meta name="attention-lab-trainer">`, `bridge::TRAINER_META`), joins every pair with a
//! message channel, gives each its shard of the run, sends the learner's commands to the
//! leader and hands its reports (or a worker's failure, in words) to the view. Dropping the
//! pool ends its workers at once, even in the middle of a long step.

use super::{numbers_of, numbers_to_js};
use crate::bridge::{describe, TRAINER_META};
use crate::core::train::replica::{Command, Job};
use crate::core::train::session::{Setup, Shard};
use crate::core::train::wire::{Message, Report};
use js_sys::Array;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event, MessageChannel, MessageEvent, MessagePort, Worker, WorkerOptions, WorkerType};

/// What the view hears from a pool.
pub enum Heard {
    Report(Box<Report>),
    /// A worker failed (a panic, out of memory, its script would not load): why, in the words
    /// the browser or the worker gave.
    Failed(String),
}

/// A run training on a pool of workers.
pub struct Pool {
    workers: Vec<Worker>,
    /// Commands sent to the leader so far.
    sent: std::cell::Cell<usize>,
    _listeners: Vec<Closure<dyn Fn(MessageEvent)>>,
    _errors: Vec<Closure<dyn Fn(Event)>>,
}

/// The workers a pool gets unless the learner chooses: one per core the browser reports
/// (`navigator.hardwareConcurrency`), at most [`MAX_WORKERS`].
pub fn default_workers() -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (cores as usize).clamp(1, MAX_WORKERS)
}

/// The most workers a pool may have.
pub const MAX_WORKERS: usize = 8;

/// The worker's start script, as the page names it.
pub(super) fn script_url() -> Result<String, String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let meta = document.query_selector(&format!("meta[name='{TRAINER_META}']")).ok().flatten();
    meta.and_then(|m| m.get_attribute("content")).ok_or_else(|| "this build has no training worker".to_string())
}

impl Pool {
    /// Start `workers` workers (at most one per sequence of a batch) on a run of `setup`;
    /// `hear` gets every report and failure.
    pub fn start(setup: Setup, job: Job, workers: usize, hear: impl Fn(Heard) + 'static) -> Result<Pool, String> {
        let of = workers.clamp(1, MAX_WORKERS).min(setup.batch.max(1));
        let url = script_url()?;
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let workers: Vec<Worker> =
            (0..of).map(|_| Worker::new_with_options(&url, &options)).collect::<Result<_, _>>().map_err(describe)?;
        let hear: Rc<dyn Fn(Heard)> = Rc::new(hear);
        let (mut listeners, mut errors) = (Vec::new(), Vec::new());
        for (index, worker) in workers.iter().enumerate() {
            let heard = Rc::clone(&hear);
            let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
                let data = event.data();
                if let Some(text) = data.as_string() {
                    return heard(Heard::Failed(text));
                }
                match numbers_of(&data).and_then(|d| Message::decode(&d, None)) {
                    Some(Message::Report(report)) if index == 0 => heard(Heard::Report(Box::new(report))),
                    _ => heard(Heard::Failed("a message from the worker that the page cannot read".into())),
                }
            });
            let heard = Rc::clone(&hear);
            // An `ErrorEvent` for a panic or a script that throws; a plain `Event` for a
            // script that would not load.
            let on_error = Closure::<dyn Fn(Event)>::new(move |event: Event| {
                event.prevent_default();
                let message = event.dyn_ref::<ErrorEvent>().map(ErrorEvent::message).unwrap_or_default();
                heard(Heard::Failed(if message.is_empty() { "the worker stopped".into() } else { message }));
            });
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            listeners.push(on_message);
            errors.push(on_error);
        }
        // A channel between every pair; each worker gets its ends in the order of the others'
        // shards.
        let mut ports: Vec<Vec<MessagePort>> = (0..of).map(|_| Vec::new()).collect();
        for i in 0..of {
            for j in i + 1..of {
                let channel = MessageChannel::new().map_err(describe)?;
                ports[i].push(channel.port1());
                ports[j].push(channel.port2());
            }
        }
        // Worker j's list gets its port to i (i < j) before any to k > j: the loops above
        // push in that order already.
        for (index, (worker, ports)) in workers.iter().zip(ports).enumerate() {
            let start = Message::Start { setup, shard: Shard { index, of }, job }.encode();
            let (array, _) = numbers_to_js(&start);
            let transfer = Array::new();
            for port in ports {
                transfer.push(&port);
            }
            worker.post_message_with_transfer(&array, &transfer).map_err(describe)?;
        }
        Ok(Pool { workers, sent: std::cell::Cell::new(0), _listeners: listeners, _errors: errors })
    }

    /// Its workers.
    pub fn workers(&self) -> usize {
        self.workers.len()
    }

    /// Commands sent to the leader so far (a report whose `heard` is below it was sent before
    /// the leader read the latest).
    pub fn sent(&self) -> usize {
        self.sent.get()
    }

    /// Tell the leader.
    pub fn command(&self, command: Command) {
        self.sent.set(self.sent.get() + 1);
        self.tell_leader(&Message::Command(command));
    }

    /// Tell the leader which example's attention to report.
    pub fn example(&self, tokens: &[usize]) {
        self.tell_leader(&Message::Example(tokens.to_vec()));
    }

    fn tell_leader(&self, message: &Message) {
        if let Some(leader) = self.workers.first() {
            let (array, transfer) = numbers_to_js(&message.encode());
            let _ = leader.post_message_with_transfer(&array, &transfer);
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for worker in &self.workers {
            worker.set_onmessage(None);
            worker.set_onerror(None);
            worker.terminate();
        }
    }
}
