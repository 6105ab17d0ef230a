//! `App`: the page. Reads the initial state from the URL (the language falls back to the last
//! choice, then the browser's), provides it to every component, and wires the page-wide
//! behaviour: URL sync, theme, language attribute, keyboard shortcuts.

use super::controls::Controls;
use super::header::Header;
use super::keys::{listen, ShortcutHelp};
use super::model_loader::load_when_asked;
use super::page::{use_page, Page};
use super::updates::{reload_into_update, watch as watch_for_updates, Updates};
use super::url_sync::sync_url;
use super::views::{ActiveView, ViewNav};
use crate::chart::ink::Ink;
use crate::i18n::{fill, model_error, ClassMsg, Lang, Msg};
use crate::models::Models;
use crate::protocol::ToPage;
use crate::settings::Settings;
use leptos::prelude::*;
use wasm_bindgen::{closure::Closure, JsCast};

/// Where the last language choice is remembered.
const LANG_KEY: &str = "attention-lab-lang";

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The language to use when the URL names none: the last choice, else the browser's.
fn preferred_lang() -> Lang {
    let stored = storage().and_then(|s| s.get_item(LANG_KEY).ok().flatten());
    stored
        .as_deref()
        .and_then(Lang::from_slug)
        .unwrap_or_else(|| window().navigator().language().map_or(Lang::En, |tag| Lang::from_tag(&tag)))
}

/// The chart colours the stylesheet gives the page's current theme (see `chart::ink`).
fn stylesheet_ink(html: &web_sys::Element) -> Option<Ink> {
    let style = window().get_computed_style(html).ok().flatten()?;
    Ink::from_variables(&|name| style.get_property_value(name).ok())
}

/// Keep `page.prefers_dark` equal to the system's colour-scheme preference.
fn follow_color_scheme(page: Page) {
    let Ok(Some(query)) = window().match_media("(prefers-color-scheme: dark)") else { return };
    page.prefers_dark.set(query.matches());
    let on_change = Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(move |e: web_sys::MediaQueryListEvent| {
        page.prefers_dark.set(e.matches());
    });
    let _ = query.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
    // The page lives as long as the app: the listener is never removed.
    on_change.forget();
}

/// The models the page starts with: none arrived. The benchmark build, asked for its mode,
/// measures sequences longer than the 64 tokens a sentence may have.
fn first_models() -> Models {
    #[cfg(feature = "bench")]
    if super::url_sync::address().contains("bench=") {
        return Models::with_token_limit(256);
    }
    Models::default()
}

/// The whole site.
#[component]
pub fn App(
    /// Models that have arrived already (a page embedding its own); by default none has.
    #[prop(optional)]
    models: Option<Models>,
) -> impl IntoView {
    let models = models.unwrap_or_else(first_models);
    let search = super::url_sync::address();
    let (initial, ignored) = Settings::from_query(&search, preferred_lang(), &models);
    let page = Page::with_models(initial, models);
    provide_context(page);
    provide_context(page.state);
    let (notice, set_notice) = signal(ignored);
    let help = RwSignal::new(false);
    let link = sync_url(page, set_notice);
    provide_context(link);
    let updates = watch_for_updates();
    load_when_asked(page);
    // What the modules ask of the page: to go to a link (the only writer of the address bar).
    super::ports::listen(move |_, asked| {
        if let ToPage::Go { query, new_place, stored } = asked {
            link.go(&query, new_place, stored);
        }
    });
    let share = RwSignal::new(false);
    listen(page, [help, share]);
    follow_color_scheme(page);

    Effect::new(move |_| {
        let Some(html) = document().document_element() else { return };
        let lang = page.lang.get();
        let _ = html.set_attribute("lang", lang.tag());
        if let Some(s) = storage() {
            let _ = s.set_item(LANG_KEY, lang.slug());
        }
    });
    // The theme: the stylesheet's colours for it, then the charts' ink read back from them.
    Effect::new(move |_| {
        let Some(html) = document().document_element() else { return };
        let _ = html.set_attribute("data-theme", page.shown.get().slug());
        page.ink.set(stylesheet_ink(&html).unwrap_or(Ink::PLAIN));
    });
    let present = page.present;
    #[cfg(feature = "bench")]
    if search.contains("bench=") {
        // Read now: the URL is rewritten from the settings once the page is up.
        leptos::task::spawn_local(super::bench::run(page, super::bench::Mode::of(&search)));
    }

    view! {
        <div class="app" class:app--present=present>
            <Header help=help share=share />
            <UrlNotice keys=notice dismiss=set_notice />
            <UpdateOffer updates=updates />
            <ViewNav />
            <main class="page">
                <Controls />
                <div class="page__main" data-computing=move || page.computing.get().to_string()>
                    <p class="page__computing" role="status" data-testid="computing">{page.text(Msg::Computing)}</p>
                    {move || page.error.get().map(|e| view! {
                        <p class="error" role="alert" data-testid="compute-error">{page.t(Msg::ComputeError)} ": " {model_error(page.lang.get(), &e)}</p>
                    })}
                    <Show when=move || page.outcome.with(Option::is_some)>
                        <ActiveView />
                    </Show>
                </div>
            </main>
            <ShortcutHelp open=help offline=updates.offline />
        </div>
    }
}

/// Names the URL values that were ignored, until dismissed.
#[component]
fn UrlNotice(
    /// The ignored keys (empty: no notice).
    keys: ReadSignal<Vec<String>>,
    /// Clears them.
    dismiss: WriteSignal<Vec<String>>,
) -> impl IntoView {
    let page = use_page();
    view! {
        <Show when=move || keys.with(|k| !k.is_empty())>
            <div class="notice" role="status" data-testid="url-notice">
                <span>{move || fill(page.t(ClassMsg::UrlNotice), &[("keys", &keys.get().join(", "))])}</span>
                <button type="button" class="button" on:click=move |_| dismiss.set(vec![])>{page.text(ClassMsg::Dismiss)}</button>
            </div>
        </Show>
    }
}

/// Offers a newer published version, once its service worker is installed and waiting.
#[component]
fn UpdateOffer(
    /// What `updates::watch` found.
    updates: Updates,
) -> impl IntoView {
    let page = use_page();
    view! {
        <Show when=move || updates.waiting.get()>
            <div class="notice" role="status" data-testid="update-offer">
                <span>{page.text(ClassMsg::UpdateAvailable)}</span>
                <button type="button" class="button button--primary" data-testid="update-reload"
                    on:click=move |_| reload_into_update(updates)>{page.text(ClassMsg::UpdateReload)}</button>
            </div>
        </Show>
    }
}
