//! The header: title, and the controls a teacher reaches for — presentation mode, theme,
//! language, a link to this exact state, and the list of shortcuts.

use super::clipboard::{clear_toast, copy_text};
use super::page::use_page;
use super::share::StudentLink;
use super::url_sync::Link;
use crate::i18n::{ClassMsg, Lang, Msg, PredictMsg};
use crate::settings::Theme;
use leptos::prelude::*;

/// Title and classroom controls.
#[component]
pub fn Header(
    /// Whether the shortcut list is open.
    help: RwSignal<bool>,
    /// Whether the link for students is shown.
    share: RwSignal<bool>,
) -> impl IntoView {
    let page = use_page();
    let present = page.present;
    view! {
        <header class="masthead">
            <div class="masthead__text">
                <h1 class="masthead__title">{page.text(Msg::AppTitle)}</h1>
                <p class="masthead__tagline" data-testid="tagline">{page.text(Msg::Tagline)}</p>
            </div>
            // On a phone the teacher's tools fold into one menu (a checkbox and its label, all in
            // the stylesheet), so that the first screen is the student's.
            <label class="button masthead__menu" data-testid="tools-toggle">
                <input type="checkbox" class="visually-hidden" aria-controls="masthead-tools" />
                {page.text(ClassMsg::TeacherTools)}
            </label>
            <div class="masthead__tools" id="masthead-tools">
                <button type="button" class="button" data-testid="present-toggle" aria-pressed=move || present.get().to_string()
                    on:click=move |_| page.settings.update(|s| { let on = s.classroom().present(); s.classroom_mut().set_present(!on) })>
                    {move || page.t(if present.get() { ClassMsg::LeavePresent } else { ClassMsg::Present })}
                </button>
                <button type="button" class="button button--toggle" data-testid="predict-toggle" title=page.text(PredictMsg::ToggleHint)
                    aria-pressed=move || page.settings.with(|s| s.classroom().predict()).to_string()
                    on:click=move |_| page.settings.update(|s| { let on = s.classroom().predict(); s.classroom_mut().set_predict(!on) })>
                    {page.text(PredictMsg::Toggle)}
                </button>
                <CopyLink share=share />
                <ThemeSwitch />
                <LanguageSwitch />
                <button type="button" class="button" data-testid="help-toggle" aria-label=page.text(ClassMsg::Shortcuts)
                    on:click=move |_| help.update(|h| *h = !*h)>"?"</button>
            </div>
        </header>
    }
}

/// Light, dark, high contrast, or whatever the system prefers.
#[component]
fn ThemeSwitch() -> impl IntoView {
    let page = use_page();
    let theme = page.pick(|s| s.classroom().theme());
    let name = |t: Theme| match t {
        Theme::Auto => ClassMsg::ThemeAuto,
        Theme::Light => ClassMsg::ThemeLight,
        Theme::Dark => ClassMsg::ThemeDark,
        Theme::Contrast => ClassMsg::ThemeContrast,
    };
    view! {
        <label class="masthead__select">
            <span class="visually-hidden">{page.text(ClassMsg::Theme)}</span>
            <select data-testid="theme-switch" aria-label=page.text(ClassMsg::Theme) prop:value=move || theme.get().slug()
                on:change=move |ev| { if let Some(t) = Theme::from_slug(&event_target_value(&ev)) { page.settings.update(|s| s.classroom_mut().set_theme(t)) } }>
                {Theme::ALL.map(|t| view! { <option value=t.slug()>{move || page.t(name(t))}</option> })}
            </select>
        </label>
    }
}

/// Copies the page's URL, which holds the whole state (presentation mode and theme included);
/// shows it for copying by hand if the browser refuses. Beside it, the link for students.
#[component]
fn CopyLink(
    /// Whether the link for students is shown.
    share: RwSignal<bool>,
) -> impl IntoView {
    let page = use_page();
    let (status, set_status) = signal(None::<Result<ClassMsg, String>>);
    let link = use_context::<Link>();
    let copy = move |_| {
        // The page's link now, even while its rewrite of the address bar waits.
        let location = window().location();
        let here = format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default());
        let href = match link {
            Some(link) => format!("{here}?{}", link.query()),
            None => location.href().unwrap_or_default(),
        };
        leptos::task::spawn_local(async move {
            let copied = copy_text(&href).await;
            set_status.set(Some(if copied { Ok(ClassMsg::Copied) } else { Err(href) }));
            if copied {
                // "Copied" is a toast: it goes by itself. The link to copy by hand stays.
                set_timeout(move || set_status.update(clear_toast), std::time::Duration::from_secs(3));
            }
        });
    };
    view! {
        <button type="button" class="button" data-testid="copy-link" on:click=copy>{page.text(ClassMsg::CopyLink)}</button>
        <StudentLink open=share status=set_status />
        <p class="masthead__status" role="status" data-testid="copy-status">
            {move || status.get().map(|r| match r {
                Ok(msg) => view! { <span>{page.t(msg)}</span> }.into_any(),
                Err(href) => view! {
                    <label>{page.t(ClassMsg::CopyByHand)} " "
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
    let page = use_page();
    let toggle = move |_| {
        page.apply(|s, c| {
            s.switch_language(c);
            true
        });
    };
    // The button's text is the other language's name, so it carries that language's tag.
    let other = move || if page.lang.get() == Lang::En { Lang::Zh } else { Lang::En };
    view! {
        <button type="button" class="button" data-testid="lang-switch" on:click=toggle lang=move || other().tag()>
            {page.text(Msg::SwitchLanguage)}
        </button>
    }
}
