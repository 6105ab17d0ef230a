//! The experiment on the learner's own model: heads switched off, scored on the run's held-out
//! set, and the sweep that switches each head off alone in turn, beside where each head's
//! weight goes. A worker of its own scores them (`trainer::scorer`), so the page never waits.
//! They act on the model as the run last came to rest (the page holds its numbers then): the
//! scores name the step they are of, and the heads off are scored again whenever the run comes
//! to rest with a new model.

use super::{changed, with_run};
use crate::core::ablate::{Ablation, Replacement};
use crate::core::train::ablate::{Scores, Tracking};
use crate::core::train::session::Setup;
use crate::core::train::wire::{ScoreJob, Scored};
use crate::trainer::scorer::{Heard, Scorer};
use std::cell::RefCell;

/// The two jobs the scoring worker keeps apart (a new one replaces only its own slot's).
const LIVE: usize = 0;
const SWEEP: usize = 1;

/// The heads off now, scored.
#[derive(Debug, Clone, PartialEq)]
pub struct Live {
    number: usize,
    /// The step of the model scored.
    pub step: usize,
    pub ablation: Ablation,
    /// With every head on, and with the heads off, once scored.
    pub intact: Option<Scores>,
    pub off: Option<Scores>,
}

/// The sweep: every head off alone in turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Swept {
    number: usize,
    pub step: usize,
    pub replacement: Replacement,
    /// Sets scored so far, of `of` (every head on, then each head alone off).
    pub done: usize,
    pub of: usize,
    pub intact: Option<Scores>,
    /// `[layer][head]`, with that head off.
    pub heads: Vec<Vec<Option<Scores>>>,
    pub tracking: Option<Tracking>,
}

impl Swept {
    /// `[layer][head]`: how much the held-out accuracy falls with each head off, once all are in.
    pub fn drops(&self) -> Option<Vec<Vec<f32>>> {
        let intact = self.intact?.accuracy;
        let row = |r: &Vec<Option<Scores>>| r.iter().map(|s| s.map(|s| (intact - s.accuracy) as f32)).collect();
        self.heads.iter().map(row).collect()
    }
}

/// The experiment as the view shows it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Knockout {
    /// The heads the learner switched off, and what they pass on.
    pub ablation: Ablation,
    pub live: Option<Live>,
    pub sweep: Option<Swept>,
    /// A sweep asked for before the run came to rest (just after Pause): the model's layers
    /// and heads per layer, swept once there is a model to score.
    pub sweep_waiting: Option<(usize, usize)>,
    /// Why the scoring worker stopped.
    pub failed: Option<String>,
}

impl Knockout {
    /// The heads-off scores of the model at `step`, if they are in.
    pub fn off_at(&self, step: usize) -> Option<Scores> {
        let live = self.live.as_ref().filter(|l| l.step == step && l.ablation == self.ablation)?;
        live.off.filter(|_| !live.ablation.is_empty())
    }
}

struct State {
    shown: Knockout,
    scorer: Option<Scorer>,
    /// Jobs asked so far.
    asked: usize,
}

thread_local! {
    static STATE: RefCell<State> =
        RefCell::new(State { shown: Knockout::default(), scorer: None, asked: 0 });
}

/// The experiment as it stands.
pub fn shown() -> Knockout {
    STATE.with(|s| s.borrow().shown.clone())
}

/// The run's model as it last came to rest: its setup, step and numbers.
fn model_at_rest() -> Option<(Setup, usize, Vec<f64>)> {
    with_run(|run| {
        let t = &run.main;
        (t.params_step == t.progress.steps).then(|| (t.progress.setup, t.params_step, t.params.flat()))
    })
    .flatten()
}

/// Send `sets` of heads to score on the model at rest into `slot`: the job's number and the
/// model's step, or `None` (with why in `failed`) when there is no model or no worker.
fn ask(
    slot: usize,
    replacement: Replacement,
    sets: Vec<Vec<(usize, usize)>>,
    tracking: bool,
) -> Option<(usize, usize)> {
    let (setup, step, params) = model_at_rest()?;
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.scorer.is_none() {
            match Scorer::start(hear) {
                Ok(scorer) => s.scorer = Some(scorer),
                Err(why) => {
                    s.shown.failed = Some(why);
                    return None;
                }
            }
        }
        s.asked += 1;
        let number = s.asked;
        let job = ScoreJob { number, slot, setup, params, replacement, sets, tracking };
        match s.scorer.as_ref().map(|scorer| scorer.ask(job)) {
            Some(Ok(())) => Some((number, step)),
            Some(Err(why)) => {
                s.shown.failed = Some(why);
                None
            }
            None => None,
        }
    })
}

