//! How much of a projector's screen each heatmap of a stage or view may take: the stage lays
//! out the screen, so it answers each map's question from its own layout. A map gets an equal
//! share of the height below its top with the maps stacked under it in the same column, less
//! its caption and the lines that go with it (a readout under it). Asked before every draw
//! (the maps above are drawn first, so their new heights count); a window resize redraws.

use crate::ui::LessonState;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// The callback a page's heatmap asks with its figure: the height its grid and labels may
/// take in presentation mode, `None` elsewhere (and for a map that continues the slide).
pub fn projector_room(page: LessonState) -> Callback<HtmlElement, Option<f64>> {
    Callback::new(move |figure: HtmlElement| {
        if !page.present.get() || figure.has_attribute("data-next-screen") {
            return None;
        }
        let top = figure.get_bounding_client_rect().top() + window().scroll_y().unwrap_or(0.0);
        let caption = figure.first_element_child().map_or(45.0, |c| c.get_bounding_client_rect().height());
        let share = 1.0 / (1 + maps_below(&figure)) as f64;
        let height = window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(1080.0);
        Some((height - top) * share - caption - text_after(&figure))
    })
}

/// How many heatmaps of the same stage or view stand below `figure`, in its column.
fn maps_below(figure: &HtmlElement) -> usize {
    let Some(scope) = figure.closest(".stage__figures, .view").ok().flatten() else { return 0 };
    let Ok(maps) = scope.query_selector_all("figure.heatmap:not([data-next-screen])") else { return 0 };
    let me = figure.get_bounding_client_rect();
    (0..maps.length())
        .filter_map(|i| maps.item(i).and_then(|n| n.dyn_into::<Element>().ok()))
        .map(|m| m.get_bounding_client_rect())
        .filter(|r| r.top() > me.bottom() - 1.0 && r.left() < me.right() && r.right() > me.left())
        .count()
}

/// The height of what follows `figure` in its own box, other than maps (a readout under it).
fn text_after(figure: &HtmlElement) -> f64 {
    std::iter::successors(figure.next_element_sibling(), |e| e.next_element_sibling())
        .filter(|e| !e.class_list().contains("heatmap"))
        .map(|e| e.get_bounding_client_rect().height())
        .sum()
}
