//! A sweep off the page's thread: a forward worker of its own (the forward worker's script),
//! started for one sweep and ended with it, or as soon as its owner lets it go (the view
//! closed, another sweep asked for). It brings the model from the browser's cache, so the
//! lesson's own worker is never kept waiting.

use super::client::forward_script;
use super::message::{Answer, Message, SweepQuestion, ToWorker};
use crate::own_worker::OwnWorker;
use std::rc::Rc;

/// What the page hears of a sweep.
pub enum Heard {
    /// One head: (layer, head) from 0, its effect, and how many heads of how many are done.
    Head { layer: usize, head: usize, effect: f32, done: usize, of: usize },
    /// The sweep stopped: why, in the worker's or the browser's words.
    Failed(String),
}

/// A sweep under way; dropping it ends its worker.
pub struct Sweeper {
    _worker: OwnWorker,
}

impl Sweeper {
    /// Start `question` in a worker of its own, if the page has a forward worker's script
    /// (`None` otherwise); `hear` gets each head and any failure.
    pub fn start(question: &SweepQuestion, hear: impl Fn(Heard) + 'static) -> Option<Result<Sweeper, String>> {
        let script = forward_script()?;
        let number = question.number;
        let hear = Rc::new(hear);
        let failed = Rc::clone(&hear);
        let heard = move |data| match Answer::from_js(&data) {
            Ok(Answer::Swept { number: n, layer, head, effect, done, of }) if n == number => {
                hear(Heard::Head { layer, head, effect, done, of })
            }
            Ok(Answer::Failed { why, .. }) => hear(Heard::Failed(why)),
            Ok(_) => hear(Heard::Failed("an answer to another question".into())),
            Err(why) => hear(Heard::Failed(format!("an answer the page cannot read: {why}"))),
        };
        let started = OwnWorker::start(&script, heard, move |why| failed(Heard::Failed(why)));
        let (message, moved) = ToWorker::Sweep(question.clone()).to_js();
        Some(started.and_then(|w| w.post(&message, Some(&moved)).map(|()| Sweeper { _worker: w })))
    }
}
