//! The training view's own module: a small Transformer trained live in the page
//! (`core::train::session`), its loss, accuracy and heads redrawn as it learns. Built into its
//! own .wasm (the `learn` binary) and started by the page only when the view opens
//! (`app::views::hosted`), so the lesson's .wasm carries none of it.
//!
//! The run lives here, outside the components, so it survives the view being closed and
//! opened again and a change of language or theme (the page then asks for a new mount).
//! Training goes in slices of a few milliseconds per animation frame: the page stays
//! responsive while it trains.

mod charts;
pub mod query;
mod setup;
mod view;

use crate::bridge::{lesson_query, Hosted, YOURS_KEY};
use crate::core::model::Model;
use crate::core::train::session::{Diverged, Experiment, Session, Setup, SetupError};
use crate::core::train::yours::YourModel;
use crate::hosted::{host, open_link, shown};
use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// Training time per animation frame, ms: at 60 frames a second, most of each frame stays free.
const SLICE_MS: f64 = 6.0;
/// The share of the time training may take: a slice that ran past it of a 60 Hz frame (its
/// last sequence was long) is followed by a rest 1.5 times as long before the next.
const BUSY_SHARE: f64 = 0.4;
const FRAME_MS: f64 = 1000.0 / 60.0;

/// The run: the model training, whether it is running, its speed, the example shown.
struct Run {
    session: Session,
    running: bool,
    /// Steps per second over the last second of training.
    speed: f64,
    /// (time, steps) when the speed was last measured.
    speed_mark: (f64, usize),
    /// The example whose attention is drawn (the learner may type one).
    example: Vec<usize>,
    /// The scaling experiment, when the learner started it: the button trains it instead of
    /// the run until Reset.
    experiment: Option<Experiment>,
}

impl Run {
    /// Steps taken by what trains: the experiment's runs, else the run.
    fn steps(&self) -> usize {
        self.experiment.as_ref().map_or(self.session.steps, |e| e.runs[0].steps)
    }
}

thread_local! {
    static RUN: RefCell<Option<Run>> = const { RefCell::new(None) };
    /// Bumped whenever the run changes: the mounted view redraws from it.
    static CHANGED: RefCell<Option<RwSignal<u64>>> = const { RefCell::new(None) };
    /// A frame of training is already asked for (one loop at a time).
    static FRAME_PENDING: RefCell<bool> = const { RefCell::new(false) };
    /// The link's setup was out of range (the default one runs instead): said once, beside
    /// the setting, when the view first mounts.
    static LINK_ERROR: RefCell<Option<SetupError>> = const { RefCell::new(None) };
}

/// Start the module: the run from the URL's setup, the view mounted, and mounted again
/// whenever the page asks.
pub fn start() {
    let asked = query::read();
    let session = Session::new(asked).or_else(|e| {
        LINK_ERROR.with(|l| *l.borrow_mut() = Some(e));
        let fallback = Setup::default();
        query::write(&fallback);
        Session::new(fallback)
    });
    if let Ok(session) = session {
        reset(session);
    }
    host(Hosted::Learn, || {
        let changed = RwSignal::new(0_u64);
        CHANGED.with(|c| *c.borrow_mut() = Some(changed));
        view::LearnApp(view::LearnAppProps { changed }).into_any()
    });
}

/// The link's setup error, once.
fn take_link_error() -> Option<SetupError> {
    LINK_ERROR.with(|l| l.borrow_mut().take())
}

/// Tell the mounted view the run changed.
fn changed() {
    let signal = CHANGED.with(|c| *c.borrow());
    if let Some(s) = signal {
        s.try_update(|n| *n += 1);
    }
}

/// Read the run (`None` before `start`).
fn with_run<T>(f: impl FnOnce(&Run) -> T) -> Option<T> {
    RUN.with(|r| r.borrow().as_ref().map(f))
}

/// Change the run.
fn update_run<T>(f: impl FnOnce(&mut Run) -> T) -> Option<T> {
    let out = RUN.with(|r| r.borrow_mut().as_mut().map(f));
    changed();
    out
}

