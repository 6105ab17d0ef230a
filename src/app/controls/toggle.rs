//! A checkbox bound to one boolean of the settings.

use crate::app::state::use_lab;
use crate::i18n::Msg;
use crate::settings::Settings;
use leptos::prelude::*;

/// A labelled checkbox that reads and writes one switch of the settings.
#[component]
pub fn Toggle(
    /// `data-testid` of the checkbox.
    testid: &'static str,
    /// Its label.
    label: Msg,
    /// Reads the switch.
    get: fn(&Settings) -> bool,
    /// Writes the switch.
    set: fn(&mut Settings, bool),
) -> impl IntoView {
    let lab = use_lab();
    let checked = lab.pick(get);
    view! {
        <label class="switch">
            <input type="checkbox" data-testid=testid prop:checked=checked
                on:change=move |ev| lab.settings.update(|s| set(s, event_target_checked(&ev))) />
            {lab.text(label)}
        </label>
    }
}
