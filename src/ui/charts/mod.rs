//! The page's figures: `crate::figures`' components given the page's ink, language and file
//! names (and, inside a lesson stage, the spotlight and the projector screen's room).

mod bars;
mod curves;
mod room;

pub use bars::{BarChart, Bars};
pub use curves::CurveChart;
pub use room::projector_room;

use crate::chart::heatmap::HeatmapSpec;
use crate::figures::Heatmap;
use crate::ui::use_lesson_state;
use leptos::prelude::*;

/// Provided by a lesson stage: heatmaps inside it outline the spotlighted token.
#[derive(Debug, Clone, Copy)]
pub struct SpotlightScope;

/// A heatmap of the page: its colours, language, file name and projector room are the page's.
#[component]
pub fn PageMap(
    /// The data to draw; `None` clears the canvas.
    #[prop(into)]
    spec: Signal<Option<HeatmapSpec>>,
    /// The matrix's name; the caption adds its shape.
    #[prop(into)]
    name: Signal<String>,
    /// `data-testid` of the figure; without "heatmap-", also what a saved file is called after.
    testid: &'static str,
    /// What a saved file is called after, when the test id is not specific enough (the heads
    /// of the multi-head stage share one).
    #[prop(optional, into)]
    file: Option<String>,
    /// Text for the cell (row, col) under the pointer.
    #[prop(optional, into)]
    detail: Option<Callback<(usize, usize), String>>,
    /// Called with (row, col) when a cell is clicked or tapped.
    #[prop(optional, into)]
    on_pick: Option<Callback<(usize, usize)>>,
    /// The map continues the slide below a projector's screen.
    #[prop(optional)]
    next_screen: bool,
    /// The map shares its colour scale with the maps beside it.
    #[prop(optional)]
    shared_scale: bool,
) -> impl IntoView {
    let page = use_lesson_state();
    let in_stage = use_context::<SpotlightScope>().is_some();
    let spot = Memo::new(move |_| if in_stage { page.settings.with(|s| s.lesson().spot()) } else { None });
    let what = StoredValue::new(file.unwrap_or_else(|| testid.trim_start_matches("heatmap-").to_string()));
    let save_as = Callback::new(move |()| what.with_value(|w| page.file_stem(w)));
    view! {
        <Heatmap spec=spec name=name testid=testid ink=page.ink lang=page.lang room=Some(projector_room(page))
            highlight=Signal::derive(move || (spot.get(), spot.get())) detail=detail on_pick=on_pick save_as=Some(save_as)
            next_screen=next_screen shared_scale=shared_scale />
    }
}
