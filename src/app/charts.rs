//! Canvas charts: one generic component that owns the figure, sizing and redrawing, and thin
//! wrappers for the bar and curve charts. Drawing itself is in `crate::chart`.

use super::hooks::{count_draw, use_resize_tick};
use super::state::use_lab;
use crate::chart::bars::draw_bars;
use crate::chart::curves::{draw_curves, Curve};
use leptos::{html, prelude::*};
use web_sys::HtmlCanvasElement;

/// Data for [`BarChart`].
#[derive(Debug, Clone, PartialEq)]
pub struct Bars {
    pub weights: Vec<f32>,
    pub labels: Vec<String>,
    pub blocked: Vec<bool>,
}

/// The CSS colour of a legend swatch.
pub fn swatch(c: [u8; 3]) -> String {
    format!("rgb({}, {}, {})", c[0], c[1], c[2])
}

/// A captioned canvas redrawn by `draw` (canvas, width in CSS px) whenever a signal it reads
/// changes or the window is resized.
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
    let resized = use_resize_tick();
    Effect::new(move |_| {
        resized.track();
        let (Some(canvas), Some(figure)) = (canvas.get(), figure.get()) else { return };
        let width = f64::from(figure.client_width()).clamp(200.0, 900.0);
        match draw.run((canvas.clone(), width)) {
            Ok(()) => {
                count_draw();
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

/// One row of attention weights as bars on a 0–1 axis.
#[component]
pub fn BarChart(
    /// The row to draw.
    #[prop(into)]
    bars: Signal<Bars>,
    /// Caption above the chart.
    #[prop(into)]
    caption: Signal<String>,
    /// `data-testid` of the figure.
    testid: &'static str,
) -> impl IntoView {
    let lab = use_lab();
    let draw = Callback::new(move |(c, w): (HtmlCanvasElement, f64)| {
        let ink = lab.ink();
        bars.with(|b| draw_bars(&c, &b.weights, &b.labels, &b.blocked, w, ink, ink.series[1]))
    });
    view! { <CanvasChart draw=draw caption=caption testid=testid /> }
}

/// Curves against d_k with the current d_k marked.
#[component]
pub fn CurveChart(
    /// The lines to draw.
    #[prop(into)]
    curves: Signal<Vec<Curve>>,
    /// Vertical extent of the y axis.
    y_range: (f32, f32),
    /// The d_k to mark.
    #[prop(into)]
    marker: Signal<usize>,
    /// Caption above the chart.
    #[prop(into)]
    caption: Signal<String>,
    /// `data-testid` of the figure.
    testid: &'static str,
) -> impl IntoView {
    let lab = use_lab();
    let draw = Callback::new(move |(c, w): (HtmlCanvasElement, f64)| curves.with(|cv| draw_curves(&c, cv, y_range, marker.get(), w, lab.ink())));
    view! { <CanvasChart draw=draw caption=caption testid=testid /> }
}
