//! One row of attention weights as bars.

use crate::chart::bars::draw_bars;
use crate::figures::CanvasChart;
use crate::ui::use_lesson_state;
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

/// Data for [`BarChart`]: one bar per key.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bars {
    pub weights: Vec<f32>,
    pub labels: Vec<String>,
    pub blocked: Vec<bool>,
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
    let page = use_lesson_state();
    let draw = Callback::new(move |(c, w): (HtmlCanvasElement, f64)| {
        let ink = page.ink.get();
        bars.with(|b| draw_bars(&c, &b.weights, &b.labels, &b.blocked, w, ink, ink.series[1]))
    });
    view! { <CanvasChart draw=draw caption=caption testid=testid /> }
}
