//! The parts a heatmap has beside its canvas: the buttons that save it (PNG, CSV) and show its
//! table of values, the line that reads the cell under the pointer, and the table itself, which
//! describes the picture to a screen reader. Each takes what it shows as props.

use super::download::{save_png, save_text};
use crate::chart::heatmap::HeatmapSpec;
use crate::export::to_csv;
use crate::i18n::{t, ClassMsg, Lang};
use crate::number::{show, Room};
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

/// Save as PNG and CSV (when `save_as` names the file), and show or hide the table of values.
#[component]
pub fn Tools(
    /// The data the CSV holds.
    spec: Signal<Option<HeatmapSpec>>,
    /// The canvas the PNG is made from.
    canvas: NodeRef<leptos::html::Canvas>,
    /// The file name without its extension, asked when a button is pressed; `None`: no export.
    save_as: Option<Callback<(), String>>,
    /// Whether the table is shown.
    table: RwSignal<bool>,
    /// The table's element id (the toggle controls it).
    table_id: StoredValue<String>,
    /// `data-testid` of the heatmap (the toggle's is derived from it).
    testid: &'static str,
    lang: Signal<Lang>,
) -> impl IntoView {
    let save_image = move |_| {
        let (Some(c), Some(stem)) = (canvas.get(), save_as.map(|s| s.run(()))) else { return };
        let c: &HtmlCanvasElement = &c;
        if let Err(e) = save_png(&format!("{stem}.png"), c) {
            leptos::logging::error!("{e}");
        }
    };
    let save_csv = move |_| {
        let Some(stem) = save_as.map(|s| s.run(())) else { return };
        spec.with_untracked(|s| {
            if let Some(s) = s {
                let csv = to_csv(&s.values, &s.row_labels, &s.col_labels);
                if let Err(e) = save_text(&format!("{stem}.csv"), "text/csv", &csv) {
                    leptos::logging::error!("{e}");
                }
            }
        })
    };
    let tr = move |m: ClassMsg| t(lang.get(), m);
    view! {
        <span class="heatmap__tools">
            {save_as.is_some().then(|| view! {
                <button type="button" class="button button--small" data-testid="export-png" on:click=save_image>{move || tr(ClassMsg::ExportPng)}</button>
                <button type="button" class="button button--small" data-testid="export-csv" on:click=save_csv>{move || tr(ClassMsg::ExportCsv)}</button>
            })}
            <button type="button" class="button button--small" data-testid=format!("{testid}-table-toggle") aria-pressed=move || table.get().to_string()
                aria-controls=move || table.get().then(|| table_id.get_value())
                on:click=move |_| table.update(|t| *t = !*t)>
                {move || tr(if table.get() { ClassMsg::HideNumbers } else { ClassMsg::ShowNumbers })}
            </button>
        </span>
    }
}

/// The matrix as a table with row and column headers: what a screen reader can read.
#[component]
pub fn ValuesTable(
    /// The matrix and its labels, one cell per table cell.
    spec: HeatmapSpec,
    /// Its caption (the heatmap's).
    caption: String,
    /// Its element id.
    id: String,
) -> impl IntoView {
    let header = spec.col_labels.iter().map(|c| view! { <th scope="col">{c.clone()}</th> }).collect_view();
    let rows = spec
        .values
        .rows()
        .into_iter()
        .enumerate()
        .map(|(r, row)| {
            let cells = row
                .iter()
                .enumerate()
                .map(|(c, v)| {
                    let masked = is_blocked(&spec, (r, c));
                    view! { <td>{if masked { "—".to_string() } else { show(*v, Room::Reading) }}</td> }
                })
                .collect_view();
            view! { <tr><th scope="row">{spec.row_labels.get(r).cloned().unwrap_or_default()}</th>{cells}</tr> }
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

fn is_blocked(s: &HeatmapSpec, cell: (usize, usize)) -> bool {
    s.blocked.as_ref().and_then(|b| b.get(cell).copied()).unwrap_or(false)
}

/// "[row, col] = value" from the spec itself; `masked` names a blocked cell.
pub fn value_text(s: &HeatmapSpec, (r, c): (usize, usize), masked: &str) -> String {
    let row = s.row_labels.get(r).map(String::as_str).unwrap_or("?");
    let col = s.col_labels.get(c).map(String::as_str).unwrap_or("?");
    let value = s.values.get((r, c)).copied().unwrap_or(0.0);
    let shown = if is_blocked(s, (r, c)) { masked.to_string() } else { show(value, Room::Reading) };
    format!("[{row}, {col}] = {shown}")
}