/// Replace the run with a fresh `session` (stopped; its own example).
fn reset(session: Session) {
    let example = session.example();
    let run = Run { session, running: false, speed: 0.0, speed_mark: (0.0, 0), example, experiment: None };
    RUN.with(|r| *r.borrow_mut() = Some(run));
    changed();
}

/// Start the scaling experiment from the run's task, learning rate, batch and seed.
fn start_experiment() {
    let started = update_run(|run| match Experiment::new(run.session.setup) {
        Ok(e) => {
            run.experiment = Some(e);
            run.running = true;
            run.speed_mark = (now(), 0);
            true
        }
        Err(_) => false,
    });
    if started == Some(true) && !FRAME_PENDING.with(|p| p.replace(true)) {
        schedule();
    }
}

/// One step, from the button.
fn single_step() -> Option<Result<f64, Diverged>> {
    update_run(|run| {
        run.running = false;
        run.session.step()
    })
}

/// Keep the run's model (the scaled run's, during the experiment) where the lesson reads it,
/// pause, and open the lesson on it with the example as the sentence, as `bridge` says.
/// `false` when the browser would not keep it.
fn open_in_lesson() -> bool {
    let kept = update_run(|run| {
        run.running = false;
        let session = run.experiment.as_ref().map_or(&run.session, |e| &e.runs[0]);
        let model = YourModel::of(session, &run.example).ok()?;
        let storage = window().local_storage().ok().flatten()?;
        storage.set_item(YOURS_KEY, &model.to_text()).ok()?;
        Some((model.example().unwrap_or_default(), model.scaled()))
    });
    let Some(Some((sentence, scaled))) = kept else { return false };
    // The model the registry reads from where this one was kept.
    let Some(model) = crate::models::stored_under(YOURS_KEY) else { return false };
    let search = window().location().search().unwrap_or_default();
    open_link(&lesson_query(&search, model.slug(), &sentence, scaled));
    true
}

/// Start or pause training.
fn toggle() {
    let start = update_run(|run| {
        run.running = !run.running && (run.experiment.is_some() || run.session.diverged.is_none());
        run.speed_mark = (now(), run.steps());
        run.running
    });
    if start == Some(true) && !FRAME_PENDING.with(|p| p.replace(true)) {
        schedule();
    }
}

pub(crate) fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// Train for one slice on the next animation frame, and again after it while running (after
/// a rest, when a slice ran long).
fn schedule() {
    let frame = Closure::once_into_js(move || {
        FRAME_PENDING.with(|p| *p.borrow_mut() = false);
        // Nobody is watching (the view was closed): pause.
        let shown = shown(Hosted::Learn);
        let start = now();
        let again = update_run(|run| {
            if !shown {
                run.running = false;
            }
            if !run.running {
                return false;
            }
            while now() - start < SLICE_MS {
                let going = match &mut run.experiment {
                    Some(e) => e.advance(1),
                    // A sequence at a time: a large model's step spreads over frames.
                    None => !matches!(run.session.advance(1), Some(Err(_))),
                };
                if !going {
                    run.running = false;
                    break;
                }
            }
            let (t0, s0) = run.speed_mark;
            let (t, steps) = (now(), run.steps());
            if t - t0 >= 1000.0 {
                run.speed = steps.saturating_sub(s0) as f64 * 1000.0 / (t - t0);
                run.speed_mark = (t, steps);
            }
            run.running
        });
        if again == Some(true) && !FRAME_PENDING.with(|p| p.replace(true)) {
            let busy = now() - start;
            if busy > BUSY_SHARE * FRAME_MS {
                let next = Closure::once_into_js(schedule);
                let rest = (busy * (1.0 - BUSY_SHARE) / BUSY_SHARE) as i32;
                let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(next.unchecked_ref(), rest);
            } else {
                schedule();
            }
        }
    });
    let _ = window().request_animation_frame(frame.unchecked_ref());
}
