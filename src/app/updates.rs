//! New versions reaching an open tab. The service worker (written by scripts/postbuild.py)
//! keeps every file of one build; when a newer build is published, the browser installs its
//! worker beside the old one and it waits. This module registers the worker, asks the server
//! for a newer one every half minute and whenever the tab comes back into view, and says when
//! one is waiting; [`reload_into_update`] lets it take over and reloads the page into it.

use leptos::prelude::*;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::ServiceWorkerRegistration;

/// How often an open tab asks whether a newer version was published.
const CHECK_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// The build's version: a short hash of its files, written into the page by the post-build
/// step (`<meta name="attention-lab-version">`); `None` when the page was not built by it.
pub fn version() -> Option<String> {
    let meta = document().query_selector("meta[name='attention-lab-version']").ok().flatten()?;
    meta.get_attribute("content").filter(|v| !v.is_empty())
}

/// Whether a newer version has been installed and waits for this page to reload into it, and
/// whether this browser keeps the site for use without the network.
#[derive(Clone, Copy)]
pub struct Updates {
    pub waiting: ReadSignal<bool>,
    pub offline: ReadSignal<Offline>,
    registration: StoredValue<Option<ServiceWorkerRegistration>, LocalStorage>,
}

/// Whether the site opens without the network in this browser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offline {
    /// Not known yet: the service worker is being registered.
    Checking,
    /// The service worker is active: it holds every file of this version.
    Kept,
    /// This window has no service workers (a page served over plain http from another
    /// computer, some private windows, a school's policy), or it refused this one: online only.
    Unavailable,
}

/// Whether this window has service workers at all (`navigator.serviceWorker` is missing where
/// they are turned off, and calling it would throw).
fn has_service_workers() -> bool {
    js_sys::Reflect::get(&window().navigator(), &JsValue::from_str("serviceWorker")).is_ok_and(|c| !c.is_undefined())
}

/// Whether a newer version waits for this page: a worker installed and waiting while another,
/// the one serving this page, is active. Read from the registration as it is now, never from
/// the state an event carried: Firefox delivers the first worker's "installed" after that
/// worker has already taken over the page, which once offered a new version that was not
/// there (and the random walk's click on it reloaded the page).
fn newer_waiting(reg: &ServiceWorkerRegistration) -> bool {
    let controlled = window().navigator().service_worker().controller().is_some();
    reg.waiting().is_some() && reg.active().is_some() && controlled
}

/// Register the service worker and watch for newer versions. A browser without service
/// workers, or a page served without one, stays online-only and is never offered an update.
pub fn watch() -> Updates {
    let (waiting, set_waiting) = signal(false);
    let (offline, set_offline) = signal(Offline::Checking);
    let registration = StoredValue::new_local(None::<ServiceWorkerRegistration>);
    if !has_service_workers() {
        set_offline.set(Offline::Unavailable);
        return Updates { waiting, offline, registration };
    }
    let container = window().navigator().service_worker();
    let promise = container.register("./sw.js");
    let ready = container.ready();
    leptos::task::spawn_local(async move {
        let Ok(reg) = JsFuture::from(promise).await.and_then(|r| r.dyn_into::<ServiceWorkerRegistration>()) else {
            set_offline.set(Offline::Unavailable);
            return;
        };
        registration.set_value(Some(reg.clone()));
        if let Ok(ready) = ready {
            leptos::task::spawn_local(async move {
                if JsFuture::from(ready).await.is_ok() {
                    set_offline.set(Offline::Kept);
                }
            });
        }
        // A worker already waiting (published while the tab was closed) counts at once.
        if newer_waiting(&reg) {
            set_waiting.set(true);
        }
        let found_reg = reg.clone();
        let on_found = Closure::<dyn Fn()>::new(move || {
            let Some(worker) = found_reg.installing() else { return };
            let reg = found_reg.clone();
            let on_state = Closure::<dyn Fn()>::new(move || {
                if newer_waiting(&reg) {
                    set_waiting.set(true);
                }
            });
            worker.set_onstatechange(Some(on_state.as_ref().unchecked_ref()));
            on_state.forget();
        });
        reg.set_onupdatefound(Some(on_found.as_ref().unchecked_ref()));
        // The page lives as long as the app: these listeners are never removed.
        on_found.forget();
    });
    // `try_`: the interval and the listener outlive an app that is unmounted (in the tests).
    let check = move || {
        registration.try_with_value(|r| {
            if let Some(r) = r {
                let _ = r.update();
            }
        });
    };
    let _ = set_interval_with_handle(check, CHECK_EVERY);
    let on_visible = Closure::<dyn Fn()>::new(move || {
        if document().visibility_state() == web_sys::VisibilityState::Visible {
            check();
        }
    });
    let _ = document().add_event_listener_with_callback("visibilitychange", on_visible.as_ref().unchecked_ref());
    on_visible.forget();
    Updates { waiting, offline, registration }
}

/// Let the waiting worker take over, then reload the page into the new version.
pub fn reload_into_update(updates: Updates) {
    // The link first: a setting changed a moment ago is written now, so the reload reopens it.
    if let Ok(event) = web_sys::Event::new(crate::protocol::WRITE_NOW_EVENT) {
        let _ = window().dispatch_event(&event);
    }
    let container = window().navigator().service_worker();
    let on_change = Closure::<dyn Fn()>::new(|| {
        let _ = window().location().reload();
    });
    container.set_oncontrollerchange(Some(on_change.as_ref().unchecked_ref()));
    on_change.forget();
    let waiting = updates.registration.with_value(|r| r.as_ref().and_then(ServiceWorkerRegistration::waiting));
    match waiting {
        Some(worker) => {
            let _ = worker.post_message(&JsValue::from_str("skip-waiting"));
        }
        // Nothing to hand over (the worker went away): a plain reload still gets the newest page.
        None => {
            let _ = window().location().reload();
        }
    }
}
