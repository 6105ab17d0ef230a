//! `Heatmap`: one matrix on a canvas, captioned with its name and shape (the one place a
//! caption is made from a shape), redrawn when its data, width, ink, room or highlight
//! changes. Hovering or tapping a cell shows its numbers; beside the canvas stand its parts
//! (`parts`): the export buttons, the read-out line and the table of values. Everything it
//! shows comes in as props: it reads no page state and no other element's layout.

use super::frames::{draw_soon, figure_id};
use super::parts::{value_text, Tools, ValuesTable};
use super::{caption, use_resize_tick, use_width, width_now};
use crate::chart::heatmap::{draw, DrawOptions, HeatmapSpec, Layout, Sizing, PROJECTOR_FONT};
use crate::chart::ink::Ink;
use crate::chart::label::max_label_em;
use crate::i18n::{t, Lang, Msg};
use leptos::{html, prelude::*};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A row and a column to outline (the spotlight), each optional.
pub type Highlight = (Option<usize>, Option<usize>);

/// The largest cell of a presented heatmap of `spec` whose grid and labels may take `room` CSS
/// px of height: 64 px where there is room, never below 8.
fn projector_cell(spec: &HeatmapSpec, room: f64) -> f64 {
    // Around the grid: the column labels at the largest font below it, the layout's padding
    // and room for the colour bar's top label above it, and a margin.
    const MARGIN: f64 = 44.0;
    let em = max_label_em(&spec.col_labels);
    let labels = if em <= 1.25 { 1.4 } else { em } * PROJECTOR_FONT;
    ((room - labels - MARGIN) / spec.values.nrows().max(1) as f64).clamp(8.0, 64.0)
}

