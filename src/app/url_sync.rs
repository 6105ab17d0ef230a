//! Keeps the URL and the settings in step: moving to another stage, view or presentation
//! mode adds a history entry (so Back goes back), other changes replace the current one (at
//! most every 100 ms while they keep coming, and within the browsers' limit on such writes);
//! Back/Forward restore the settings from the URL; values the URL got wrong are named in a
//! notice instead of breaking the page. The page is the only writer of the address bar: the
//! modules it starts (`bridge::Hosted`) are sent its link each time it changes and ask it to
//! go to another ([`Link::go`], `protocol::ToPage::Go`); their own keys (`settings::url::module_keys`)
//! are kept as they are.

use super::page::Page;
use super::ports::send_address;
use crate::i18n::Lang;
use crate::protocol::WRITE_NOW_EVENT;
use crate::settings::url::module_pairs;
use crate::settings::{Settings, Stage, View};
use leptos::{ev, prelude::*};
use wasm_bindgen::JsValue;

/// The parts of the settings that count as a place to go back to.
fn place(s: &Settings) -> (View, Stage, bool) {
    (s.view(), s.lesson().stage(), s.classroom().present())
}

/// The address bar's query ("?" first, or empty), as the page opened or last wrote it: read
/// here only, where it is written.
pub fn address() -> String {
    window().location().search().unwrap_or_default()
}

/// The settings read from the current URL with the models `page` has, and the keys whose
/// values were ignored.
pub fn from_location(page: Page, lang: Lang) -> (Settings, Vec<String>) {
    page.models.with_untracked(|models| Settings::from_query(&address(), lang, models))
}

/// The shortest time between two rewrites of the address bar while the settings keep changing
/// (a slider dragged, a sentence typed): the first change is written at once, the latest at
/// most this long after the write before. A rewrite costs the page's thread most of a
/// millisecond (0.8 ms of a 6 ms update at 32 tokens, Chromium's profiler), every step of a
/// drag.
const REWRITE_EVERY_MS: f64 = 100.0;

/// Browsers limit how often a page may write its address: WebKit (Safari, every iPad) refuses
/// `replaceState`/`pushState` after 100 calls in 30 s (newer builds: 10 s), Firefox after 200
/// in 10 s, Chromium ignores them after 200 in 10 s. A drag rewrites up to ten times a second,
/// so the page keeps its own writes to [`BUDGET_WRITES`] per [`BUDGET_MS`] (the rest of
/// WebKit's allowance is left to the modules' writes: a node picked in the graph, a view
/// opened), and a write the browser refused anyway is tried again ([`RETRY_MS`]) until the
/// address bar has the settings.
const BUDGET_WRITES: usize = 50;
const BUDGET_MS: f64 = 30_000.0;
const RETRY_MS: f64 = 1_000.0;

/// The page's writes in the last [`BUDGET_MS`], to stay within the browsers' limit.
#[derive(Clone, Debug, Default, PartialEq)]
struct Budget {
    /// When the page wrote (ms, the page's clock), oldest first; none older than `BUDGET_MS`.
    times: std::collections::VecDeque<f64>,
}

impl Budget {
    /// How long from `now` until a write fits in the budget (0: now).
    fn wait(&self, now: f64) -> f64 {
        let live = self.times.iter().filter(|t| now - **t < BUDGET_MS).count();
        match self.times.front() {
            Some(oldest) if live >= BUDGET_WRITES => (oldest + BUDGET_MS - now).max(0.0),
            _ => 0.0,
        }
    }

    /// A write made at `now`.
    fn spend(&mut self, now: f64) {
        self.times.retain(|t| now - *t < BUDGET_MS);
        self.times.push_back(now);
    }
}

/// What became of a write.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Wrote {
    /// Written.
    Yes,
    /// Nothing to write: the address bar has the settings.
    Nothing,
    /// Not written yet: over the budget, or refused by the browser; due in this many ms.
    Later(f64),
}

