//! The side lessons, their own module (the `side` binary, its own .wasm, started by the page
//! when one of them first opens: `bridge::Hosted::Side`): those that read only the lesson's
//! settings, the variance of q·k ([`variance`]), positional encoding ([`position`]), the
//! Transformer block ([`block`]), and RNN and CNN against attention ([`rnn_cnn`]); and those
//! that draw the lesson's numbers, which the page hands over ([`handover`]): attention as a
//! graph ([`graph`]), outputs inside the values' hull ([`convex`]), the cost of attention with
//! FlashAttention and linear attention ([`complexity`]); and "Predict first" ([`predict`]).
//! Keeping them out of the page's .wasm keeps the first heatmap fast.
//!
//! The module reads the lesson as the page's views do (`ui::LessonState`, built from the page's
//! link), so the views use the components the page's views use (`ui`). It computes no forward
//! pass: its outcome is the one the page handed over, and the heads and layers to choose from
//! are that outcome's. The page stays the owner of the settings: it sends its link each time
//! they change (also when its language or theme changes, `protocol::ToModule::Address`), and
//! the module reads them again, so the views follow without being mounted again and keep what
//! the learner set in them. A change the learner
//! makes here ([`SIDE_KEYS`], or the block's way back to the lesson, a new place) goes
//! to the page as a link to go to (`protocol::ToPage::Go`).

mod block;
mod choices;
mod complexity;
mod convex;
mod graph;
pub mod handover;
mod position;
mod predict;
mod rnn_cnn;
mod variance;

use crate::bridge::{read_pairs, with_pairs, Hosted, PREDICT_VIEW};
use crate::core::model::Outcome;
use crate::hosted::{address, address_tracked, go, host, page_lang_and_ink, shown};
use crate::i18n::Lang;
use crate::models::{Catalog, Models};
use crate::settings::url::SIDE_KEYS;
use crate::settings::{Settings, Stage, View};
use crate::shared::Shared;
use crate::ui::LessonState;
use block::BlockView;
use leptos::prelude::*;
use position::PositionView;
use rnn_cnn::RnnCnnView;
use variance::VarianceView;

/// Start the module: mount the open view, and again whenever the page opens another.
pub fn start() {
    crate::report_memory("side");
    host(Hosted::Side, || view! { <SideViews /> }.into_any());
}

/// The settings the page's link names, with the language the page shows.
fn from_link(query: &str, lang: Lang) -> Settings {
    Settings::from_query(query, lang, &Models::default()).0
}

/// `query`'s pairs of `keys`, in key order (a module's write moves them to the end).
fn sorted_pairs(query: &str, keys: &[&str]) -> Vec<(String, Option<String>)> {
    let mut pairs = read_pairs(query, keys);
    pairs.sort();
    pairs
}

/// The side keys' values as `settings` would write them.
fn side_values(settings: &Settings) -> Vec<(String, Option<String>)> {
    sorted_pairs(&settings.to_query(), &SIDE_KEYS)
}

/// `query` with `values` set.
fn with_values(query: &str, values: &[(String, Option<String>)]) -> String {
    let set: Vec<(&str, &str)> = values.iter().filter_map(|(k, v)| Some((k.as_str(), v.as_deref()?))).collect();
    with_pairs(query, &set)
}

/// The lesson of `initial` settings, showing the outcome the page `handed` over; before the
/// first hand-over, the heads and layers of the model the settings name (as far as a module
/// knows it: the page checks every choice again).
fn state_of(initial: Settings, handed: Memo<Option<Shared<Outcome>>>) -> LessonState {
    let settings = RwSignal::new(initial);
    let models = RwSignal::new(Models::default());
    let named = Memo::new(move |_| settings.with(|s| *s.choice()));
    let shape = Memo::new(move |_| match handed.with(|o| o.as_ref().map(|o| o.0.shape().clone())) {
        Some(shape) => shape,
        None => models.with(|m| m.model(&named.get()).shape().clone()),
    });
    LessonState::new(settings, models, handed, shape)
}

/// The open side lesson, on the lesson's state kept in step with the page's link.
#[component]
pub fn SideViews() -> impl IntoView {
    let (lang, ink) = page_lang_and_ink();
    let handed = handover::follow();
    provide_context(handed);
    let page = state_of(from_link(&address(), lang), handed.outcome);
    page.ink.set(ink);
    provide_context(page);
    // The page sent its link (its settings changed, or its language or theme): read them again
    // while the view is open; only a change notifies the views.
    Effect::new(move |_| {
        let query = address_tracked();
        if !shown(Hosted::Side) {
            return;
        }
        let (lang, ink) = page_lang_and_ink();
        let now = from_link(&query, lang);
        if page.settings.with_untracked(|s| *s != now) {
            page.settings.set(now);
        }
        if page.ink.get_untracked() != ink {
            page.ink.set(ink);
        }
    });
    // A change made here: to the page, as a link to go to.
    Effect::new(move |_| {
        let (ours, view) = page.settings.with(|s| (side_values(s), s.view()));
        let query = address();
        if read_pairs(&query, &["view"]).iter().any(|(_, v)| v.as_deref() != Some(view.slug())) {
            go(&with_pairs(&query, &[("view", view.slug())]), true, false);
        } else if sorted_pairs(&query, &SIDE_KEYS) != ours {
            go(&with_values(&query, &ours), false, false);
        }
    });
    // The view the page's element for it says (the address bar may not have caught up).
    let root = document().get_element_by_id(Hosted::Side.root());
    let attr = |name: &str| root.as_ref().and_then(|r| r.get_attribute(name));
    // Or the stage's question ("Predict first"), in the lesson.
    if attr("data-view").as_deref() == Some(PREDICT_VIEW) {
        let stage = attr("data-stage").and_then(|s| Stage::from_slug(&s)).unwrap_or_default();
        return view! { <predict::PredictPanel stage=stage /> }.into_any();
    }
    let named = attr("data-view").and_then(|v| View::from_slug(&v));
    match named.unwrap_or_else(|| page.settings.with_untracked(|s| s.view())) {
        View::Position => view! { <PositionView /> }.into_any(),
        View::Block => view! { <BlockView /> }.into_any(),
        View::RnnCnn => view! { <RnnCnnView /> }.into_any(),
        View::Graph => view! { <graph::GraphView /> }.into_any(),
        View::Convex => view! { <convex::ConvexView /> }.into_any(),
        View::ScalingChoices => view! { <choices::ChoicesView /> }.into_any(),
        View::Complexity => view! { <complexity::ComplexityView /> }.into_any(),
        _ => view! { <VarianceView /> }.into_any(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh() -> Settings {
        Settings::from_query("", Lang::En, &Models::default()).0
    }

    #[test]
    fn the_side_keys_are_the_lesson_s_and_written_by_its_settings() {
        let mut s = fresh();
        assert!(s.variance_mut().set_dk(8.0) && s.variance_mut().set_samples(10_000));
        let values = side_values(&s);
        // The head and layer are not written while they are the model's own.
        let expected = [("cn", "10"), ("tile", "4"), ("vdk", "8"), ("vn", "10000")];
        assert_eq!(values, expected.map(|(k, v)| (k.to_string(), Some(v.to_string()))));
        // Read back by the page from the address bar the module wrote.
        let query = with_values(&fresh().to_query(), &values);
        let back = Settings::from_query(&query, Lang::En, &Models::default()).0;
        assert_eq!(back, s);
        assert_eq!(sorted_pairs(&query, &SIDE_KEYS), values, "what the module compares with is what it wrote");
        assert_eq!(crate::settings::url::module_pairs(&query), "", "the page keeps none of them as a module's");
    }
}
