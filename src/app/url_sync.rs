//! Keeps the URL and the settings in step: moving to another stage, view or presentation
//! mode adds a history entry (so Back goes back), other changes replace the current one (at
//! most every 100 ms while they keep coming);
//! Back/Forward restore the settings from the URL; values the URL got wrong are named in a
//! notice instead of breaking the page. The keys of the modules the page starts
//! (`bridge::Hosted::keys`) are kept as they are; a module that shows the settings is told
//! each time they change (`bridge::SETTINGS_EVENT`), and one that changes some of them
//! says so (`bridge::CHANGED_EVENT`).

use super::page::Page;
use crate::bridge::{module_pairs, CHANGED_EVENT, SETTINGS_EVENT, WRITE_NOW_EVENT};
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

/// The shortest time between two rewrites of the address bar while the settings keep changing
/// (a slider dragged, a sentence typed): the first change is written at once, the latest at
/// most this long after the write before. A rewrite costs the page's thread most of a
/// millisecond (0.8 ms of a 6 ms update at 32 tokens, Chromium's profiler), every step of a
/// drag.
const REWRITE_EVERY_MS: u64 = 100;

/// What writes the page's settings into the address bar, and whether a rewrite is due later.
#[derive(Clone, Copy)]
struct Writer {
    page: Page,
    /// The URL last written, and the address bar's query right after (the browser's own
    /// spelling of it); both empty before the first write.
    written: StoredValue<(String, String)>,
    /// Waiting for the end of `REWRITE_EVERY_MS` since the last write.
    resting: StoredValue<bool>,
}

impl Writer {
    /// The URL of the settings now, with the modules' own pairs as the address bar has them.
    fn url(self) -> String {
        format!("?{}{}", self.page.settings.with_untracked(Settings::to_query), module_pairs(&search()))
    }

    /// Write the settings now: as a new history entry (`push`), or in place of the current
    /// one unless the address bar already says the same. Returns whether it wrote.
    ///
    /// The address bar counts, not only what the page wrote last: a module may have written
    /// the same settings in another order since (a node picked in the graph puts `q` last), and
    /// the link must be the one a reload writes.
    fn write(self, push: bool) -> bool {
        let url = self.url();
        if !push && self.written.with_value(|(wrote, bar)| *wrote == url && *bar == search()) {
            return false;
        }
        let Ok(history) = window().history() else { return false };
        let _ = if push {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
        self.written.set_value((url, search()));
        true
    }

    /// A change that is not a new place: written now unless a write was just made, else at the
    /// end of the rest.
    fn write_soon(self) {
        if self.resting.get_value() || !self.write(false) {
            return;
        }
        self.rest();
    }

    /// Wait `REWRITE_EVERY_MS`, then write what changed meanwhile (and rest again if anything did).
    fn rest(self) {
        self.resting.set_value(true);
        set_timeout(
            move || {
                self.resting.set_value(false);
                if self.write(false) {
                    self.rest();
                }
            },
            std::time::Duration::from_millis(REWRITE_EVERY_MS),
        );
    }
}

/// Mirror `page.settings` into the URL and back; `notice` receives the ignored keys. Returns
/// what re-reads the settings from the URL as it is now (after Back/Forward, or when another
/// module put a link there). A rewrite that is due is done at once when a module is about to
/// read the address bar (`bridge::WRITE_NOW_EVENT`) or the page is left or loses the focus (the
/// learner may be copying the link).
pub fn sync_url(page: Page, notice: WriteSignal<Vec<String>>) -> Callback<()> {
    let last = StoredValue::new(page.settings.with_untracked(place));
    let writer = Writer { page, written: StoredValue::new(Default::default()), resting: StoredValue::new(false) };
    Effect::new(move |_| {
        let here = page.settings.with(place);
        let moved = last.get_value() != here;
        last.set_value(here);
        if moved {
            writer.write(true);
        } else {
            writer.write_soon();
        }
        // A module showing the settings reads them again, even while the rewrite waits: it
        // reads through `hosted::address_bar`, which has it written first.
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
    let now = [WRITE_NOW_EVENT, "pagehide", "blur"].map(|name| {
        window_event_listener_untyped(name, move |_| {
            writer.write(false);
        })
    });
    on_cleanup(move || {
        listener.remove();
        changed.remove();
        now.into_iter().for_each(|l| l.remove());
    });
    reread
}
