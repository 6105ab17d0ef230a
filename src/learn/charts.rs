//! The training view's pictures, drawn by the site's own figures: one head's attention on the
//! example (a `figures::Heatmap`), and a quantity of the run against its steps (a
//! `figures::CanvasChart` of `chart::training`).

use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::chart::ink::Ink;
use crate::chart::training::draw_runs;
use crate::core::mask::causal_mask;
use crate::figures::CanvasChart;
use leptos::prelude::*;
use ndarray::Array2;
use web_sys::HtmlCanvasElement;

/// A head's weights on the example's tokens as a heatmap, future keys greyed (the causal mask).
pub fn head_spec(values: Array2<f32>, labels: Vec<String>) -> HeatmapSpec {
    let n = labels.len();
    HeatmapSpec {
        values,
        row_labels: labels.clone(),
        col_labels: labels,
        scale: Scale::Sequential { min: 0.0, max: 1.0 },
        blocked: Some(causal_mask(n)),
    }
}

/// A quantity of one or more runs against their steps (one line each, in the series colours),
/// y from 0 to `top` (or to the largest value).
#[component]
pub fn RunChart(
    /// Caption above the chart.
    caption: &'static str,
    /// `data-testid` of the figure.
    testid: &'static str,
    /// The theme's chart colours.
    ink: Ink,
    /// Each run's (step, value) points.
    runs: Signal<Vec<Vec<(usize, f64)>>>,
    /// The top of the y axis, or `None` for the largest value.
    top: Option<f64>,
) -> impl IntoView {
    let draw = Callback::new(move |(canvas, width): (HtmlCanvasElement, f64)| {
        runs.with(|runs| draw_runs(&canvas, runs, top, width, ink))
    });
    view! { <CanvasChart draw=draw caption=caption.to_string() testid=testid /> }
}
