//! Keeps the URL and the settings in step: moving to another stage, view or presentation
//! mode adds a history entry (so Back goes back), other changes replace the current one;
//! Back/Forward restore the settings from the URL; values the URL got wrong are named in a
//! notice instead of breaking the page.

use super::page::Page;
use crate::learn::query::is_ours;
use crate::settings::{Settings, Stage, View};
use leptos::{ev, prelude::*};
use wasm_bindgen::JsValue;

/// The parts of the settings that count as a place to go back to.
fn place(s: &Settings) -> (View, Stage, bool) {
    (s.view, s.stage, s.present)
}

/// The settings read from the current URL, and the keys whose values were ignored.
pub fn from_location(lang: crate::i18n::Lang) -> (Settings, Vec<String>) {
    let search = window().location().search().unwrap_or_default();
    Settings::from_query(&search, lang)
}

/// The training view's pairs of the current query (its module writes them), kept as they are
/// when the settings rewrite the URL.
fn foreign_pairs() -> String {
    let search = window().location().search().unwrap_or_default();
    search.trim_start_matches('?').split('&').filter(|p| is_ours(p)).map(|p| format!("&{p}")).collect()
}

/// Mirror `page.settings` into the URL and back; `notice` receives the ignored keys.
pub fn sync_url(page: Page, notice: WriteSignal<Vec<String>>) {
    let last = StoredValue::new(page.settings.with_untracked(place));
    Effect::new(move |_| {
        let (query, here) = page.settings.with(|s| (s.to_query(), place(s)));
        let Ok(history) = window().history() else { return };
        let url = format!("?{query}{}", foreign_pairs());
        let moved = last.get_value() != here;
        last.set_value(here);
        let _ = if moved {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
    });
    let listener = window_event_listener(ev::popstate, move |_| {
        let (settings, ignored) = from_location(page.lang.get_untracked());
        // Record where we are first, so the effect above replaces instead of pushing.
        last.set_value(place(&settings));
        notice.set(ignored);
        page.settings.set(settings);
    });
    on_cleanup(move || listener.remove());
}
