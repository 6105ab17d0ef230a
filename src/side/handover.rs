//! The lesson's numbers as the page hands them over (`app::module_host::hand_over`): the shown
//! layer's outcome read back from its trace export (`trace_import`), and the head and query
//! the page has chosen, kept up to date while the module's view is open. The views that draw
//! the lesson's numbers read them here, so they show exactly the page's, for any model; a
//! query they pick goes to the page ([`pick_query`]), which owns it.

use crate::app::page::Shared;
use crate::bridge::{SHOWN_CHOICE, SHOWN_EVENT, SHOWN_TRACE};
use crate::core::model::Outcome;
use crate::trace_import::outcome_from_export;
use leptos::prelude::*;
use std::sync::Arc;

/// What the page handed over.
#[derive(Debug, Clone, Copy)]
pub struct Handed {
    pub outcome: Memo<Option<Shared<Outcome>>>,
    /// The page's head and query, 0-based.
    pub head: Memo<usize>,
    pub query: Memo<usize>,
}

/// The trace and "head,query" the page put on the window, if it put them.
fn read_window() -> (Option<String>, (usize, usize)) {
    let window = window();
    let text = |key: &str| js_sys::Reflect::get(&window, &key.into()).ok()?.as_string();
    let choice = text(SHOWN_CHOICE).and_then(|c| {
        let (h, q) = c.split_once(',')?;
        Some((h.parse().ok()?, q.parse().ok()?))
    });
    (text(SHOWN_TRACE), choice.unwrap_or_default())
}

/// Follow the page's hand-over while the calling component lives.
pub fn follow() -> Handed {
    let read = || {
        let (trace, choice) = read_window();
        (trace.as_deref().and_then(outcome_from_export).map(|o| Shared(Arc::new(o))), choice)
    };
    let (outcome, choice) = read();
    let (outcome, choice) = (RwSignal::new(outcome), RwSignal::new(choice));
    let arrived = window_event_listener_untyped(SHOWN_EVENT, move |_| {
        let (o, c) = read();
        outcome.set(o);
        choice.set(c);
    });
    on_cleanup(move || arrived.remove());
    Handed {
        outcome: Memo::new(move |_| outcome.get()),
        head: Memo::new(move |_| choice.get().0),
        query: Memo::new(move |_| choice.get().1),
    }
}

/// The handed-over numbers of the mounted view.
pub fn use_handed() -> Handed {
    expect_context::<Handed>()
}

/// Ask the page to choose query `i` (0-based; the link counts from 1): the page reads it,
/// checks it against the sentence, and hands over again.
pub fn pick_query(i: usize) {
    let link = crate::bridge::with_pairs(&super::search(), &[("q", &(i + 1).to_string())]);
    super::tell_page(&link, false);
}