/// Score the heads off now on the model at rest (nothing to score when every head is on).
fn score_live() {
    let ablation = STATE.with(|s| s.borrow().shown.ablation.clone());
    let live = if ablation.is_empty() {
        None
    } else {
        ask(LIVE, ablation.replacement, vec![vec![], ablation.heads().to_vec()], false).map(|(number, step)| Live {
            number,
            step,
            ablation,
            intact: None,
            off: None,
        })
    };
    STATE.with(|s| s.borrow_mut().shown.live = live);
}

/// Switch the heads to `ablation` and score them.
pub fn set(ablation: Ablation) {
    STATE.with(|s| s.borrow_mut().shown.ablation = ablation);
    score_live();
    changed();
}

/// The run came to rest with a model of `step`: score the heads off on it, unless done.
pub fn model_changed(step: usize) {
    let due = STATE.with(|s| {
        let s = s.borrow();
        !s.shown.ablation.is_empty() && s.shown.live.as_ref().is_none_or(|l| l.step != step)
    });
    if due {
        score_live();
    }
    if let Some((layers, heads)) = STATE.with(|s| s.borrow_mut().shown.sweep_waiting.take()) {
        sweep(layers, heads);
    }
}

/// Switch every head of a `layers` × `heads` model off alone in turn, passing on what the
/// heads off now pass on, and score each.
pub fn sweep(layers: usize, heads: usize) {
    // Asked while the run is still coming to rest: it starts with the model it rests with, and
    // meanwhile the page shows it waiting (a click is never silently lost).
    if model_at_rest().is_none() {
        STATE.with(|s| s.borrow_mut().shown.sweep_waiting = Some((layers, heads)));
        changed();
        return;
    }
    STATE.with(|s| s.borrow_mut().shown.sweep_waiting = None);
    let replacement = STATE.with(|s| s.borrow().shown.ablation.replacement);
    let each = (0..layers).flat_map(|l| (0..heads).map(move |h| vec![(l, h)]));
    let sets: Vec<_> = std::iter::once(vec![]).chain(each).collect();
    let of = sets.len();
    let swept = ask(SWEEP, replacement, sets, true).map(|(number, step)| Swept {
        number,
        step,
        replacement,
        done: 0,
        of,
        intact: None,
        heads: vec![vec![None; heads]; layers],
        tracking: None,
    });
    STATE.with(|s| s.borrow_mut().shown.sweep = swept);
    changed();
}

/// A new run (another shape, perhaps): the experiment starts again, every head on.
pub fn reset() {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.shown = Knockout::default();
        s.scorer = None;
    });
}

/// What the scoring worker said.
fn hear(heard: Heard) {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        match heard {
            Heard::Failed(why) => {
                s.shown.failed = Some(why);
                s.scorer = None;
            }
            Heard::Scored(d) => keep(&mut s.shown, d),
        }
    });
    changed();
}

/// Put a set's scores where they belong, if their job is still the one shown.
fn keep(shown: &mut Knockout, d: Scored) {
    match d.slot {
        LIVE => {
            if let Some(live) = shown.live.as_mut().filter(|l| l.number == d.number) {
                *(if d.index == 0 { &mut live.intact } else { &mut live.off }) = Some(d.scores);
            }
        }
        SWEEP => {
            let Some(swept) = shown.sweep.as_mut().filter(|s| s.number == d.number) else { return };
            swept.done = swept.done.max(d.index + 1);
            if d.tracking.is_some() {
                swept.tracking = d.tracking;
            }
            match d.index.checked_sub(1) {
                None => swept.intact = Some(d.scores),
                Some(i) => {
                    let heads = swept.heads.first().map_or(1, Vec::len).max(1);
                    if let Some(cell) = swept.heads.get_mut(i / heads).and_then(|r| r.get_mut(i % heads)) {
                        *cell = Some(d.scores);
                    }
                }
            }
        }
        _ => {}
    }
}
