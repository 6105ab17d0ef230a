//! The settings panel: sentences, model sizes, seed and switches. Each control validates its
//! own input and shows its error beside itself; only valid values reach the settings.

mod model;
mod sentence;
mod switches;
mod toggle;
mod token_options;

use super::page::use_page;
use crate::i18n::Msg;
use leptos::prelude::*;
use sentence::SentenceBox;
pub use sentence::Which;
pub use toggle::Toggle;
pub use token_options::TokenOptions;

/// Every control of the lesson, in one panel.
#[component]
pub fn Controls() -> impl IntoView {
    let page = use_page();
    let cross = page.pick(|s| s.cross);
    view! {
        <aside class="controls" aria-labelledby="controls-title">
            <h2 id="controls-title" class="controls__title">{page.text(Msg::ControlsTitle)}</h2>
            <SentenceBox which=Which::Query />
            <Show when=move || cross.get()>
                <SentenceBox which=Which::KeyValue />
            </Show>
            <model::ModelControls />
            <switches::Switches />
        </aside>
    }
}
