//! The training view's own module: a small Transformer trained live in the page
//! (`core::train::session`), its loss, accuracy and heads redrawn as it learns. Built into its
//! own .wasm (the `learn` binary) and started by the page only when the view opens
//! (`app::views::learn`), so the lesson's .wasm carries none of it.
//!
//! The run lives here, outside the components, so it survives the view being closed and
//! opened again and a change of language or theme (the page then asks for a new mount).
//! Training goes in slices of a few milliseconds per animation frame: the page stays
//! responsive while it trains.

mod query;
mod view;

use crate::core::train::session::{Diverged, Session, Setup};
use leptos::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// The page's element the view mounts into, and the event by which the page asks a running
/// module to mount again (the view was opened again, or the language or theme changed).
pub const ROOT_ID: &str = "learn-root";
pub const MOUNT_EVENT: &str = "attention-lab-learn";

/// Training time per animation frame, ms: at 60 frames a second, most of each frame stays free.
const SLICE_MS: f64 = 6.0;

/// The run: the setup that made it, the model training, whether it is running, its speed.
struct Run {
    session: Session,
    running: bool,
    /// Steps per second over the last second of training.
    speed: f64,
    /// (time, steps) when the speed was last measured.
    speed_mark: (f64, usize),
    /// The example whose attention is drawn (the learner may type one).
    example: Vec<usize>,
}

thread_local! {
    static RUN: RefCell<Option<Run>> = const { RefCell::new(None) };
    /// Bumped whenever the run changes: the mounted view redraws from it.
    static CHANGED: RefCell<Option<RwSignal<u64>>> = const { RefCell::new(None) };
}

/// Start the module: the run from the URL's setup, the view mounted, and mounted again
/// whenever the page asks.
pub fn start() {
    console_error_panic_hook::set_once();
    // A link's setup out of range falls back to the default one (the view says which).
    if let Ok(session) = Session::new(query::read()).or_else(|_| Session::new(Setup::default())) {
        reset(session);
    }
    mount();
    let again = Closure::<dyn Fn()>::new(mount);
    let _ = window().add_event_listener_with_callback(MOUNT_EVENT, again.as_ref().unchecked_ref());
    again.forget();
}

/// Mount the view into the page's element for it (replacing what is there).
fn mount() {
    let Some(root) = document().get_element_by_id(ROOT_ID) else { return };
    root.set_inner_html("");
    let Ok(root) = root.dyn_into::<web_sys::HtmlElement>() else { return };
    leptos::mount::mount_to(root, || {
        let changed = RwSignal::new(0_u64);
        CHANGED.with(|c| *c.borrow_mut() = Some(changed));
        view::LearnApp(view::LearnAppProps { changed })
    })
    .forget();
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
    RUN.with(|r| *r.borrow_mut() = Some(Run { session, running: false, speed: 0.0, speed_mark: (0.0, 0), example }));
    changed();
}

/// One step, from the button.
fn single_step() -> Option<Result<f64, Diverged>> {
    update_run(|run| {
        run.running = false;
        run.session.step()
    })
}

/// Start or pause training.
fn toggle() {
    let start = update_run(|run| {
        run.running = !run.running && run.session.diverged.is_none();
        run.speed_mark = (now(), run.session.steps);
        run.running
    });
    if start == Some(true) {
        schedule();
    }
}

fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// Train for one slice on the next animation frame, and again after it while running.
fn schedule() {
    let frame = Closure::once_into_js(move || {
        // Nobody is watching (the view was closed): pause.
        let shown = document().get_element_by_id(ROOT_ID).is_some_and(|e| e.is_connected());
        let again = update_run(|run| {
            if !shown {
                run.running = false;
            }
            if !run.running {
                return false;
            }
            let start = now();
            while now() - start < SLICE_MS {
                if run.session.step().is_err() {
                    run.running = false;
                    break;
                }
            }
            let (t0, s0) = run.speed_mark;
            let t = now();
            if t - t0 >= 1000.0 {
                run.speed = (run.session.steps - s0) as f64 * 1000.0 / (t - t0);
                run.speed_mark = (t, run.session.steps);
            }
            run.running
        });
        if again == Some(true) {
            schedule();
        }
    });
    let _ = window().request_animation_frame(frame.unchecked_ref());
}
