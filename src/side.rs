//! The side lessons that read only the lesson's settings, their own module (the `side` binary,
//! its own .wasm, started by the page when one of them first opens: `bridge::Hosted::Side`):
//! the variance of q·k, positional encoding, the Transformer block, and RNN and CNN against
//! attention. Keeping them out of the page's .wasm keeps the first heatmap fast.
//!
//! The module keeps a mirror of the page's state (`app::page::Page`, built from the address
//! bar; it never computes a forward pass), so the views are the same components the page would
//! mount. The page stays the owner of the settings: it writes them into the address bar and
//! fires `bridge::SETTINGS_EVENT`, and the mirror reads them again; a change the learner makes
//! here ([`bridge::SIDE_KEYS`]) goes into the address bar and `bridge::CHANGED_EVENT` asks the
//! page to read it.

use crate::app::page::Page;
use crate::app::views::{BlockView, PositionView, RnnCnnView, VarianceView};
use crate::bridge::{read_pairs, with_pairs, Hosted, CHANGED_EVENT, SETTINGS_EVENT, SIDE_KEYS};
use crate::hosted::{host, open_link, page_lang_and_ink, replace_query};
use crate::models::Models;
use crate::settings::{Settings, View};
use leptos::prelude::*;

/// Start the module: mount the open view, and again whenever the page asks.
pub fn start() {
    host(Hosted::Side, || view! { <SideViews /> }.into_any());
}

fn search() -> String {
    window().location().search().unwrap_or_default()
}

/// The settings as the address bar has them now.
fn from_address_bar(page_lang: crate::i18n::Lang) -> Settings {
    Settings::from_query(&search(), page_lang, &Models::default()).0
}

/// The side keys' values as `settings` would write them.
fn side_values(settings: &Settings) -> Vec<(String, Option<String>)> {
    read_pairs(&settings.to_query(), &SIDE_KEYS)
}

/// The open side lesson, on a mirror of the page's settings kept in step with the address bar.
#[component]
pub fn SideViews() -> impl IntoView {
    let (lang, ink) = page_lang_and_ink();
    let page = Page::new(from_address_bar(lang));
    page.ink.set(ink);
    provide_context(page);
    // The page wrote its settings: read them again (only a change notifies the views).
    let reread = window_event_listener_untyped(SETTINGS_EVENT, move |_| {
        let now = from_address_bar(lang);
        if page.settings.with_untracked(|s| *s != now) {
            page.settings.set(now);
        }
    });
    on_cleanup(move || reread.remove());
    // A change made here: its keys into the address bar, and the page told; another view
    // (the block's way back to the lesson) is a new place, a link the page opens.
    Effect::new(move |_| {
        let (ours, view) = page.settings.with(|s| (side_values(s), s.view()));
        let query = search();
        if read_pairs(&query, &["view"]).iter().any(|(_, v)| v.as_deref() != Some(view.slug())) {
            open_link(&with_pairs(&query, &[("view", view.slug())]));
            return;
        }
        if read_pairs(&query, &SIDE_KEYS) == ours {
            return;
        }
        let set: Vec<(&str, &str)> = ours.iter().filter_map(|(k, v)| Some((k.as_str(), v.as_deref()?))).collect();
        replace_query(&with_pairs(&query, &set));
        if let Ok(event) = web_sys::Event::new(CHANGED_EVENT) {
            let _ = window().dispatch_event(&event);
        }
    });
    // The view the page's element for it says (the address bar may not have caught up).
    let root = document().get_element_by_id(Hosted::Side.root());
    let named = root.and_then(|r| r.get_attribute("data-view")).and_then(|v| View::from_slug(&v));
    match named.unwrap_or_else(|| page.settings.with_untracked(|s| s.view())) {
        View::Position => view! { <PositionView /> }.into_any(),
        View::Block => view! { <BlockView /> }.into_any(),
        View::RnnCnn => view! { <RnnCnnView /> }.into_any(),
        _ => view! { <VarianceView /> }.into_any(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh() -> Settings {
        Settings::from_query("", crate::i18n::Lang::En, &Models::default()).0
    }

    #[test]
    fn the_side_keys_are_the_lesson_s_and_written_by_its_settings() {
        let mut s = fresh();
        assert!(s.variance_mut().set_dk(8.0) && s.variance_mut().set_samples(10_000));
        let values = side_values(&s);
        assert_eq!(values, [("vdk".into(), Some("8".into())), ("vn".into(), Some("10000".into()))]);
        // Read back by the page from the address bar the module wrote.
        let set: Vec<(&str, &str)> = values.iter().filter_map(|(k, v)| Some((k.as_str(), v.as_deref()?))).collect();
        let query = with_pairs(&fresh().to_query(), &set);
        let back = Settings::from_query(&query, crate::i18n::Lang::En, &Models::default()).0;
        assert_eq!(back, s);
        assert_eq!(crate::bridge::module_pairs(&query), "", "the page keeps none of them as a module's");
    }
}
