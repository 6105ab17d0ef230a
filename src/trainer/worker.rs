//! Inside a training worker: the replica of its shard of a run (`core::train::replica`), its
//! ports to the other workers of the pool, and the reports the leader sends the page. A round
//! that finishes schedules the next through a message to itself, so the page's commands and the
//! other workers' shares are read between rounds.

use super::{numbers_of, numbers_to_js};
use crate::core::ablate::Ablation;
use crate::core::train::ablate::Subject;
use crate::core::train::replica::Replica;
use crate::core::train::session::Session;
use crate::core::train::wire::{Message, Report, ScoreJob, Scored};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent, MessagePort};

/// The leader reports at most this often while it trains (ms), and the example's attention at
/// most every [`ATTENTION_EVERY_MS`]; always when it stops.
const REPORT_EVERY_MS: f64 = 100.0;
const ATTENTION_EVERY_MS: f64 = 200.0;

struct State {
    replica: Replica,
    /// The other workers' ports, in shard order.
    peers: Vec<MessagePort>,
    /// A channel to itself: the next round starts from a message on it.
    tick: MessageChannel,
    /// The example whose attention the reports carry.
    example: Vec<usize>,
    /// The page's commands read so far.
    heard: usize,
    /// When the last report went; the step of the last model sent; when the last attention
    /// went, and of which step and example.
    reported_at: f64,
    params_at: Option<usize>,
    attention_at: (f64, Option<(usize, Vec<usize>)>),
    /// Buffers the other workers gave back once they read a share in them: the next shares
    /// are written into them, so a run makes no new buffer per round for the engine's garbage
    /// collector to find (hundreds of MB in WebKit while the largest model trained).
    spare: Vec<js_sys::ArrayBuffer>,
    /// Kept alive while the worker runs.
    _listeners: Vec<Closure<dyn Fn(MessageEvent)>>,
}

impl State {
    /// `data` in a buffer to move to a peer: a spare one of its size, else a new one.
    fn share_array(&mut self, data: &[f64]) -> js_sys::Float64Array {
        let bytes = (data.len() * 8) as u32;
        match self.spare.iter().position(|b| b.byte_length() == bytes) {
            Some(i) => {
                let array = js_sys::Float64Array::new(&self.spare.swap_remove(i));
                array.copy_from(data);
                array
            }
            None => js_sys::Float64Array::from(data),
        }
    }

    /// Keep a buffer a peer gave back (the latest few: a round's shares are all one size).
    fn keep_spare(&mut self, buffer: js_sys::ArrayBuffer) {
        if self.spare.len() >= 2 * self.peers.len().max(1) {
            self.spare.remove(0);
        }
        self.spare.push(buffer);
    }
}

/// A scoring worker's job: the model, and how many of its sets are scored.
struct Scoring {
    job: ScoreJob,
    subject: Subject,
    done: usize,
}

