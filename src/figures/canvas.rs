//! `CanvasChart`: a captioned canvas redrawn by the caller's drawing whenever a signal it
//! reads changes or its box changes width. The bars, curves, histograms and a training run's
//! history are drawn through it.

use super::{use_width, width_now};
use leptos::{html, prelude::*};
use web_sys::HtmlCanvasElement;

/// A captioned canvas redrawn by `draw` (canvas, width in CSS px).
#[component]
pub fn CanvasChart(
    /// Draws the chart; reads the signals it depends on.
    draw: Callback<(HtmlCanvasElement, f64), Result<(), String>>,
    /// Caption above the chart.
    #[prop(into)]
    caption: Signal<String>,
    /// `data-testid` of the figure.
    testid: &'static str,
) -> impl IntoView {
    let figure = NodeRef::<html::Figure>::new();
    let canvas = NodeRef::<html::Canvas>::new();
    let observed = use_width(figure);
    Effect::new(move |_| {
        let (Some(canvas), Some(figure)) = (canvas.get(), figure.get()) else { return };
        let width = width_now(&figure, observed).clamp(200.0, 900.0);
        match crate::timed!(Draw, draw.run((canvas.clone(), width))) {
            Ok(()) => {
                crate::count_draw!();
                let _ = canvas.set_attribute("data-drawn", "true");
            }
            Err(e) => leptos::logging::error!("chart {testid}: {e}"),
        }
    });
    view! {
        <figure class="chart" data-testid=testid node_ref=figure>
            <figcaption class="chart__caption" data-caption="">{caption}</figcaption>
            <canvas class="chart__canvas" node_ref=canvas role="img" aria-label=caption></canvas>
        </figure>
    }
}
