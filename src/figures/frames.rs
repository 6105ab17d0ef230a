//! Drawing spread over animation frames: a figure asks for its next draw with [`draw_soon`],
//! and one callback per frame runs the waiting draws, oldest first, until the frame's budget is
//! spent, leaving the rest to the next frame. Many figures changing at once (the sixteen heads
//! of the largest model the training view trains, each time its weights arrive) then never hold
//! the page for a long task. A figure's newer draw replaces its waiting one.

use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

/// Milliseconds of drawing a frame may take before the rest waits for the next one: a frame is
/// 16.7 ms at 60 Hz, and the browser needs the remainder for layout and paint.
const BUDGET_MS: f64 = 10.0;

type Draw = Box<dyn FnOnce()>;

thread_local! {
    /// The draws waiting, by figure, oldest first.
    static WAITING: RefCell<Vec<(u64, Draw)>> = const { RefCell::new(Vec::new()) };
    /// A frame callback is requested.
    static REQUESTED: Cell<bool> = const { Cell::new(false) };
    /// The numbers [`figure_id`] hands out.
    static NEXT_ID: Cell<u64> = const { Cell::new(0) };
}

/// A number naming one figure for [`draw_soon`].
pub fn figure_id() -> u64 {
    NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    })
}

/// Run `draw` for figure `id` in an animation frame soon (this one's, if the budget allows),
/// replacing a draw of the same figure that is still waiting.
pub fn draw_soon(id: u64, draw: impl FnOnce() + 'static) {
    WAITING.with(|w| {
        let mut waiting = w.borrow_mut();
        match waiting.iter_mut().find(|(figure, _)| *figure == id) {
            Some(slot) => slot.1 = Box::new(draw),
            None => waiting.push((id, Box::new(draw))),
        }
    });
    request();
}

fn request() {
    if REQUESTED.with(|r| r.replace(true)) {
        return;
    }
    let frame = Closure::once_into_js(run_frame);
    let asked = web_sys::window().map(|w| w.request_animation_frame(frame.unchecked_ref()).is_ok());
    if asked != Some(true) {
        // No frames to wait for (no window): draw now rather than never.
        run_frame();
    }
}

/// The waiting draws, oldest first, until the budget is spent.
fn run_frame() {
    REQUESTED.with(|r| r.set(false));
    let started = now();
    loop {
        let next = WAITING.with(|w| {
            let mut waiting = w.borrow_mut();
            (!waiting.is_empty()).then(|| waiting.remove(0))
        });
        let Some((_, draw)) = next else { return };
        draw();
        if now() - started > BUDGET_MS {
            break;
        }
    }
    if WAITING.with(|w| !w.borrow().is_empty()) {
        request();
    }
}

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}
