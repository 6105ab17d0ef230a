//! `Heatmap`: one matrix on a canvas, captioned with its name and shape, redrawn when its
//! data or the available width changes.

use crate::chart::heatmap::{draw, HeatmapSpec, Ink};
use leptos::{ev, html, prelude::*};

/// Label and frame colours on the light page.
const INK: Ink = Ink { text: [0x1f, 0x23, 0x28], frame: [0x57, 0x60, 0x6a] };

/// A matrix drawn as a heatmap with its caption (name and shape) above it.
#[component]
pub fn Heatmap(
    /// The data to draw; the canvas is redrawn whenever it changes.
    #[prop(into)]
    spec: Signal<HeatmapSpec>,
    /// Caption with the matrix's name and shape, e.g. "A: 11 × 11".
    #[prop(into)]
    caption: Signal<String>,
    /// `data-testid` of the figure, for outside tests.
    testid: &'static str,
) -> impl IntoView {
    let figure = NodeRef::<html::Figure>::new();
    let canvas = NodeRef::<html::Canvas>::new();
    let (resized, set_resized) = signal(0u32);
    let listener = window_event_listener(ev::resize, move |_| set_resized.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || listener.remove());

    Effect::new(move |_| {
        resized.track();
        let (Some(canvas), Some(figure)) = (canvas.get(), figure.get()) else { return };
        let width = f64::from(figure.client_width()).max(200.0);
        spec.with(|spec| match draw(&canvas, spec, width, INK) {
            Ok(_) => {
                let _ = canvas.set_attribute("data-drawn", "true");
            }
            Err(e) => leptos::logging::error!("heatmap {testid}: {e}"),
        });
    });

    view! {
        <figure class="heatmap" data-testid=testid node_ref=figure>
            <figcaption class="heatmap__caption">{caption}</figcaption>
            <canvas class="heatmap__canvas" node_ref=canvas role="img" aria-label=caption></canvas>
        </figure>
    }
}
