//! The training view's place in the page. Training a Transformer is its own module (its own
//! .wasm, `crate::learn`, built as the `learn` binary), fetched only when this view first
//! opens: the page's own .wasm stays small and the first heatmap fast. The build names the
//! module's start script in `<meta name="attention-lab-learn">`; the module mounts itself into
//! this view's element, again each time the view is opened or the language or theme changes.
//! If it cannot be loaded, the start script shows the failure line instead of the loading one.

use super::super::page::use_page;
use crate::bridge::{LEARN_MOUNT_EVENT, LEARN_ROOT};
use crate::i18n::LearnMsg;
use leptos::prelude::*;

/// The view: a place for the module, with a line saying it is loading (hidden by the module
/// once mounted) and one saying it failed (shown by the start script if it does).
#[component]
pub fn LearnView() -> impl IntoView {
    let page = use_page();
    Effect::new(move |_| {
        page.lang.track();
        page.ink.track();
        if let Err(e) = load() {
            leptos::logging::error!("the training module: {e:?}");
        }
    });
    view! {
        <section class="view view--learn" data-testid="view-learn">
            <h2 class="view__title">{page.text(LearnMsg::Title)}</h2>
            <p class="view__text" role="status" data-learn-status="">{page.text(LearnMsg::Loading)}</p>
            <p class="field__error" role="alert" data-learn-failed="" hidden>{page.text(LearnMsg::LoadFailed)}</p>
            <div id=LEARN_ROOT></div>
        </section>
    }
}

/// Start the module (a module script of the same origin, as the page's security policy
/// allows), or, when it is already running, ask it to mount into the new element.
fn load() -> Result<(), wasm_bindgen::JsValue> {
    let document = document();
    if document.query_selector("script[data-learn]")?.is_some() {
        return window().dispatch_event(&web_sys::Event::new(LEARN_MOUNT_EVENT)?).map(|_| ());
    }
    let src = document
        .query_selector("meta[name='attention-lab-learn']")?
        .and_then(|m| m.get_attribute("content"))
        .ok_or_else(|| wasm_bindgen::JsValue::from_str("the page names no training module"))?;
    let script = document.create_element("script")?;
    script.set_attribute("type", "module")?;
    script.set_attribute("src", &src)?;
    script.set_attribute("data-learn", "")?;
    document.head().ok_or_else(|| wasm_bindgen::JsValue::from_str("no head"))?.append_child(&script).map(|_| ())
}
