//! Canvas wrappers for the small charts: one row of weights as bars, and readouts against d_k.

use super::state::INK;
use crate::chart::bars::draw_bars;
use crate::chart::curves::{draw_curves, Curve};
use super::hooks::use_resize_tick;
use leptos::{html, prelude::*};

/// Data for [`BarChart`].
#[derive(Debug, Clone, PartialEq)]
pub struct Bars {
    pub weights: Vec<f32>,
    pub labels: Vec<String>,
    pub blocked: Vec<bool>,
}

/// Redraw whenever `draw` reads something that changes, or the window is resized.
fn redraw_on_change(figure: NodeRef<html::Figure>, canvas: NodeRef<html::Canvas>, draw: impl Fn(&web_sys::HtmlCanvasElement, f64) -> Result<(), String> + 'static) {
    let resized = use_resize_tick();
    Effect::new(move |_| {
        resized.track();
        let (Some(canvas), Some(figure)) = (canvas.get(), figure.get()) else { return };
        let width = f64::from(figure.client_width()).clamp(200.0, 900.0);
        match draw(&canvas, width) {
            Ok(()) => {
                let _ = canvas.set_attribute("data-drawn", "true");
            }
            Err(e) => leptos::logging::error!("chart: {e}"),
        }
    });
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
    let figure = NodeRef::<html::Figure>::new();
    let canvas = NodeRef::<html::Canvas>::new();
    redraw_on_change(figure, canvas, move |c, w| {
        bars.with(|b| draw_bars(c, &b.weights, &b.labels, &b.blocked, w, INK, [0x21, 0x91, 0x8c]))
    });
    chart_figure(figure, canvas, caption, testid)
}

/// The markup every small chart shares: a captioned figure around its canvas.
fn chart_figure(figure: NodeRef<html::Figure>, canvas: NodeRef<html::Canvas>, caption: Signal<String>, testid: &'static str) -> impl IntoView {
    view! {
        <figure class="chart" data-testid=testid node_ref=figure>
            <figcaption class="chart__caption">{caption}</figcaption>
            <canvas class="chart__canvas" node_ref=canvas role="img" aria-label=caption></canvas>
        </figure>
    }
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
    let figure = NodeRef::<html::Figure>::new();
    let canvas = NodeRef::<html::Canvas>::new();
    redraw_on_change(figure, canvas, move |c, w| curves.with(|cv| draw_curves(c, cv, y_range, marker.get(), w, INK)));
    chart_figure(figure, canvas, caption, testid)
}