thread_local! {
    static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
    /// A scoring worker's jobs, one per slot (a new one replaces its slot's).
    static SCORING: RefCell<Vec<Option<Scoring>>> = const { RefCell::new(Vec::new()) };
    /// The scoring loop is under way.
    static SCORING_LOOP: Cell<bool> = const { Cell::new(false) };
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn now() -> f64 {
    scope().performance().map_or(0.0, |p| p.now())
}

/// Say to the page, in words, why training stopped (a panic, a message it cannot read).
fn tell_page(text: &str) {
    let _ = scope().post_message(&JsValue::from_str(text));
}

/// Start the worker: listen to the page.
pub fn start() {
    crate::report_memory("trainer");
    std::panic::set_hook(Box::new(|info| tell_page(&format!("panic: {info}"))));
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(from_page);
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
}

/// A message from the page: start a shard of a run, or a command for the leader.
fn from_page(event: MessageEvent) {
    let message = numbers_of(&event.data()).and_then(|data| Message::decode(&data, None));
    match message {
        Some(Message::Start { setup, shard, job }) => {
            let session = match Session::new(setup) {
                Ok(s) => s,
                Err(e) => return tell_page(&format!("setup out of range: {e:?}")),
            };
            let ports: Vec<MessagePort> = event.ports().iter().filter_map(|p| p.dyn_into().ok()).collect();
            if ports.len() + 1 != shard.of {
                return tell_page("the pool's ports do not match its workers");
            }
            let Ok(tick) = MessageChannel::new() else { return tell_page("no message channel") };
            let listeners: Vec<Closure<dyn Fn(MessageEvent)>> =
                vec![Closure::new(from_peer), Closure::new(|_: MessageEvent| pump())];
            for port in &ports {
                port.set_onmessage(Some(listeners[0].as_ref().unchecked_ref()));
            }
            tick.port1().set_onmessage(Some(listeners[1].as_ref().unchecked_ref()));
            let state = State {
                example: session.example(),
                heard: 0,
                replica: Replica::new(session, shard, job),
                peers: ports,
                tick,
                reported_at: f64::NEG_INFINITY,
                params_at: None,
                attention_at: (f64::NEG_INFINITY, None),
                spare: Vec::new(),
                _listeners: listeners,
            };
            STATE.with(|s| *s.borrow_mut() = Some(state));
            report(true);
        }
        Some(Message::Command(command)) => {
            with_state(|s| {
                s.heard += 1;
                s.replica.command(command);
            });
            pump();
            report(true);
        }
        Some(Message::Example(tokens)) => {
            with_state(|s| s.example = tokens);
            report(true);
        }
        Some(Message::Score(job)) => score(job),
        _ => tell_page("the trainer got a message it does not know"),
    }
}

/// Another worker's share of a round (its buffer then goes back to it, to carry its next
/// share), or a buffer of this worker's coming back.
fn from_peer(event: MessageEvent) {
    let message = event.data();
    if let Some(buffer) = message.dyn_ref::<js_sys::ArrayBuffer>() {
        with_state(|s| s.keep_spare(buffer.clone()));
        return;
    }
    let Some(array) = message.dyn_ref::<js_sys::Float64Array>() else { return };
    let data = array.to_vec();
    if let Some(port) = event.target().and_then(|t| t.dyn_into::<MessagePort>().ok()) {
        let buffer = array.buffer();
        let _ = port.post_message_with_transferable(&buffer, &js_sys::Array::of1(&buffer));
    }
    with_state(|s| {
        if let Some(Message::Share(share)) = Message::decode(&data, Some(s.replica.params())) {
            s.replica.receive(share);
        }
    });
    pump();
}

fn with_state<T>(f: impl FnOnce(&mut State) -> T) -> Option<T> {
    STATE.with(|s| s.borrow_mut().as_mut().map(f))
}

/// Do what can be done now: send this worker's share of the round, finish the round once every
/// share is in (then report), and go on to the next. In a pool, waiting for the others' shares
/// lets the page's commands in; alone, a worker goes on for up to [`ALONE_MS`], then starts
/// the next round from a message to itself.
fn pump() {
    let started = now();
    loop {
        let finished = with_state(|s| {
            if let Some(share) = s.replica.work() {
                let data = Message::Share(share).encode();
                for i in 0..s.peers.len() {
                    let array = s.share_array(&data);
                    let buffer = array.buffer();
                    let _ = s.peers[i].post_message_with_transferable(&array, &js_sys::Array::of1(&buffer));
                }
            }
            (s.replica.complete().is_some(), s.replica.busy(), s.peers.is_empty())
        });
        let Some((finished, busy, alone)) = finished else { return };
        if finished {
            report(!busy);
        }
        if !(finished && busy) {
            return;
        }
        if alone && now() - started >= ALONE_MS {
            with_state(|s| s.tick.port2().post_message(&JsValue::NULL));
            return;
        }
    }
}

/// How long a worker alone trains before it reads its messages (ms).
const ALONE_MS: f64 = 20.0;

/// The leader's report to the page: at most every [`REPORT_EVERY_MS`] unless `now_anyway`;
/// with the example's attention when the model or the example changed (at most every
/// [`ATTENTION_EVERY_MS`] while training), and with the model itself once the run is at rest.
fn report(now_anyway: bool) {
    let message = with_state(|s| {
        if !s.replica.leads() {
            return None;
        }
        let t = now();
        if !now_anyway && t - s.reported_at < REPORT_EVERY_MS {
            return None;
        }
        s.reported_at = t;
        let progress = s.replica.progress();
        let busy = s.replica.busy();
        let params = (!busy && s.params_at != Some(progress.steps)).then(|| {
            s.params_at = Some(progress.steps);
            s.replica.params().flat()
        });
        let shown = Some((progress.steps, s.example.clone()));
        let due = !busy || t - s.attention_at.0 >= ATTENTION_EVERY_MS;
        let attention = (s.attention_at.1 != shown && due).then(|| {
            s.attention_at = (t, shown);
            (s.example.clone(), s.replica.attention(&s.example))
        });
        let report = Report { progress, running: s.replica.running(), busy, heard: s.heard, params, attention };
        Some(Message::Report(report).encode())
    });
    if let Some(Some(data)) = message {
        let (array, transfer) = numbers_to_js(&data);
        let _ = scope().post_message_with_transfer(&array, &transfer);
    }
}

/// Take a scoring job (replacing the one in its slot), and score until every slot is done:
/// one set at a time, the lower slot first, reading the page's messages between sets.
fn score(job: ScoreJob) {
    let Some(subject) = Subject::new(&job.setup, &job.params) else {
        return tell_page("a model to score that does not fit its setup");
    };
    SCORING.with(|s| {
        let (mut slots, slot) = (s.borrow_mut(), job.slot);
        if slots.len() <= slot {
            slots.resize_with(slot + 1, || None);
        }
        slots[slot] = Some(Scoring { job, subject, done: 0 });
    });
    if SCORING_LOOP.with(|l| l.replace(true)) {
        return;
    }
    wasm_bindgen_futures::spawn_local(async {
        while let Some(scored) = score_next() {
            let (array, transfer) = numbers_to_js(&Message::Scored(scored).encode());
            let _ = scope().post_message_with_transfer(&array, &transfer);
            next_task().await;
        }
        SCORING_LOOP.with(|l| l.set(false));
    });
}

/// Score the next set of the first slot with one left.
fn score_next() -> Option<Scored> {
    SCORING.with(|s| {
        let mut slots = s.borrow_mut();
        let scoring = slots.iter_mut().flatten().find(|s| s.done < s.job.sets.len())?;
        let (job, index) = (&scoring.job, scoring.done);
        let off = Ablation::new(job.sets[index].iter().copied(), job.replacement);
        let scores = scoring.subject.scores(&off);
        let tracking = (job.tracking && index == 0).then(|| scoring.subject.tracking());
        scoring.done += 1;
        Some(Scored { number: job.number, slot: job.slot, index, of: job.sets.len(), scores, tracking })
    })
}

/// Resolves in a task of its own, after the messages waiting.
async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = scope().set_timeout_with_callback(&resolve);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
