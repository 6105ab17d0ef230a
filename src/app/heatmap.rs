//! `Heatmap`: one matrix on a canvas, captioned with its name and shape, redrawn when its
//! data or the available width changes. Hovering or tapping a cell shows its numbers.

use super::state::use_lab;
use crate::chart::heatmap::{draw, HeatmapSpec};
use crate::chart::layout::Layout;
use super::hooks::use_resize_tick;
use leptos::{html, prelude::*};

/// A matrix drawn as a heatmap, with its caption above and a details line below.
#[component]
pub fn Heatmap(
    /// The data to draw; `None` clears the canvas. Redrawn whenever it changes.
    #[prop(into)]
    spec: Signal<Option<HeatmapSpec>>,
    /// Caption with the matrix's name and shape, e.g. "Queries Q: 11 × 64".
    #[prop(into)]
    caption: Signal<String>,
    /// `data-testid` of the figure, for outside tests.
    testid: &'static str,
    /// Text for the cell (row, col) under the pointer; without it the cell's value is shown.
    #[prop(optional, into)]
    detail: Option<Callback<(usize, usize), String>>,
    /// Called with (row, col) when a cell is clicked or tapped.
    #[prop(optional, into)]
    on_pick: Option<Callback<(usize, usize)>>,
) -> impl IntoView {
    let lab = use_lab();
    let figure = NodeRef::<html::Figure>::new();
    let canvas = NodeRef::<html::Canvas>::new();
    let layout = StoredValue::new(None::<Layout>);
    let (hovered, set_hovered) = signal(None::<(usize, usize)>);
    let resized = use_resize_tick();

    Effect::new(move |_| {
        resized.track();
        let (Some(canvas), Some(figure)) = (canvas.get(), figure.get()) else { return };
        let width = f64::from(figure.client_width()).max(160.0);
        spec.with(|spec| {
            let Some(spec) = spec else { return };
            match draw(&canvas, spec, width, lab.ink()) {
                Ok(l) => {
                    layout.set_value(Some(l));
                    let _ = canvas.set_attribute("data-drawn", "true");
                }
                Err(e) => leptos::logging::error!("heatmap {testid}: {e}"),
            }
        });
    });

    let cell_at = move |e: &web_sys::MouseEvent| {
        layout.with_value(|l| l.and_then(|l| l.cell_at(f64::from(e.offset_x()), f64::from(e.offset_y()))))
    };
    let text = move || {
        let cell = hovered.get()?;
        let in_range = spec.with(|s| s.as_ref().is_some_and(|s| cell.0 < s.values.nrows() && cell.1 < s.values.ncols()));
        if !in_range {
            return None;
        }
        Some(match detail {
            Some(d) => d.run(cell),
            None => spec.with(|s| s.as_ref().map(|s| value_text(s, cell)).unwrap_or_default()),
        })
    };

    view! {
        <figure class="heatmap" data-testid=testid node_ref=figure>
            <figcaption class="heatmap__caption">{caption}</figcaption>
            <canvas
                class="heatmap__canvas"
                node_ref=canvas
                role="img"
                aria-label=caption
                on:mousemove=move |e| set_hovered.set(cell_at(&e))
                on:mouseleave=move |_| set_hovered.set(None)
                on:click=move |e| {
                    let cell = cell_at(&e);
                    set_hovered.set(cell);
                    if let (Some(cell), Some(pick)) = (cell, on_pick) {
                        pick.run(cell);
                    }
                }
            ></canvas>
            <p class="heatmap__detail" aria-live="polite" data-testid=format!("{testid}-detail")>
                {text}
            </p>
        </figure>
    }
}

/// "row, col = value" from the spec itself.
fn value_text(s: &HeatmapSpec, (r, c): (usize, usize)) -> String {
    let row = s.row_labels.get(r).map(String::as_str).unwrap_or("?");
    let col = s.col_labels.get(c).map(String::as_str).unwrap_or("?");
    let blocked = s.blocked.as_ref().and_then(|b| b.get((r, c)).copied()).unwrap_or(false);
    let value = s.values.get((r, c)).copied().unwrap_or(0.0);
    let shown = if blocked { "0 (masked)".to_string() } else { super::specs::num(value) };
    format!("[{row}, {col}] = {shown}")
}
