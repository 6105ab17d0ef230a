//! The page's side of a scoring worker: one more training worker (the same script as the
//! pool's) that runs no replica, only the experiments on the learner's model with heads
//! switched off (`core::train::ablate`), so the page never waits for them. A job replaces the
//! one in its slot; the worker answers set by set. Dropping the scorer ends its worker.

use super::pool::script_url;
use super::{numbers_of, numbers_to_js};
use crate::core::train::wire::{Message, ScoreJob, Scored};
use crate::own_worker::OwnWorker;
use std::rc::Rc;

/// What the page hears from its scoring worker.
pub enum Heard {
    Scored(Scored),
    /// The worker failed, or said why it could not score: in its own words.
    Failed(String),
}

/// A worker scoring the learner's model.
pub struct Scorer(OwnWorker);

impl Scorer {
    /// Start the worker; `hear` gets every answer and failure.
    pub fn start(hear: impl Fn(Heard) + 'static) -> Result<Scorer, String> {
        let hear = Rc::new(hear);
        let failed = Rc::clone(&hear);
        let heard = move |data| match numbers_of(&data).and_then(|d| Message::decode(&d, None)) {
            Some(Message::Scored(scored)) => hear(Heard::Scored(scored)),
            _ => hear(Heard::Failed("a message from the worker that the page cannot read".into())),
        };
        OwnWorker::start(&script_url()?, heard, move |why| failed(Heard::Failed(why))).map(Scorer)
    }

    /// Score `job` (replacing any job of its slot).
    pub fn ask(&self, job: ScoreJob) -> Result<(), String> {
        let (array, transfer) = numbers_to_js(&Message::Score(job).encode());
        self.0.post(&array, Some(&transfer))
    }
}
