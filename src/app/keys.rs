//! Keyboard control for the classroom: ←/→ step, space steps in presentation mode, P toggles
//! presentation, S toggles scaling, ? lists every shortcut, Esc leaves. Keys typed into a
//! form field are left alone.

use super::page::{use_page, Page};
use crate::i18n::{fill, ClassMsg};
use crate::settings::View;
use crate::ui::in_form_control;
use leptos::{ev, prelude::*};

/// Listen for the shortcuts; `dialogs` say whether the shortcut list and the link for students
/// are open (Esc closes an open one before it leaves presentation mode).
pub fn listen(page: Page, dialogs: [RwSignal<bool>; 2]) {
    let [help, _] = dialogs;
    let keys = window_event_listener(ev::keydown, move |e| {
        if in_form_control(&e) || e.alt_key() || e.ctrl_key() || e.meta_key() {
            return;
        }
        let (stage, view, present) =
            page.settings.with_untracked(|s| (s.lesson().stage(), s.view(), s.classroom().present()));
        let go = |st: crate::settings::Stage| page.settings.update(|s| s.lesson_mut().set_stage(st));
        let lesson = view == View::Lesson;
        let handled = match e.key().as_str() {
            "ArrowRight" if lesson => stage.next().map(go).is_some(),
            "ArrowLeft" if lesson => stage.prev().map(go).is_some(),
            " " if lesson && present => stage.next().map(go).is_some(),
            "p" | "P" => {
                page.settings.update(|s| s.classroom_mut().set_present(!present));
                true
            }
            "s" | "S" => {
                page.settings.update(|s| {
                    let on = s.lesson().scaled();
                    s.lesson_mut().set_scaled(!on)
                });
                true
            }
            "?" => {
                help.update(|h| *h = !*h);
                true
            }
            "Escape" => {
                if let Some(open) = dialogs.iter().find(|d| d.get_untracked()) {
                    open.set(false);
                    true
                } else if present {
                    page.settings.update(|s| s.classroom_mut().set_present(false));
                    true
                } else {
                    false
                }
            }
            _ => false,
        };
        if handled {
            e.prevent_default();
        }
    });
    on_cleanup(move || keys.remove());
}

/// The list of every shortcut, as a dialog.
#[component]
pub fn ShortcutHelp(
    /// Open or closed.
    open: RwSignal<bool>,
    /// Whether this browser keeps the site for use without the network.
    offline: ReadSignal<super::updates::Offline>,
) -> impl IntoView {
    let page = use_page();
    // The keys: symbols as they are on the keyboard, the space bar by its name in the language.
    let rows = [
        (None, "← →", ClassMsg::KeyArrows),
        (Some(ClassMsg::SpaceBar), "", ClassMsg::KeySpace),
        (None, "P", ClassMsg::KeyP),
        (None, "S", ClassMsg::KeyS),
        (None, "?", ClassMsg::KeyHelp),
        (None, "Esc", ClassMsg::KeyEsc),
    ];
    view! {
        <Show when=move || open.get()>
            <div class="overlay" on:click=move |_| open.set(false)>
                <div class="overlay__dialog" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" data-testid="shortcuts"
                    on:click=|e| e.stop_propagation()>
                    <h2 id="shortcuts-title">{page.text(ClassMsg::Shortcuts)}</h2>
                    <dl class="shortcuts">
                        {rows.map(|(name, key, what)| view! {
                            <dt><kbd>{move || name.map_or(key, |n| page.t(n))}</kbd></dt><dd>{move || page.t(what)}</dd>
                        })}
                    </dl>
                    {move || {
                        use super::updates::Offline;
                        let (state, msg) = match offline.get() {
                            Offline::Checking => return None,
                            Offline::Kept => ("kept", ClassMsg::OfflineKept),
                            Offline::Unavailable => ("unavailable", ClassMsg::OfflineUnavailable),
                        };
                        Some(view! { <p class="overlay__version" data-testid="offline-state" data-state=state>{page.t(msg)}</p> })
                    }}
                    {
                        let (build, msg) = match crate::compute::client::relaxed_simd() {
                            true => ("relaxed", ClassMsg::KernelsRelaxed),
                            false => ("simd128", ClassMsg::KernelsPlain),
                        };
                        view! { <p class="overlay__version" data-testid="kernels-state" data-build=build>{move || page.t(msg)}</p> }
                    }
                    {super::updates::version().map(|v| view! {
                        <p class="overlay__version" data-testid="app-version">{move || fill(page.t(ClassMsg::Version), &[("v", &v)])}</p>
                    })}
                    <button type="button" class="button" on:click=move |_| open.set(false)>{page.text(ClassMsg::Close)}</button>
                </div>
            </div>
        </Show>
    }
}
