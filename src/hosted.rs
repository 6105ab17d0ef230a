//! A module the page starts when one of its views first opens (its own .wasm: the training
//! view's, the pretrained model's views, the side lessons'): it opens its channel to the page
//! (`protocol`), mounts its view into the page's element for it once the page has sent its
//! link, and again whenever the page asks, reading the page's language and chart colours from
//! the document each time. It never writes the address bar: it keeps the link the page sent
//! ([`address`]) and asks the page to go to another ([`open_link`], [`replace_query`]).

use crate::bridge::Hosted;
use crate::chart::ink::Ink;
use crate::i18n::Lang;
use crate::protocol::{ShownLayer, ToModule, ToPage};
use crate::wire::Message;
use leptos::mount::UnmountHandle;
use leptos::prelude::*;
use leptos::tachys::view::any_view::{AnyView, AnyViewState};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

/// The numbers on screen the page handed over (`ToModule::Shown`): the shown layer (read by
/// the module that draws it), which layer of the model it is, and the chosen head and query
/// (0-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    pub layer: ShownLayer,
    pub number: usize,
    pub head: usize,
    pub query: usize,
}

/// The module's end of its channel, and what the page last sent on it.
struct Link {
    /// `None` for a view embedded without a page ([`embed`]).
    port: Option<web_sys::MessagePort>,
    /// The page's link; `None` until it first arrives.
    address: ArcRwSignal<Option<String>>,
    shown: ArcRwSignal<Option<Shown>>,
}

thread_local! {
    /// The mounted view, unmounted before the next mount.
    static MOUNTED: RefCell<Option<UnmountHandle<AnyViewState>>> = const { RefCell::new(None) };
    /// What the module lets go when its view closes ([`when_closed`]).
    static WHEN_CLOSED: std::cell::Cell<Option<fn()>> = const { std::cell::Cell::new(None) };
    static LINK: RefCell<Option<Link>> = const { RefCell::new(None) };
}

/// Open the channel to the page, and mount `view` into `module`'s element once the page has
/// sent its link, and again whenever it asks.
pub fn host(module: Hosted, view: fn() -> AnyView) {
    host_after(module, || {}, view);
}

/// [`host`], with `first` run once the page's link has arrived, before the first mount (what
/// the module reads from the link before any view: the training view's run).
pub fn host_after(module: Hosted, first: fn(), view: fn() -> AnyView) {
    crate::panic_notice::install();
    if let Err(e) = connect(module, first, view) {
        leptos::logging::error!(
            "the {} module could not reach the page: {}",
            module.name(),
            crate::bridge::describe(e)
        );
    }
}

fn connect(module: Hosted, first_link: fn(), view: fn() -> AnyView) -> Result<(), JsValue> {
    let channel = web_sys::MessageChannel::new()?;
    let port = channel.port1();
    let address = ArcRwSignal::new(None::<String>);
    let shown = ArcRwSignal::new(None::<Shown>);
    let (heard_address, heard_shown) = (address.clone(), shown.clone());
    let heard = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        match ToModule::from_js(&e.data()) {
            Ok(ToModule::Address(query)) => {
                let first = heard_address.with_untracked(Option::is_none);
                // Set even when the same: the page sends it again when its language or theme
                // changed, which a module that follows the settings reads from the document.
                heard_address.set(Some(query));
                if first {
                    first_link();
                    mount(module, view);
                }
            }
            Ok(ToModule::Mount) => {
                // After the page has applied what it changed (language, theme).
                let next = Closure::once_into_js(move || mount(module, view));
                let _ = window().request_animation_frame(next.unchecked_ref());
            }
            Ok(ToModule::Closed) => closed(),
            Ok(ToModule::Shown { shown, layer, head, query }) => {
                heard_shown.set(Some(Shown { layer: shown, number: layer, head, query }));
            }
            Err(why) => leptos::logging::error!("the {} module: a message from the page: {why}", module.name()),
        }
    });
    port.set_onmessage(Some(heard.as_ref().unchecked_ref()));
    // The module lives as long as the page.
    heard.forget();
    LINK.with(|l| *l.borrow_mut() = Some(Link { port: Some(port), address, shown }));
    let (hello, moved) = ToPage::Hello(module).to_js();
    moved.push(&channel.port2());
    let origin = window().location().origin()?;
    window().post_message_with_transfer(&hello, &origin, &moved)
}