/// What writes the page's settings into the address bar, and whether a rewrite is due later.
#[derive(Clone, Copy)]
struct Writer {
    page: Page,
    /// The URL last written, and the address bar's query right after (the browser's own
    /// spelling of it); both empty before the first write.
    written: StoredValue<(String, String)>,
    /// Waiting for the next write to be due (`REWRITE_EVERY_MS` after the last, or longer
    /// while over the budget or refused).
    resting: StoredValue<bool>,
    /// A new place whose entry is not in the history yet (refused or over the budget).
    push_due: StoredValue<bool>,
    budget: StoredValue<Budget>,
    /// The modules' own pairs ("&"-joined, each with its leading "&"), as the link last had
    /// them (`settings::url::module_pairs`).
    modules: StoredValue<String>,
}

fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

impl Writer {
    /// The URL of the settings now, with the modules' own pairs.
    fn url(self) -> String {
        format!("?{}{}", self.page.settings.with_untracked(Settings::to_query), self.modules.get_value())
    }

    /// Write the settings now: as a new history entry when a new place is due, else in place
    /// of the current one unless the address bar already says the same. Within the budget
    /// unless `asked` (a module is about to read the address bar, the learner is leaving or
    /// copying the link): then the browser's limit is the only one.
    ///
    /// The address bar counts, not only what the page wrote last: a module may have written
    /// the same settings in another order since (a node picked in the graph puts `q` last), and
    /// the link must be the one a reload writes.
    ///
    /// While the address bar is behind the settings, the page's root element says so
    /// (`data-link-behind`): a reload then would find an older link.
    fn write(self, asked: bool) -> Wrote {
        let wrote = self.try_write(asked);
        if let Some(root) = document().document_element() {
            let _ = match wrote {
                Wrote::Later(_) => root.set_attribute("data-link-behind", ""),
                _ => root.remove_attribute("data-link-behind"),
            };
        }
        wrote
    }

    fn try_write(self, asked: bool) -> Wrote {
        let (push, url, now) = (self.push_due.get_value(), self.url(), now_ms());
        if !push && self.written.with_value(|(wrote, bar)| *wrote == url && *bar == address()) {
            return Wrote::Nothing;
        }
        let wait = self.budget.with_value(|b| b.wait(now));
        if wait > 0.0 && !asked {
            return Wrote::Later(wait);
        }
        let Ok(history) = window().history() else { return Wrote::Nothing };
        let before = address();
        let done = if push {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
        // Refused with an error (WebKit, Firefox), or ignored without one (Chromium).
        let bar = address();
        if done.is_err() || (bar == before && bar != url) {
            return Wrote::Later(RETRY_MS);
        }
        self.budget.update_value(|b| b.spend(now));
        self.push_due.set_value(false);
        self.written.set_value((url, bar));
        Wrote::Yes
    }

    /// A change: a new place (`push`) is written at once, other changes at once unless a
    /// write was just made, else when the next one is due.
    fn write_soon(self, push: bool) {
        if push {
            self.push_due.set_value(true);
        } else if self.resting.get_value() {
            return;
        }
        self.rest_after(self.write(false));
    }

    /// Whether the page that owns the writer is still there.
    fn alive(self) -> bool {
        self.budget.try_with_value(|_| ()).is_some() && !self.page.settings.is_disposed()
    }

    /// Written now, as asked; tried again later if the browser refused.
    fn write_now(self) {
        self.rest_after(self.write(true));
    }

    /// After a write (or none): wait until the next may be made, then write what changed
    /// meanwhile (and rest again if anything did or is still due).
    fn rest_after(self, wrote: Wrote) {
        let wait = match wrote {
            Wrote::Nothing => return,
            Wrote::Yes => REWRITE_EVERY_MS,
            Wrote::Later(ms) => ms.max(REWRITE_EVERY_MS),
        };
        if self.resting.get_value() {
            return;
        }
        self.resting.set_value(true);
        set_timeout(
            move || {
                // The page may be gone by now (a test's mount dropped).
                if !self.alive() {
                    return;
                }
                self.resting.set_value(false);
                self.rest_after(self.write(false));
            },
            std::time::Duration::from_millis(wait.ceil() as u64),
        );
    }
}

/// The page's link: what it writes into the address bar, and the way for a module (or a part of
/// the page that acts for one) to go to another.
#[derive(Clone, Copy)]
pub struct Link {
    writer: Writer,
    /// The place the settings were at the last change ([`place`]).
    last: StoredValue<(View, Stage, bool)>,
}

impl Link {
    /// The link now (a query, without "?").
    pub fn query(self) -> String {
        self.writer.url().trim_start_matches('?').to_string()
    }

