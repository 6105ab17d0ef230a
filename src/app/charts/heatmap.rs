//! `Heatmap`: one matrix on a canvas, captioned with its name and shape (the one place a
//! caption is made from a shape), redrawn when its data, the width, the theme or the
//! spotlight changes. Hovering or tapping a cell shows its numbers; it can be saved as PNG or
//! CSV, and read as a table by a screen reader.

use crate::app::download::{save_png, save_text};
use crate::app::hooks::{count_draw, timed, use_resize_tick, Work};
use crate::app::page::use_page;
use crate::app::specs::{caption, num};
use crate::chart::heatmap::{draw, DrawOptions, HeatmapSpec, Layout, Sizing, PROJECTOR_FONT};
use crate::chart::label::max_label_em;
use crate::export::to_csv;
use crate::i18n::{ClassMsg, Msg};
use leptos::{html, prelude::*};
use wasm_bindgen::JsCast;

/// Provided by a lesson stage: heatmaps inside it outline the spotlighted token.
#[derive(Debug, Clone, Copy)]
pub struct SpotlightScope;

/// The largest cell of a presented heatmap of `spec` whose figure starts `top` CSS px below
/// the top of the page with a caption and the lines that go with it (a readout below it)
/// `caption` px high, so that they, the grid and the column labels fill at most `share` of the
/// screen below that point: 64 px where there is room,
/// never below 8. Read on every draw (the maps above are drawn first), and a window resize
/// redraws.
fn projector_cell(spec: &HeatmapSpec, top: f64, caption: f64, share: f64) -> f64 {
    // Around the grid: the column labels at the largest font below it, the layout's padding
    // and room for the colour bar's top label above it, and a margin.
    const MARGIN: f64 = 44.0;
    let em = max_label_em(&spec.col_labels);
    let labels = if em <= 1.25 { 1.4 } else { em } * PROJECTOR_FONT;
    let height = window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(1080.0);
    (((height - top) * share - caption - labels - MARGIN) / spec.values.nrows().max(1) as f64).clamp(8.0, 64.0)
}

