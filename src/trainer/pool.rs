//! The page's side of a training pool: it starts the workers (the script the page names in
//! `<meta name="attention-lab-trainer">`, `bridge::TRAINER_META`), joins every pair with a
//! message channel, gives each its shard of the run, sends the learner's commands to the
//! leader and hands its reports (or a worker's failure, in words) to the view. Dropping the
//! pool ends its workers at once, even in the middle of a long step (each an `OwnWorker`).

use super::{numbers_of, numbers_to_js};
use crate::bridge::{describe, TRAINER_META};
use crate::core::train::replica::{Command, Job};
use crate::core::train::session::{Setup, Shard};
use crate::core::train::wire::{Message, Report};
use crate::own_worker::OwnWorker;
use js_sys::Array;
use std::rc::Rc;
use web_sys::{MessageChannel, MessagePort};

/// What the view hears from a pool.
pub enum Heard {
    Report(Box<Report>),
    /// A worker failed (a panic, out of memory, its script would not load): why, in the words
    /// the browser or the worker gave.
    Failed(String),
}

/// A run training on a pool of workers.
pub struct Pool {
    workers: Vec<OwnWorker>,
    /// Commands sent to the leader so far.
    sent: std::cell::Cell<usize>,
}

/// What the browser says of its device: its cores (`navigator.hardwareConcurrency`) and, where
/// it tells (Chromium's `navigator.deviceMemory`), its memory in GB (rounded down to a power of
/// two, at most 8).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Device {
    pub cores: usize,
    pub memory_gb: Option<f64>,
}

impl Device {
    /// This browser's device.
    pub fn here() -> Device {
        let navigator = web_sys::window().map(|w| w.navigator());
        let cores = navigator.as_ref().map_or(1.0, |n| n.hardware_concurrency());
        let memory_gb = navigator
            .and_then(|n| js_sys::Reflect::get(&n, &"deviceMemory".into()).ok())
            .and_then(|m| m.as_f64())
            .filter(|gb| gb.is_finite() && *gb > 0.0);
        Device { cores: cores.max(1.0) as usize, memory_gb }
    }
}

/// What holds a pool to the number of workers it gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// One per core the device reports.
    Cores,
    /// One per GB the device reports (at least one): it also holds the system, the browser and
    /// the page, and each worker its own copy of the model, its gradients and Adam's moments.
    Memory { gb: f64 },
    /// [`MAX_WORKERS`], the most the page starts.
    Most,
    /// The browser does not say its memory (WebKit, on every iPad, and Firefox): as few as
    /// [`UNTOLD_MEMORY_WORKERS`] unless the learner chooses more, up to `most` (one per core,
    /// at most [`MAX_WORKERS`]); WebKit reports 4 cores on a 2-core machine, where training the
    /// largest model on 4 workers held 417 MB above its floor and on 2 held 258 MB.
    Untold { most: usize },
}

impl Limit {
    /// The most workers the learner may choose, `default` being what the pool gets.
    pub fn most(self, default: usize) -> usize {
        match self {
            Limit::Untold { most } => most,
            _ => default,
        }
    }
}

/// The workers a pool gets where the browser does not say its device's memory.
pub const UNTOLD_MEMORY_WORKERS: usize = 2;

/// The workers a pool gets on `device` unless the learner chooses fewer, and what holds it
/// there.
pub fn sized(device: Device) -> (usize, Limit) {
    let cores = device.cores.max(1);
    let most = cores.min(MAX_WORKERS);
    match device.memory_gb.map(|gb| ((gb.floor() as usize).max(1), gb)) {
        Some((n, gb)) if n < most => (n, Limit::Memory { gb }),
        None if UNTOLD_MEMORY_WORKERS < most => (UNTOLD_MEMORY_WORKERS, Limit::Untold { most }),
        _ if cores <= MAX_WORKERS => (cores, Limit::Cores),
        _ => (MAX_WORKERS, Limit::Most),
    }
}

/// The workers a pool gets unless the learner chooses fewer: [`sized`] for this device.
pub fn default_workers() -> usize {
    sized(Device::here()).0
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
        let hear: Rc<dyn Fn(Heard)> = Rc::new(hear);
        let workers: Vec<OwnWorker> = (0..of)
            .map(|index| {
                let (heard, failed) = (Rc::clone(&hear), Rc::clone(&hear));
                OwnWorker::start(
                    &url,
                    move |data| match numbers_of(&data).and_then(|d| Message::decode(&d, None)) {
                        Some(Message::Report(report)) if index == 0 => heard(Heard::Report(Box::new(report))),
                        _ => heard(Heard::Failed("a message from the worker that the page cannot read".into())),
                    },
                    move |why| failed(Heard::Failed(why)),
                )
            })
            .collect::<Result<_, _>>()?;
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
            worker.post(&array, Some(&transfer))?;
        }
        Ok(Pool { workers, sent: std::cell::Cell::new(0) })
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
            let _ = leader.post(&array, Some(&transfer));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device(cores: usize, memory_gb: Option<f64>) -> Device {
        Device { cores, memory_gb }
    }

    #[test]
    fn a_pool_gets_a_worker_per_core_up_to_the_most_the_page_starts() {
        assert_eq!(sized(device(2, None)), (2, Limit::Cores));
        assert_eq!(sized(device(2, Some(8.0))), (2, Limit::Cores));
        assert_eq!(sized(device(4, Some(8.0))), (4, Limit::Cores));
        assert_eq!(sized(device(16, Some(8.0))), (MAX_WORKERS, Limit::Most));
        assert_eq!(sized(device(0, None)), (1, Limit::Cores), "a browser that reports no cores still trains");
    }

    #[test]
    fn a_browser_that_does_not_say_its_memory_gets_two_workers_unless_the_learner_chooses_more() {
        assert_eq!(sized(device(4, None)), (2, Limit::Untold { most: 4 }));
        assert_eq!(sized(device(16, None)), (2, Limit::Untold { most: MAX_WORKERS }));
        assert_eq!(Limit::Untold { most: 4 }.most(2), 4, "the learner may choose one per core");
        assert_eq!(Limit::Cores.most(3), 3);
        assert_eq!(sized(device(1, None)), (1, Limit::Cores));
    }

    #[test]
    fn a_device_that_reports_little_memory_gets_fewer_workers_and_says_why() {
        // A 4 GB Chromebook with 8 cores, a 2 GB phone, a device that reports half a GB.
        assert_eq!(sized(device(8, Some(4.0))), (4, Limit::Memory { gb: 4.0 }));
        assert_eq!(sized(device(8, Some(2.0))), (2, Limit::Memory { gb: 2.0 }));
        assert_eq!(sized(device(4, Some(0.5))), (1, Limit::Memory { gb: 0.5 }));
        // Memory that does not bind is not named.
        assert_eq!(sized(device(2, Some(2.0))), (2, Limit::Cores));
        assert_eq!(sized(device(12, Some(8.0))), (MAX_WORKERS, Limit::Most));
    }
}
