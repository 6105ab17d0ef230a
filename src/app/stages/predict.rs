//! The page's half of "Predict first": the element the side lessons' module asks its question
//! in, the numbers of the stage on screen handed to it (its trace export, see `bridge`), and the stage's figure
//! held back until the module says the question is answered. The questions themselves are in
//! the module (`crate::side::predict`), not in the page's .wasm.

use crate::app::page::{use_page, Shared};
use crate::app::views::load_module;
use crate::bridge::{Hosted, PREDICT_VIEW, REVEAL_EVENT, SHOWN_CHOICE, SHOWN_EVENT, SHOWN_TRACE};
use crate::export::trace_json;
use crate::i18n::PredictMsg;
use crate::settings::Stage;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// Put the trace and the chosen head and query on the window, and tell the module.
fn publish(trace: &str, choice: &str) {
    let window = window();
    let _ = js_sys::Reflect::set(&window, &SHOWN_TRACE.into(), &JsValue::from_str(trace));
    let _ = js_sys::Reflect::set(&window, &SHOWN_CHOICE.into(), &JsValue::from_str(choice));
    if let Ok(event) = web_sys::Event::new(SHOWN_EVENT) {
        let _ = window.dispatch_event(&event);
    }
}

/// The question's place; `revealed` becomes `true` once it is answered, and `false` again
/// whenever what the question is about (the outcome, the head, the query) changes.
#[component]
pub fn PredictHost(stage: Stage, revealed: RwSignal<bool>) -> impl IntoView {
    let page = use_page();
    let (head, query) = (page.pick(|s| s.lesson().head()), page.pick(|s| s.lesson().query()));
    Effect::new(move |started: Option<()>| {
        let (h, q) = (head.get(), query.get());
        let trace = page.outcome.with(|o| o.as_ref().map(|Shared(o)| trace_json(o, "")));
        revealed.set(false);
        if let Some(trace) = trace {
            publish(&trace, &format!("{h},{q}"));
        }
        // Started (or asked to mount again) once the element is in the page; later the
        // module follows the numbers by itself.
        if started.is_none() {
            if let Err(e) = load_module(Hosted::Side) {
                leptos::logging::error!("the questions: {e:?}");
            }
        }
    });
    let answered = window_event_listener_untyped(REVEAL_EVENT, move |_| revealed.set(true));
    on_cleanup(move || answered.remove());
    let name = Hosted::Side.name();
    view! {
        <div class="predict" data-testid="predict">
            <p class="view__text" role="status" data-module-status=name>{page.text(PredictMsg::Loading)}</p>
            <p class="field__error" role="alert" data-module-failed=name hidden>{page.text(PredictMsg::Failed)}</p>
            <div id=Hosted::Side.root() data-view=PREDICT_VIEW data-stage=stage.slug()></div>
        </div>
    }
}
