//! Small reactive helpers shared by components.

use leptos::{ev, prelude::*};

/// A counter that changes whenever the window is resized: track it in an effect to redraw a
/// canvas at its container's new width. The listener is removed with the component.
pub fn use_resize_tick() -> ReadSignal<u32> {
    let (tick, set_tick) = signal(0u32);
    let listener = window_event_listener(ev::resize, move |_| set_tick.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || listener.remove());
    tick
}

/// How many canvases have been drawn since the page loaded: the benchmark waits for it to stop
/// moving to know a change has been fully redrawn.
#[cfg(feature = "bench")]
pub static DRAWS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// When the last canvas finished drawing (`performance.now()`, as f64 bits): the end of a
/// full update, without the idle ticks the benchmark waits to be sure nothing follows.
#[cfg(feature = "bench")]
pub static LAST_DRAW: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Time spent drawing canvases and computing attention since the page loaded, in ms (as f64
/// bits): the benchmark splits a full update into these and the rest (DOM, events).
#[cfg(feature = "bench")]
pub static DRAW_MS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
#[cfg(feature = "bench")]
pub static COMPUTE_MS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Which of the benchmark's time counters a piece of work adds to.
#[derive(Clone, Copy)]
pub enum Work {
    Draw,
    Compute,
}

/// Run `f`; in benchmark builds, add its duration to the counter of `work`.
pub fn timed<T>(work: Work, f: impl FnOnce() -> T) -> T {
    #[cfg(feature = "bench")]
    {
        use std::sync::atomic::Ordering::Relaxed;
        let now = || web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
        let t0 = now();
        let out = f();
        let slot = match work {
            Work::Draw => &DRAW_MS,
            Work::Compute => &COMPUTE_MS,
        };
        let _ = slot.fetch_update(Relaxed, Relaxed, |bits| Some((f64::from_bits(bits) + now() - t0).to_bits()));
        out
    }
    #[cfg(not(feature = "bench"))]
    {
        let _ = work;
        f()
    }
}

/// Count one finished drawing; the very first also marks the time to the first heatmap.
/// Benchmark builds only: elsewhere it does nothing.
pub fn count_draw() {
    #[cfg(feature = "bench")]
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        use std::sync::atomic::Ordering::Relaxed;
        LAST_DRAW.store(p.now().to_bits(), Relaxed);
        if DRAWS.fetch_add(1, Relaxed) == 0 {
            let _ = p.mark("first-heatmap");
        }
    }
}
