//! The training view's pictures: one head's attention on the example, and a quantity of the
//! run against its steps. Each redraws when its data changes; the drawing is `crate::chart`'s.

use crate::chart::colormap::Scale;
use crate::chart::heatmap::{draw, DrawOptions, HeatmapSpec, Sizing};
use crate::chart::ink::Ink;
use crate::chart::training::draw_runs;
use crate::core::attention::causal_mask;
use leptos::{html, prelude::*};
use ndarray::Array2;

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

/// One head's attention on a canvas.
#[component]
pub fn HeadMap(spec: Signal<Option<HeatmapSpec>>, caption: String, ink: Ink) -> impl IntoView {
    let figure = NodeRef::<html::Figure>::new();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let (Some(figure), Some(canvas)) = (figure.get(), canvas.get()) else { return };
        spec.with(|spec| {
            let Some(spec) = spec else { return };
            let width = f64::from(figure.client_width()).max(160.0);
            let opts = DrawOptions { ink, sizing: Sizing::DESK, highlight: (None, None) };
            if draw(&canvas, spec, width, opts).is_ok() {
                let _ = canvas.set_attribute("data-drawn", "true");
            }
        });
    });
    view! {
        <figure class="heatmap" data-testid="learn-head" node_ref=figure>
            <figcaption class="heatmap__caption">{caption.clone()}</figcaption>
            <canvas class="heatmap__canvas" node_ref=canvas role="img" aria-label=caption></canvas>
        </figure>
    }
}

/// A quantity of one or more runs against their steps (one line each, in the series colours),
/// y from 0 to `top` (or to the largest value).
#[component]
pub fn RunChart(
    caption: &'static str,
    testid: &'static str,
    ink: Ink,
    runs: Signal<Vec<Vec<(usize, f64)>>>,
    top: Option<f64>,
) -> impl IntoView {
    let figure = NodeRef::<html::Figure>::new();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let (Some(figure), Some(canvas)) = (figure.get(), canvas.get()) else { return };
        let width = f64::from(figure.client_width()).clamp(200.0, 900.0);
        runs.with(|runs| {
            if draw_runs(&canvas, runs, top, width, ink).is_ok() {
                let _ = canvas.set_attribute("data-drawn", "true");
            }
        });
    });
    view! {
        <figure class="chart" data-testid=testid node_ref=figure>
            <figcaption class="chart__caption">{caption}</figcaption>
            <canvas class="chart__canvas" node_ref=canvas role="img" aria-label=caption></canvas>
        </figure>
    }
}
