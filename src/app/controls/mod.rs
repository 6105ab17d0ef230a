//! The settings panel: sentences, model sizes, seed and switches. Each control validates its
//! own input and shows its error beside itself; only valid values reach the settings.

mod model;
mod sentence;
mod switches;
mod toggle;
mod token_options;
mod weights;

use super::page::use_page;
use crate::core::scenario::Source;
use crate::i18n::Msg;
use leptos::prelude::*;
use sentence::SentenceBox;
pub use sentence::Which;
pub use toggle::Toggle;
pub use token_options::TokenOptions;
pub use weights::ModelStatus;

/// Every control of the lesson, in one panel.
#[component]
pub fn Controls() -> impl IntoView {
    let page = use_page();
    let cross = page.pick(|s| s.cross);
    let random = page.pick(|s| s.source == Source::Random);
    view! {
        <aside class="controls" aria-labelledby="controls-title">
            <h2 id="controls-title" class="controls__title">{page.text(Msg::ControlsTitle)}</h2>
            <SentenceBox which=Which::Query />
            <Show when=move || cross.get() && random.get()>
                <SentenceBox which=Which::KeyValue />
            </Show>
            <weights::WeightsControls />
            <Show when=move || random.get()>
                <model::ModelControls />
            </Show>
            <switches::Switches />
        </aside>
    }
}
