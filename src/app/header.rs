//! The header: title, and the controls a teacher reaches for — presentation mode, theme,
//! language, a link to this exact state, and the list of shortcuts.

use super::state::use_lab;
use crate::i18n::{ClassMsg, Lang, Msg};
use crate::settings::{default_sentences, Theme};
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// Title and classroom controls.
#[component]
pub fn Header(
    /// Whether the shortcut list is open.
    help: RwSignal<bool>,
) -> impl IntoView {
    let lab = use_lab();
    let present = lab.pick(|s| s.present);
    view! {
        <header class="masthead">
            <div class="masthead__text">
                <h1 class="masthead__title">{lab.text(Msg::AppTitle)}</h1>
                <p class="masthead__tagline">{lab.text(Msg::Tagline)}</p>
            </div>
            <div class="masthead__tools">
                <button type="button" class="button button--primary" data-testid="present-toggle" aria-pressed=move || present.get().to_string()
                    on:click=move |_| lab.settings.update(|s| s.present = !s.present)>
                    {move || lab.t(if present.get() { ClassMsg::LeavePresent } else { ClassMsg::Present })}
                </button>
                <CopyLink />
                <ThemeSwitch />
                <LanguageSwitch />
                <button type="button" class="button" data-testid="help-toggle" aria-label=lab.text(ClassMsg::Shortcuts)
                    on:click=move |_| help.update(|h| *h = !*h)>"?"</button>
            </div>
        </header>
    }
}

/// Light, dark, high contrast, or whatever the system prefers.
#[component]
fn ThemeSwitch() -> impl IntoView {
    let lab = use_lab();
    let theme = lab.pick(|s| s.theme);
    let name = |t: Theme| match t {
        Theme::Auto => ClassMsg::ThemeAuto,
        Theme::Light => ClassMsg::ThemeLight,
        Theme::Dark => ClassMsg::ThemeDark,
        Theme::Contrast => ClassMsg::ThemeContrast,
    };
    view! {
        <label class="masthead__select">
            <span class="visually-hidden">{lab.text(ClassMsg::Theme)}</span>
            <select data-testid="theme-switch" aria-label=lab.text(ClassMsg::Theme) prop:value=move || theme.get().slug()
                on:change=move |ev| { if let Some(t) = Theme::from_slug(&event_target_value(&ev)) { lab.settings.update(|s| s.theme = t) } }>
                {Theme::ALL.map(|t| view! { <option value=t.slug()>{move || lab.t(name(t))}</option> })}
            </select>
        </label>
    }
}

/// Copies the page's URL, which holds the whole state; shows it for copying by hand if the
/// browser refuses.
#[component]
fn CopyLink() -> impl IntoView {
    let lab = use_lab();
    let (status, set_status) = signal(None::<Result<(), String>>);
    let copy = move |_| {
        let href = window().location().href().unwrap_or_default();
        let promise = window().navigator().clipboard().write_text(&href);
        leptos::task::spawn_local(async move {
            set_status.set(Some(JsFuture::from(promise).await.map(|_| ()).map_err(|_| href)));
        });
    };
    view! {
        <button type="button" class="button" data-testid="copy-link" on:click=copy>{lab.text(ClassMsg::CopyLink)}</button>
        <p class="masthead__status" role="status" data-testid="copy-status">
            {move || status.get().map(|r| match r {
                Ok(()) => view! { <span>{lab.t(ClassMsg::Copied)}</span> }.into_any(),
                Err(href) => view! {
                    <label>{lab.t(ClassMsg::CopyByHand)} " "
                        <input class="masthead__link" readonly prop:value=href on:focus=|e| {
                            use wasm_bindgen::JsCast;
                            if let Some(i) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) { i.select() }
                        } />
                    </label>
                }.into_any(),
            })}
        </p>
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
                s.spot = None;
            }
            if s.kv_text == old_kv {
                s.kv_text = new_kv.into();
            }
            s.lang = next;
        })
    };
    view! {
        <button type="button" class="button" data-testid="lang-switch" on:click=toggle
            lang=move || if lab.lang.get() == Lang::En { "zh-CN" } else { "en" }>
            {lab.text(Msg::SwitchLanguage)}
        </button>
    }
}
