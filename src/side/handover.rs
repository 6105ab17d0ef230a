//! The lesson's numbers as the page hands them over (`protocol::ToModule::Shown`): the shown
//! layer's outcome, exactly as the page computed it, and the head and query
//! the page has chosen, kept up to date while the module's view is open. The views that draw
//! the lesson's numbers read them here, so they show exactly the page's, for any model; a
//! query they pick goes to the page ([`pick_query`]), which owns it.

use crate::core::model::Outcome;
use crate::protocol::ShownLayer;
use crate::shared::Shared;
use leptos::prelude::*;
use std::sync::Arc;

/// What the page handed over.
#[derive(Debug, Clone, Copy)]
pub struct Handed {
    pub outcome: Memo<Option<Shared<Outcome>>>,
    /// Which layer of the page's model it is, 0-based.
    pub layer: Memo<usize>,
    /// The page's head and query, 0-based.
    pub head: Memo<usize>,
    pub query: Memo<usize>,
}

/// Follow the page's hand-over while the calling component lives.
pub fn follow() -> Handed {
    let handed = Memo::new(move |_| crate::hosted::shown_tracked());
    // Read once per hand-over (a new head or query comes with the same layer, read again).
    let layer = Memo::new(move |_| handed.with(|h| h.as_ref().map(|h| h.layer.clone())));
    Handed {
        outcome: Memo::new(move |_| layer.with(|l| l.as_ref().and_then(read).map(Shared))),
        layer: Memo::new(move |_| handed.with(|h| h.as_ref().map_or(0, |h| h.number))),
        head: Memo::new(move |_| handed.with(|h| h.as_ref().map_or(0, |h| h.head))),
        query: Memo::new(move |_| handed.with(|h| h.as_ref().map_or(0, |h| h.query))),
    }
}

/// The outcome of the handed-over layer; said in the console if it does not read.
fn read(layer: &ShownLayer) -> Option<Arc<Outcome>> {
    layer.outcome().map_err(|why| leptos::logging::error!("the numbers the page handed over: {why}")).ok()
}

/// The handed-over numbers of the mounted view.
pub fn use_handed() -> Handed {
    expect_context::<Handed>()
}

/// Ask the page to choose query `i` (0-based; the link counts from 1): the page reads it,
/// checks it against the sentence, and hands over again.
pub fn pick_query(i: usize) {
    let link = crate::bridge::with_pairs(&crate::hosted::address(), &[("q", &(i + 1).to_string())]);
    crate::hosted::go(&link, false, false);
}
