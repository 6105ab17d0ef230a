//! The size a chart draws at, as signals: a window resize (a presented chart's room depends on
//! the window's height), and the width of the chart's own box, kept by a `ResizeObserver`, so
//! that redrawing after a change never forces the browser to lay the page out mid-update.

use leptos::{ev, html, prelude::*};
use wasm_bindgen::{closure::Closure, JsCast};
use web_sys::{ResizeObserver, ResizeObserverEntry};

/// A counter that changes whenever the window is resized. The listener is removed with the
/// component.
pub fn use_resize_tick() -> ReadSignal<u32> {
    let (tick, set_tick) = signal(0u32);
    let listener = window_event_listener(ev::resize, move |_| set_tick.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || listener.remove());
    tick
}

/// The width (CSS px, `clientWidth`) of the element `figure` (a chart's figure, a thumbnail's
/// canvas), once it is in the page; `None` before its first layout. The browser reports it
/// after laying the page out, so reading it costs nothing; the signal changes in the frame
/// after the report. A chart that has to draw before that measures the figure itself once
/// ([`width_now`]). The observer is disconnected with the component.
pub fn use_width<E>(figure: NodeRef<E>) -> RwSignal<Option<f64>>
where
    E: html::ElementType + 'static,
    E::Output: AsRef<web_sys::Element> + JsCast + Clone + 'static,
{
    let width = RwSignal::new(None::<f64>);
    let observed = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
        let mut entries = entries.iter().filter_map(|e| e.dyn_into::<ResizeObserverEntry>().ok());
        let Some(now) = entries.next_back().map(|e| f64::from(e.target().client_width())) else { return };
        if width.try_get_untracked().flatten() == Some(now) {
            return;
        }
        // Set in the next frame, not while the browser delivers the observations: a redraw
        // that changes the figure's size there would be observed again in the same delivery,
        // and the browser reports that loop as an error on the window.
        let later = Closure::once_into_js(move || {
            if width.try_get_untracked().flatten() != Some(now) {
                width.try_set(Some(now));
            }
        });
        let _ = window().request_animation_frame(later.unchecked_ref());
    });
    let Ok(observer) = ResizeObserver::new(observed.as_ref().unchecked_ref()) else { return width };
    let watching = observer.clone();
    Effect::new(move |_| {
        if let Some(figure) = figure.get() {
            watching.observe(figure.as_ref());
        }
    });
    // The observer stops before its callback is dropped, both with the component.
    let kept = send_wrapper::SendWrapper::new((observer, observed));
    on_cleanup(move || {
        kept.0.disconnect();
        drop(kept);
    });
    width
}

/// The figure's width now: the observed one, or (before the observer's first report, when the
/// chart first draws) measured once and kept, so that the report does not draw it again.
pub fn width_now(figure: &web_sys::HtmlElement, width: RwSignal<Option<f64>>) -> f64 {
    match width.get() {
        Some(w) => w,
        None => {
            let w = f64::from(figure.client_width());
            width.update_untracked(|slot| *slot = Some(w));
            w
        }
    }
}