/// A matrix drawn as a heatmap, with its caption above and a details line below.
#[component]
pub fn Heatmap(
    /// The data to draw; `None` clears the canvas. Redrawn whenever it changes.
    #[prop(into)]
    spec: Signal<Option<HeatmapSpec>>,
    /// The matrix's name, e.g. "Queries Q"; the caption adds its shape: "Queries Q: 11 × 64".
    #[prop(into)]
    name: Signal<String>,
    /// `data-testid` of the figure, for outside tests; without "heatmap-", also what a saved
    /// file is called after.
    testid: &'static str,
    /// What a saved file is called after, when the test id is not specific enough (the heads
    /// of the multi-head stage share one).
    #[prop(optional, into)]
    file: Option<String>,
    /// Text for the cell (row, col) under the pointer; without it the cell's value is shown.
    #[prop(optional, into)]
    detail: Option<Callback<(usize, usize), String>>,
    /// Called with (row, col) when a cell is clicked or tapped.
    #[prop(optional, into)]
    on_pick: Option<Callback<(usize, usize)>>,
    /// In presentation mode, the map may continue the slide below the screen (the multi-head
    /// stage's concatenation): it is not sized to fit, and the maps above leave it no room.
    #[prop(optional)]
    next_screen: bool,
    /// The map shares its colour scale with the maps beside it (the heads' weights, 0 to 1):
    /// on a projector too narrow for each map's legend, the legend is left out.
    #[prop(optional)]
    shared_scale: bool,
) -> impl IntoView {
    let page = use_page();
    let figure = NodeRef::<html::Figure>::new();
    let canvas = NodeRef::<html::Canvas>::new();
    let layout = StoredValue::new(None::<Layout>);
    let (hovered, set_hovered) = signal(None::<(usize, usize)>);
    let (table, set_table) = signal(false);
    let resized = use_resize_tick();
    let in_stage = use_context::<SpotlightScope>().is_some();
    let spot = Memo::new(move |_| if in_stage { page.settings.with(|s| s.spot) } else { None });
    let present = page.pick(|s| s.present);
    // The table of values describes the picture for a screen reader, once it is shown.
    let table_id = StoredValue::new(next_table_id());
    let title = Signal::derive(move || {
        spec.with(|s| s.as_ref().map(|s| caption(&name.get(), s.values.dim())).unwrap_or_default())
    });

    Effect::new(move |_| {
        resized.track();
        let (Some(canvas), Some(figure)) = (canvas.get(), figure.get()) else { return };
        let width = f64::from(figure.client_width()).max(160.0);
        spec.with(|spec| {
            let Some(spec) = spec else { return };
            let spot = spot.get();
            // The column too, when the columns are the same tokens as the rows.
            let highlight = (spot, spot.filter(|_| spec.col_labels == spec.row_labels));
            // On a projector the stage fits one screen, and nobody taps a cell: cells as small
            // as the smallest label (8 px) are allowed there, on a small screen showing a long
            // sentence.
            let sizing = if present.get() && !next_screen {
                let top = figure.get_bounding_client_rect().top() + window().scroll_y().unwrap_or(0.0);
                let caption = figure.first_element_child().map_or(45.0, |c| c.get_bounding_client_rect().height());
                let share = 1.0 / (1 + maps_below(&figure)) as f64;
                let max_cell = projector_cell(spec, top, caption + text_after(&figure), share);
                Sizing { max_cell, labelled_cell: 8.0, spare_legend: shared_scale, projector: true, ..Sizing::DESK }
            } else {
                Sizing::DESK
            };
            let opts = DrawOptions { ink: page.ink.get(), sizing, highlight };
            match timed(Work::Draw, || draw(&canvas, spec, width, opts)) {
                Ok(l) => {
                    count_draw();
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
    });

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
            None => spec.with(|s| s.as_ref().map(|s| value_text(s, cell, page.t(Msg::Masked))).unwrap_or_default()),
        })
    };

    // A file named after the matrix (its stable test id, not its translated name) and the settings.
    let what = StoredValue::new(file.unwrap_or_else(|| testid.trim_start_matches("heatmap-").to_string()));
    let file = move |ext: &str| format!("{}.{ext}", what.with_value(|w| page.file_stem(w)));
    let save_image = move |_| {
        if let Some(c) = canvas.get() {
            if let Err(e) = save_png(&file("png"), &c) {
                leptos::logging::error!("{e}");
            }
        }
    };
    let save_csv = move |_| {
        spec.with_untracked(|s| {
            if let Some(s) = s {
                if let Err(e) = save_text(&file("csv"), "text/csv", &to_csv(&s.values, &s.row_labels, &s.col_labels)) {
                    leptos::logging::error!("{e}");
                }
            }
        })
    };

    view! {
        <figure class="heatmap" data-testid=testid node_ref=figure data-next-screen=next_screen.then_some("")>
            <figcaption class="heatmap__caption">
                <span data-caption="">{title}</span>
                <span class="heatmap__tools">
                    <button type="button" class="button button--small" data-testid="export-png" on:click=save_image>{page.text(ClassMsg::ExportPng)}</button>
                    <button type="button" class="button button--small" data-testid="export-csv" on:click=save_csv>{page.text(ClassMsg::ExportCsv)}</button>
                    <button type="button" class="button button--small" data-testid=format!("{testid}-table-toggle") aria-pressed=move || table.get().to_string()
                        aria-controls=move || table.get().then(|| table_id.get_value())
                        on:click=move |_| set_table.update(|t| *t = !*t)>
                        {move || page.t(if table.get() { ClassMsg::HideNumbers } else { ClassMsg::ShowNumbers })}
                    </button>
                </span>
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
                {move || spec.with(|s| s.as_ref().map(|s| values_table(s, title.get(), table_id.get_value())))}
            </Show>
        </figure>
    }
}

/// How many heatmaps of the same stage stand below `figure`, in its column (on a screen that
/// must hold them all, it leaves each an equal share of the height below its top).
fn maps_below(figure: &web_sys::HtmlElement) -> usize {
    let Some(scope) = figure.closest(".stage__figures, .view").ok().flatten() else { return 0 };
    let Ok(maps) = scope.query_selector_all("figure.heatmap:not([data-next-screen])") else { return 0 };
    let me = figure.get_bounding_client_rect();
    (0..maps.length())
        .filter_map(|i| maps.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()))
        .map(|m| m.get_bounding_client_rect())
        .filter(|r| r.top() > me.bottom() - 1.0 && r.left() < me.right() && r.right() > me.left())
        .count()
}

/// The height of what follows `figure` in its own box, other than maps (a readout under it).
fn text_after(figure: &web_sys::HtmlElement) -> f64 {
    std::iter::successors(figure.next_element_sibling(), |e| e.next_element_sibling())
        .filter(|e| !e.class_list().contains("heatmap"))
        .map(|e| e.get_bounding_client_rect().height())
        .sum()
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

/// The matrix as a table with row and column headers: what a screen reader can read.
fn values_table(s: &HeatmapSpec, caption: String, id: String) -> impl IntoView {
    let header = s.col_labels.iter().map(|c| view! { <th scope="col">{c.clone()}</th> }).collect_view();
    let rows = s
        .values
        .rows()
        .into_iter()
        .enumerate()
        .map(|(r, row)| {
            let cells = row
                .iter()
                .enumerate()
                .map(|(c, v)| {
                    let masked = s.blocked.as_ref().and_then(|b| b.get((r, c)).copied()).unwrap_or(false);
                    view! { <td>{if masked { "—".to_string() } else { num(*v) }}</td> }
                })
                .collect_view();
            view! { <tr><th scope="row">{s.row_labels.get(r).cloned().unwrap_or_default()}</th>{cells}</tr> }
        })
        .collect_view();
    view! {
        <div class="values" id=id>
            <table class="values__table">
                <caption>{caption}</caption>
                <thead><tr><td></td>{header}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// "[row, col] = value" from the spec itself; `masked` names a blocked cell.
fn value_text(s: &HeatmapSpec, (r, c): (usize, usize), masked: &str) -> String {
    let row = s.row_labels.get(r).map(String::as_str).unwrap_or("?");
    let col = s.col_labels.get(c).map(String::as_str).unwrap_or("?");
    let blocked = s.blocked.as_ref().and_then(|b| b.get((r, c)).copied()).unwrap_or(false);
    let value = s.values.get((r, c)).copied().unwrap_or(0.0);
    let shown = if blocked { masked.to_string() } else { num(value) };
    format!("[{row}, {col}] = {shown}")
}
