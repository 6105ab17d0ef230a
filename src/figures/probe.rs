//! What the benchmark reads off the page (benchmark builds only, the `bench` feature): how many
//! canvases have been drawn, when the last finished, and the time spent drawing and computing.
//! Elsewhere the macros below leave only the work itself: no counter, no clock, no symbol.

/// Run `$work` (an expression); in benchmark builds, add its duration to the `Draw` or
/// `Compute` counter.
#[macro_export]
macro_rules! timed {
    ($kind:ident, $work:expr) => {{
        #[cfg(feature = "bench")]
        let out = $crate::figures::probe::time($crate::figures::probe::Work::$kind, || $work);
        #[cfg(not(feature = "bench"))]
        let out = $work;
        out
    }};
}

/// Count one finished drawing (benchmark builds only).
#[macro_export]
macro_rules! count_draw {
    () => {
        #[cfg(feature = "bench")]
        $crate::figures::probe::count_draw();
    };
}

#[cfg(feature = "bench")]
pub use counters::*;

#[cfg(feature = "bench")]
mod counters {
    use std::sync::atomic::Ordering::Relaxed;
    use std::sync::atomic::{AtomicU32, AtomicU64};

    /// How many canvases have been drawn since the page loaded: the benchmark waits for it to
    /// stop moving to know a change has been fully redrawn.
    pub static DRAWS: AtomicU32 = AtomicU32::new(0);

    /// When the last canvas finished drawing (`performance.now()`, as f64 bits): the end of a
    /// full update, without the idle ticks the benchmark waits to be sure nothing follows.
    pub static LAST_DRAW: AtomicU64 = AtomicU64::new(0);

    /// Time spent drawing canvases and computing attention since the page loaded, in ms (as
    /// f64 bits): the benchmark splits a full update into these and the rest (DOM, events).
    pub static DRAW_MS: AtomicU64 = AtomicU64::new(0);
    pub static COMPUTE_MS: AtomicU64 = AtomicU64::new(0);

    /// How many forward passes the page has run since it loaded: a change that does not touch
    /// the numbers (stage, head, language, theme) must not add to it.
    pub static COMPUTATIONS: AtomicU32 = AtomicU32::new(0);

    /// Which counter a piece of work adds to.
    #[derive(Clone, Copy)]
    pub enum Work {
        Draw,
        Compute,
    }

    fn now() -> f64 {
        web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
    }

    /// Run `f`, adding its duration to the counter of `work`.
    pub fn time<T>(work: Work, f: impl FnOnce() -> T) -> T {
        let t0 = now();
        let out = f();
        let slot = match work {
            Work::Draw => &DRAW_MS,
            Work::Compute => {
                COMPUTATIONS.fetch_add(1, Relaxed);
                &COMPUTE_MS
            }
        };
        let _ = slot.fetch_update(Relaxed, Relaxed, |bits| Some((f64::from_bits(bits) + now() - t0).to_bits()));
        out
    }

    /// Count one finished drawing; the very first also marks the time to the first heatmap.
    pub fn count_draw() {
        if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
            LAST_DRAW.store(p.now().to_bits(), Relaxed);
            if DRAWS.fetch_add(1, Relaxed) == 0 {
                let _ = p.mark("first-heatmap");
            }
        }
    }

    /// The number of forward passes so far (see [`COMPUTATIONS`]).
    pub fn computations() -> u32 {
        COMPUTATIONS.load(Relaxed)
    }
}
