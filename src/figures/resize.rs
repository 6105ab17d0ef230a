//! A window resize, as a signal: a chart tracks it to redraw at its container's new width.

use leptos::{ev, prelude::*};

/// A counter that changes whenever the window is resized. The listener is removed with the
/// component.
pub fn use_resize_tick() -> ReadSignal<u32> {
    let (tick, set_tick) = signal(0u32);
    let listener = window_event_listener(ev::resize, move |_| set_tick.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || listener.remove());
    tick
}