/// A matrix drawn as a heatmap, with its caption and tools above and a read-out line below.
#[component]
pub fn Heatmap(
    /// The data to draw; `None` clears the canvas. Redrawn whenever it changes.
    #[prop(into)]
    spec: Signal<Option<HeatmapSpec>>,
    /// The matrix's name, e.g. "Queries Q"; the caption adds its shape: "Queries Q: 11 × 64".
    #[prop(into)]
    name: Signal<String>,
    /// `data-testid` of the figure.
    testid: &'static str,
    /// The theme's chart colours.
    #[prop(into)]
    ink: Signal<Ink>,
    /// The language of the buttons and read-outs.
    #[prop(into)]
    lang: Signal<Lang>,
    /// On a projector, the height (CSS px) the grid and its labels may take, asked with the
    /// map's own figure before each draw; `None` (or no callback): sized for a desk or phone.
    #[prop(default = None)]
    room: Option<Callback<web_sys::HtmlElement, Option<f64>>>,
    /// A row and a column to outline.
    #[prop(optional, into)]
    highlight: Option<Signal<Highlight>>,
    /// Text for the cell (row, col) under the pointer; without it the cell's value is shown.
    #[prop(default = None)]
    detail: Option<Callback<(usize, usize), String>>,
    /// Called with (row, col) when a cell is clicked or tapped.
    #[prop(default = None)]
    on_pick: Option<Callback<(usize, usize)>>,
    /// The name of a saved file, without its extension; without it there is nothing to save.
    #[prop(default = None)]
    save_as: Option<Callback<(), String>>,
    /// In presentation mode, the map may continue the slide below the screen (the multi-head
    /// stage's concatenation): the stage gives it no room, and it marks itself so.
    #[prop(optional)]
    next_screen: bool,
    /// The map shares its colour scale with the maps beside it (the heads' weights, 0 to 1): on
    /// a projector too narrow for each map's legend, the legend is left out.
    #[prop(optional)]
    shared_scale: bool,
    /// One of many maps that change together (a model's every head): drawn in the frames'
    /// budget (`frames`) rather than at once, so that together they never hold the page.
    #[prop(optional)]
    spread: bool,
) -> impl IntoView {
    let figure = NodeRef::<html::Figure>::new();
    let canvas = NodeRef::<html::Canvas>::new();
    let layout = StoredValue::new(None::<Layout>);
    let (hovered, set_hovered) = signal(None::<(usize, usize)>);
    let table = RwSignal::new(false);
    let resized = use_resize_tick();
    let observed = use_width(figure);
    // The table of values describes the picture for a screen reader, once it is shown.
    let table_id = StoredValue::new(next_table_id());
    let title = Signal::derive(move || {
        // Before its numbers arrive (a worker's first answer) the map is still named: a picture
        // with role img needs a label (WebKit's audit came before the learn view's first model).
        spec.with(|s| s.as_ref().map(|s| caption(&name.get(), s.values.dim())).unwrap_or_else(|| name.get()))
    });

    // Draws the map as the props say now; in an effect it also tracks them.
    let redraw = move |room: Option<f64>| {
        let (Some(canvas), Some(figure)) = (canvas.get(), figure.get()) else { return };
        let width = width_now(&figure, observed).max(160.0);
        let highlight = highlight.map_or((None, None), |h| h.get());
        spec.with(|spec| {
            let Some(spec) = spec else {
                // No numbers (not yet, or no more): no picture, not the last one.
                if canvas.has_attribute("data-drawn") {
                    crate::chart::surface::empty_canvas(&canvas);
                    let _ = canvas.remove_attribute("data-drawn");
                    layout.set_value(None);
                }
                return;
            };
            // The column too, when the columns are the same tokens as the rows.
            let highlight = (highlight.0, highlight.1.filter(|_| spec.col_labels == spec.row_labels));
            // On a projector the stage fits one screen, and nobody taps a cell: cells as small
            // as the smallest label (8 px) are allowed there, on a small screen showing a long
            // sentence.
            let sizing = match room {
                Some(room) => Sizing {
                    max_cell: projector_cell(spec, room),
                    labelled_cell: 8.0,
                    spare_legend: shared_scale,
                    projector: true,
                    ..Sizing::DESK
                },
                None => Sizing::DESK,
            };
            let opts = DrawOptions { ink: ink.get(), sizing, highlight };
            match crate::timed!(Draw, draw(&canvas, spec, width, opts)) {
                Ok(l) => {
                    crate::count_draw!();
                    layout.set_value(Some(l));
                    let _ = canvas.set_attribute("data-drawn", "true");
                    // The cell's width and the labels' size in CSS px, for outside checks of
                    // readability.
                    let _ = canvas.set_attribute("data-cell", &l.cell_w.to_string());
                    let _ = canvas.set_attribute("data-font", &l.font_px.to_string());
                    // A map wider than its box scrolls sideways: the keyboard can reach it then.
                    let _ = if l.width > width + 1.0 {
                        figure.set_attribute("tabindex", "0")
                    } else {
                        figure.remove_attribute("tabindex")
                    };
                }
                Err(e) => leptos::logging::error!("heatmap {testid}: {e}"),
            }
        });
    };
    let room_now = move || room.and_then(|r| figure.get().and_then(|f| r.run(f)));
    if spread {
        // Tracked here, drawn in a frame's budget (`frames`), unless the map has gone by then.
        let (id, alive) = (figure_id(), Arc::new(AtomicBool::new(true)));
        let gone = Arc::clone(&alive);
        on_cleanup(move || gone.store(false, Ordering::Relaxed));
        Effect::new(move |_| {
            resized.track();
            observed.track();
            spec.track();
            ink.track();
            if let Some(h) = highlight {
                h.track();
            }
            let room = room_now();
            let alive = Arc::clone(&alive);
            draw_soon(id, move || {
                if alive.load(Ordering::Relaxed) {
                    untrack(|| redraw(room));
                }
            });
        });
    } else {
        Effect::new(move |_| {
            resized.track();
            redraw(room_now());
        });
    }

    let cell_at = move |e: &web_sys::MouseEvent| {
        layout.with_value(|l| l.and_then(|l| l.cell_at(f64::from(e.offset_x()), f64::from(e.offset_y()))))
    };
    let text = move || {
        let cell = hovered.get()?;
        let in_range =
            spec.with(|s| s.as_ref().is_some_and(|s| cell.0 < s.values.nrows() && cell.1 < s.values.ncols()));
        if !in_range {
            return None;
        }
        Some(match detail {
            Some(d) => d.run(cell),
            None => {
                spec.with(|s| s.as_ref().map(|s| value_text(s, cell, t(lang.get(), Msg::Masked))).unwrap_or_default())
            }
        })
    };

    view! {
        <figure class="heatmap" data-testid=testid node_ref=figure data-next-screen=next_screen.then_some("")>
            <figcaption class="heatmap__caption">
                <span data-caption="">{title}</span>
                <Tools spec=spec canvas=canvas save_as=save_as table=table table_id=table_id testid=testid lang=lang />
            </figcaption>
            <canvas
                class="heatmap__canvas"
                node_ref=canvas
                role="img"
                aria-label=title
                aria-describedby=move || table.get().then(|| table_id.get_value())
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
            <Show when=move || table.get()>
                {move || spec.with(|s| s.clone().map(|s| view! { <ValuesTable spec=s caption=title.get() id=table_id.get_value() /> }))}
            </Show>
        </figure>
    }
}

/// A page-wide unique id for a heatmap's table of values.
fn next_table_id() -> String {
    thread_local! {
        static NEXT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }
    NEXT.with(|n| {
        n.set(n.get() + 1);
        format!("values-{}", n.get())
    })
}