/// What the module lets go when its view closes (`ToModule::Closed`), if it holds much for it:
/// the view is unmounted (its maps with it), then this runs. A module without it keeps its
/// view mounted until it is mounted again.
pub fn when_closed(release: fn()) {
    WHEN_CLOSED.with(|w| w.set(Some(release)));
}

fn closed() {
    if let Some(release) = WHEN_CLOSED.with(std::cell::Cell::get) {
        unmount();
        release();
    }
}

/// Unmount the view (its reactive state, its `on_cleanup`s run), if one is mounted.
fn unmount() {
    MOUNTED.with(|m| drop(m.borrow_mut().take()));
}

/// Mount `view` into `module`'s element, replacing the previous mount.
fn mount(module: Hosted, view: fn() -> AnyView) {
    unmount();
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

/// Show a module's views without a page (the in-browser tests mount one on its own): `query`
/// stands for the page's link, and what the views ask of the page goes nowhere.
pub fn embed(query: &str) {
    let link = Link { port: None, address: ArcRwSignal::new(Some(query.to_string())), shown: ArcRwSignal::new(None) };
    LINK.with(|l| *l.borrow_mut() = Some(link));
}

/// The page's link as it last sent it (the query, "?" first, as `location.search` has it),
/// with the module's own requests since applied.
pub fn address() -> String {
    let query = LINK.with(|l| l.borrow().as_ref().and_then(|l| l.address.get_untracked()));
    format!("?{}", query.unwrap_or_default().trim_start_matches('?'))
}

/// The page's link, tracked: a reactive read that runs again whenever the page sends it.
pub fn address_tracked() -> String {
    let query = LINK.with(|l| l.borrow().as_ref().map(|l| l.address.clone())).and_then(|a| a.get());
    format!("?{}", query.unwrap_or_default().trim_start_matches('?'))
}

/// The numbers on screen the page last handed over, tracked.
pub fn shown_tracked() -> Option<Shown> {
    LINK.with(|l| l.borrow().as_ref().map(|l| l.shown.clone())).and_then(|s| s.get())
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

/// Tell the page something.
pub fn tell(message: &ToPage) {
    let sent = LINK.with(|l| {
        let link = l.borrow();
        let port =
            link.as_ref().and_then(|l| l.port.as_ref()).ok_or_else(|| JsValue::from_str("no channel to the page"))?;
        let (value, moved) = message.to_js();
        port.post_message_with_transferable(&value, &moved)
    });
    if let Err(e) = sent {
        leptos::logging::error!("a message to the page: {}", crate::bridge::describe(e));
    }
}

/// Ask the page to go to `query` (in place, or as a new place in the history), and read it as
/// the link from now on. Until the page has written it, the page's root element says that the
/// address bar is behind (`data-link-behind`, which the page clears once written).
pub fn go(query: &str, new_place: bool, stored: bool) {
    let query = query.trim_start_matches('?').to_string();
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-link-behind", "");
    }
    LINK.with(|l| {
        if let Some(link) = l.borrow().as_ref() {
            link.address.set(Some(query.clone()));
        }
    });
    tell(&ToPage::Go { query, new_place, stored });
}

/// Ask the page to open `query` as a new place, after keeping what it needs in the browser's
/// storage (a trained model): the page reads both.
pub fn open_link(query: &str) {
    go(query, true, true);
}

/// Ask the page to take `query` in place of its link (a changed setting is not a new place):
/// the module's own keys, or some of the lesson's, which the page then reads.
pub fn replace_query(query: &str) {
    go(query, false, false);
}
