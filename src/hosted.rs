//! A module the page starts when one of its views first opens (its own .wasm: the training
//! view's, the pretrained model's views, the side lessons'): it mounts its view into the page's
//! element for it, and again whenever the page asks (the view opened again, or, for a module
//! that does not mirror the settings, the language or theme changed), reading the page's
//! language and chart colours from the document each time. What the page and a module share
//! is `bridge`'s.

use crate::bridge::Hosted;
use crate::chart::ink::Ink;
use crate::i18n::Lang;
use leptos::mount::UnmountHandle;
use leptos::prelude::*;
use leptos::tachys::view::any_view::{AnyView, AnyViewState};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The mounted view, unmounted before the next mount.
    static MOUNTED: RefCell<Option<UnmountHandle<AnyViewState>>> = const { RefCell::new(None) };
}

/// Mount `view` into `module`'s element now and whenever the page asks.
pub fn host(module: Hosted, view: fn() -> AnyView) {
    crate::panic_notice::install();
    mount(module, view);
    // Mounted again after the page has applied what it changed (language, theme).
    let again = Closure::<dyn Fn()>::new(move || {
        let next = Closure::once_into_js(move || mount(module, view));
        let _ = window().request_animation_frame(next.unchecked_ref());
    });
    let _ = window().add_event_listener_with_callback(module.mount_event(), again.as_ref().unchecked_ref());
    again.forget();
}

/// Mount `view` into `module`'s element, replacing the previous mount.
fn mount(module: Hosted, view: fn() -> AnyView) {
    MOUNTED.with(|m| drop(m.borrow_mut().take()));
    let Some(root) = document().get_element_by_id(module.root()) else { return };
    let Ok(root) = root.dyn_into::<web_sys::HtmlElement>() else { return };
    root.set_inner_html("");
    // The page's "loading" line has done its job.
    if let Ok(Some(status)) = document().query_selector(&format!("[data-module-status='{}']", module.name())) {
        let _ = status.set_attribute("hidden", "");
    }
    let handle = leptos::mount::mount_to(root, view);
    MOUNTED.with(|m| *m.borrow_mut() = Some(handle));
}

/// The address bar's query as it is now, the page's latest settings in it: the page writes
/// them at once when asked (`bridge::WRITE_NOW_EVENT`, dispatched and handled before this
/// returns).
pub fn address_bar() -> String {
    if let Ok(event) = web_sys::Event::new(crate::bridge::WRITE_NOW_EVENT) {
        let _ = window().dispatch_event(&event);
    }
    window().location().search().unwrap_or_default()
}

/// Whether `module`'s element is in the page (its view is open).
pub fn shown(module: Hosted) -> bool {
    document().get_element_by_id(module.root()).is_some_and(|e| e.is_connected())
}

/// The page's language and chart colours, as the page set them before it mounted the view.
pub fn page_lang_and_ink() -> (Lang, Ink) {
    let html = document().document_element();
    let lang = html.as_ref().and_then(|h| h.get_attribute("lang")).map_or(Lang::En, |l| Lang::from_tag(&l));
    let style = html.and_then(|h| window().get_computed_style(&h).ok().flatten());
    let ink = style.and_then(|s| Ink::from_variables(&|name| s.get_property_value(name).ok())).unwrap_or(Ink::PLAIN);
    (lang, ink)
}

/// Put `query` in the address bar as a new page of history, and tell the page to read it
/// (`bridge::LINK_EVENT`).
pub fn open_link(query: &str) {
    if let Ok(history) = window().history() {
        let _ = history.push_state_with_url(&JsValue::NULL, "", Some(&format!("?{query}")));
    }
    if let Ok(event) = web_sys::Event::new(crate::bridge::LINK_EVENT) {
        let _ = window().dispatch_event(&event);
    }
}

/// Replace the address bar's query with `query` (a changed setting is not a new page).
pub fn replace_query(query: &str) {
    if let Ok(history) = window().history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("?{query}")));
    }
}

/// Replace the address bar's query with `query`, some of the lesson's own keys changed in it,
/// and tell the page to read its settings from it (`bridge::CHANGED_EVENT`).
pub fn change_lesson(query: &str) {
    replace_query(query);
    if let Ok(event) = web_sys::Event::new(crate::bridge::CHANGED_EVENT) {
        let _ = window().dispatch_event(&event);
    }
}
