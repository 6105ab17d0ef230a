//! A checkbox bound to one boolean of the settings.

use crate::app::page::use_page;
use crate::i18n::Msg;
use crate::settings::{Catalog, Settings};
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
    /// Writes the switch (through its setter, which may ask the catalogue for the model).
    set: fn(&mut Settings, bool, &dyn Catalog),
) -> impl IntoView {
    let page = use_page();
    let checked = page.pick(get);
    view! {
        <label class="switch">
            <input type="checkbox" data-testid=testid prop:checked=checked
                on:change=move |ev| { page.apply(|s, c| { set(s, event_target_checked(&ev), c); true }); } />
            {page.text(label)}
        </label>
    }
}
