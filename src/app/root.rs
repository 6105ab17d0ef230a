//! `App`: the page. Reads the initial state from the URL (the language falls back to the last
//! choice, then the browser's), provides it to every component, keeps the URL in step so a
//! reload or a shared link shows the same picture, and steps the lesson with ←/→.

use super::controls::Controls;
use super::state::{use_lab, LabCtx};
use super::views::{ActiveView, ViewNav};
use crate::i18n::{Lang, Msg};
use crate::settings::{default_sentences, Settings};
use leptos::{ev, prelude::*};
use wasm_bindgen::JsCast;

/// Where the last language choice is remembered.
const LANG_KEY: &str = "attention-lab-lang";

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The language to use when the URL names none: the last choice, else the browser's.
fn preferred_lang() -> Lang {
    let stored = storage().and_then(|s| s.get_item(LANG_KEY).ok().flatten());
    match stored.as_deref() {
        Some("zh") => Lang::Zh,
        Some("en") => Lang::En,
        _ => window().navigator().language().map_or(Lang::En, |tag| Lang::from_tag(&tag)),
    }
}

/// Settings from the page's URL.
fn initial_settings() -> Settings {
    let search = window().location().search().unwrap_or_default();
    Settings::from_query(&search, preferred_lang()).0
}

/// Is the key event aimed at a form control, where arrows already mean something?
fn in_form_control(e: &web_sys::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// The whole site.
#[component]
pub fn App() -> impl IntoView {
    let lab = LabCtx::new(initial_settings());
    provide_context(lab);

    Effect::new(move |_| {
        let query = lab.settings.with(Settings::to_query);
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("?{query}")));
        }
    });
    Effect::new(move |_| {
        let code = lab.lang.get().code();
        if let Some(html) = document().document_element() {
            let _ = html.set_attribute("lang", if code == "zh" { "zh-CN" } else { "en" });
        }
        if let Some(s) = storage() {
            let _ = s.set_item(LANG_KEY, code);
        }
    });
    let keys = window_event_listener(ev::keydown, move |e| {
        if in_form_control(&e) || e.alt_key() || e.ctrl_key() || e.meta_key() {
            return;
        }
        let (stage, view) = lab.settings.with_untracked(|s| (s.stage, s.view));
        if view != crate::settings::View::Lesson {
            return;
        }
        let target = match e.key().as_str() {
            "ArrowRight" => stage.next(),
            "ArrowLeft" => stage.prev(),
            _ => None,
        };
        if let Some(st) = target {
            e.prevent_default();
            lab.settings.update(|s| s.stage = st);
        }
    });
    on_cleanup(move || keys.remove());

    view! {
        <header class="masthead">
            <div class="masthead__text">
                <h1 class="masthead__title">{move || lab.t(Msg::AppTitle)}</h1>
                <p class="masthead__tagline">{move || lab.t(Msg::Tagline)}</p>
            </div>
            <LanguageSwitch />
        </header>
        <ViewNav />
        <main class="page">
            <Controls />
            <div class="page__main">
                {move || lab.error.get().map(|e| view! {
                    <p class="error" role="alert" data-testid="compute-error">{lab.t(Msg::ComputeError)} ": " {e}</p>
                })}
                <Show when=move || lab.outcome.with(Option::is_some)>
                    <ActiveView />
                </Show>
            </div>
        </main>
    }
}

/// Switches between English and Chinese; an untouched default sentence follows the language.
#[component]
fn LanguageSwitch() -> impl IntoView {
    let lab = use_lab();
    let toggle = move |_| {
        lab.settings.update(|s| {
            let next = if s.lang == Lang::En { Lang::Zh } else { Lang::En };
            let (old_text, old_kv) = default_sentences(s.lang);
            let (new_text, new_kv) = default_sentences(next);
            if s.text == old_text {
                s.text = new_text.into();
                s.query = 0;
            }
            if s.kv_text == old_kv {
                s.kv_text = new_kv.into();
            }
            s.lang = next;
        })
    };
    view! {
        <button type="button" class="button masthead__lang" data-testid="lang-switch" on:click=toggle
            lang=move || if lab.lang.get() == Lang::En { "zh-CN" } else { "en" }>
            {move || lab.t(Msg::SwitchLanguage)}
        </button>
    }
}