    /// Send the link to the modules again (the language or theme changed, which a module that
    /// follows the settings reads from the document).
    pub fn tell_modules(self) {
        send_address(self.query());
    }

    /// Go to `query` (without "?"), as a module asked: its settings and the modules' pairs in
    /// it, written as the page's own changes are, as a new place in the history when
    /// `new_place`. `stored`: the
    /// module kept a model the link names in the browser's storage first (read again here).
    /// Values the settings refuse are left as they were, without a notice: the module wrote
    /// them.
    pub fn go(self, query: &str, new_place: bool, stored: bool) {
        let page = self.writer.page;
        if stored {
            super::model_loader::reread_stored(page);
        }
        let (settings, _) = page.models.with_untracked(|m| Settings::from_query(query, page.lang.get_untracked(), m));
        self.writer.modules.set_value(module_pairs(query));
        // Where it goes, so the effect below does not push it a second time.
        self.last.set_value(place(&settings));
        page.settings.set(settings);
        // Within the page's pace and budget, as its own changes: a module may ask at every key
        // typed. Until written, the page's root says its link is behind (the module said so).
        self.writer.write_soon(new_place);
        self.tell_modules();
    }
}

/// Mirror `page.settings` into the URL and back (after Back/Forward); `notice` receives the
/// ignored keys. Returns the page's [`Link`]. A rewrite that is due is done at once when asked (`protocol::WRITE_NOW_EVENT`) or
/// when the page is left or loses the focus (the learner may be copying the link).
pub fn sync_url(page: Page, notice: WriteSignal<Vec<String>>) -> Link {
    let last = StoredValue::new(page.settings.with_untracked(place));
    let writer = Writer {
        page,
        written: StoredValue::new(Default::default()),
        resting: StoredValue::new(false),
        push_due: StoredValue::new(false),
        budget: StoredValue::new(Budget::default()),
        modules: StoredValue::new(module_pairs(&address())),
    };
    let link = Link { writer, last };
    Effect::new(move |_| {
        let here = page.settings.with(place);
        let moved = last.get_value() != here;
        last.set_value(here);
        writer.write_soon(moved);
        // The modules get the link at once, even while the rewrite waits.
        link.tell_modules();
    });
    // Read the settings from the address bar; `notice` names what it got wrong.
    let read_again = move |notice: WriteSignal<Vec<String>>| {
        let (settings, ignored) = from_location(page, page.lang.get_untracked());
        writer.modules.set_value(module_pairs(&address()));
        // Record where we are first, so the effect above replaces instead of pushing (Back and
        // Forward move in the history; they add nothing to it).
        last.set_value(place(&settings));
        notice.set(ignored);
        page.settings.set(settings);
    };
    let listener = window_event_listener(ev::popstate, move |_| read_again(notice));
    let now = [WRITE_NOW_EVENT, "pagehide", "blur"]
        .map(|name| window_event_listener_untyped(name, move |_| writer.write_now()));
    on_cleanup(move || {
        listener.remove();
        now.into_iter().for_each(|l| l.remove());
    });
    link
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_lets_the_writes_of_a_long_drag_through_at_the_pace_the_browsers_allow() {
        let mut budget = Budget::default();
        // A drag: a write every 100 ms while the budget lasts.
        let mut now = 0.0;
        while budget.wait(now) == 0.0 {
            budget.spend(now);
            now += REWRITE_EVERY_MS;
        }
        assert_eq!(budget.times.len(), BUDGET_WRITES, "the budget's writes, at once");
        // The next waits until the first of them is 30 s old.
        assert_eq!(now + budget.wait(now), BUDGET_MS);
        // Over a minute of dragging the page writes at most its budget in any 30 s, well
        // within WebKit's 100 (what it leaves is the modules').
        let mut written = budget.times.iter().copied().collect::<Vec<_>>();
        while now < 60_000.0 {
            now += budget.wait(now).max(REWRITE_EVERY_MS);
            budget.spend(now);
            written.push(now);
        }
        for (i, start) in written.iter().enumerate() {
            let within = written[i..].iter().take_while(|t| **t - start < BUDGET_MS).count();
            assert!(within <= BUDGET_WRITES, "{within} writes in 30 s from {start} ms");
        }
        // After a pause the budget is whole again.
        assert_eq!(budget.wait(now + BUDGET_MS), 0.0);
    }
}
