//! Keeps the URL and the settings in step: moving to another stage, view or presentation
//! mode adds a history entry (so Back goes back), other changes replace the current one;
//! Back/Forward restore the settings from the URL; values the URL got wrong are named in a
//! notice instead of breaking the page. The keys of the modules the page starts
//! (`bridge::Hosted::keys`) are kept as they are; a module that shows the settings is told
//! each time they are written (`bridge::SETTINGS_EVENT`), and one that changes some of them
//! says so (`bridge::CHANGED_EVENT`).

use super::page::Page;
use crate::bridge::{module_pairs, CHANGED_EVENT, SETTINGS_EVENT};
use crate::i18n::Lang;
use crate::settings::{Settings, Stage, View};
use leptos::{ev, prelude::*};
use wasm_bindgen::JsValue;

/// The parts of the settings that count as a place to go back to.
fn place(s: &Settings) -> (View, Stage, bool) {
    (s.view(), s.lesson().stage(), s.classroom().present())
}

fn search() -> String {
    window().location().search().unwrap_or_default()
}

/// The settings read from the current URL with the models `page` has, and the keys whose
/// values were ignored.
pub fn from_location(page: Page, lang: Lang) -> (Settings, Vec<String>) {
    page.models.with_untracked(|models| Settings::from_query(&search(), lang, models))
}

/// Mirror `page.settings` into the URL and back; `notice` receives the ignored keys. Returns
/// what re-reads the settings from the URL as it is now (after Back/Forward, or when another
/// module put a link there).
pub fn sync_url(page: Page, notice: WriteSignal<Vec<String>>) -> Callback<()> {
    let last = StoredValue::new(page.settings.with_untracked(place));
    Effect::new(move |_| {
        let (query, here) = page.settings.with(|s| (s.to_query(), place(s)));
        let Ok(history) = window().history() else { return };
        let url = format!("?{query}{}", module_pairs(&search()));
        let moved = last.get_value() != here;
        last.set_value(here);
        let _ = if moved {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
        // A module showing the settings reads them again.
        if let Ok(event) = web_sys::Event::new(SETTINGS_EVENT) {
            let _ = window().dispatch_event(&event);
        }
    });
    // Read the settings from the address bar; `Some(notice)` names what it got wrong.
    let read_again = move |notice: Option<WriteSignal<Vec<String>>>| {
        let (settings, ignored) = from_location(page, page.lang.get_untracked());
        // Record where we are first, so the effect above replaces instead of pushing (a
        // module that pushed a new place has put it in the history already).
        last.set_value(place(&settings));
        if let Some(notice) = notice {
            notice.set(ignored);
        }
        page.settings.set(settings);
    };
    let reread = Callback::new(move |()| read_again(Some(notice)));
    let listener = window_event_listener(ev::popstate, move |_| reread.run(()));
    // A module changed some of the settings' keys in the address bar (`bridge::SIDE_KEYS`):
    // values it wrote itself, so the notice about the link stays as it is.
    let changed = window_event_listener_untyped(CHANGED_EVENT, move |_| read_again(None));
    on_cleanup(move || {
        listener.remove();
        changed.remove();
    });
    reread
}
