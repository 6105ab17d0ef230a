//! The controls: the settings panel (sentences, model sizes, seed and switches; the head
//! picker the stages and the side lessons share is `ui::HeadPicker`). Each control validates
//! its own input and shows its error beside itself; only valid values reach the settings.

mod model;
mod scaling_badge;
mod sentence;
mod switches;
mod toggle;
mod token_options;
mod weights;

use super::page::use_page;
use crate::i18n::Msg;
use leptos::prelude::*;
pub use scaling_badge::ScalingBadge;
use sentence::SentenceBox;
pub use sentence::Which;
pub use token_options::TokenOptions;

/// A control's one-line explanation, shown while the control just before it is hovered or
/// has the focus (see `.control-hint` in the stylesheet).
#[component]
fn Hint(
    /// The explanation.
    msg: Msg,
) -> impl IntoView {
    let page = use_page();
    view! { <p class="control-hint">{page.text(msg)}</p> }
}

/// Every control of the lesson, in one panel. Where the page is one column (a phone), the
/// panel is folded behind a button so that the stage comes first; the fold is this panel's
/// own state, closed on every visit.
#[component]
pub fn Controls() -> impl IntoView {
    let page = use_page();
    let cross = page.pick(|s| s.lesson().cross());
    // What the model offers: a second sentence, and sizes to set (seeded weights).
    let takes_two = Memo::new(move |_| page.model.with(|m| m.0.shape().cross));
    let seeded = Memo::new(move |_| page.model.with(|m| m.0.shape().settable_sizes()));
    let (open, set_open) = signal(false);
    view! {
        <aside class="controls" class:controls--open=open aria-labelledby="controls-title">
            <button type="button" class="button controls__toggle" data-testid="settings-toggle"
                aria-expanded=move || open.get().to_string() aria-controls="controls-body"
                on:click=move |_| set_open.update(|o| *o = !*o)>
                {page.text(Msg::ControlsTitle)} <span aria-hidden="true">{move || if open.get() { " ▴" } else { " ▾" }}</span>
            </button>
            <h2 id="controls-title" class="controls__title">{page.text(Msg::ControlsTitle)}</h2>
            <div id="controls-body" class="controls__body">
                <SentenceBox which=Which::Query />
                <Show when=move || cross.get() && takes_two.get()>
                    <SentenceBox which=Which::KeyValue />
                </Show>
                <weights::WeightsControls />
                <Show when=move || seeded.get()>
                    <model::ModelControls />
                </Show>
                <switches::Switches />
            </div>
        </aside>
    }
}
