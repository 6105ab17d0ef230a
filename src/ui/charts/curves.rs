//! Readouts against d_k as lines.

use crate::chart::curves::{draw_curves, Curve};
use crate::figures::CanvasChart;
use crate::ui::use_lesson_state;
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

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
    let page = use_lesson_state();
    let draw = Callback::new(move |(c, w): (HtmlCanvasElement, f64)| {
        curves.with(|cv| draw_curves(&c, cv, y_range, marker.get(), w, page.ink.get()))
    });
    view! { <CanvasChart draw=draw caption=caption testid=testid /> }
}
