//! The link for students: the lesson as it is on the teacher's screen, but in the normal layout
//! and the default theme, in its shortest form, copied and shown with a QR code the page draws
//! itself, large enough to scan from the back of a room.

use super::clipboard::{clear_toast, copy_text};
use super::page::use_page;
use crate::chart::qr::qr;
use crate::i18n::{fill, ClassMsg};
use leptos::prelude::*;

/// The address of this page with `query`: same origin and folder, so a published copy links to
/// itself.
fn link_with(query: &str) -> String {
    let location = window().location();
    let (origin, path) = (location.origin().unwrap_or_default(), location.pathname().unwrap_or_default());
    format!("{origin}{path}?{query}")
}

/// The button, and the panel it opens with the link and its QR code.
#[component]
pub fn StudentLink(
    /// Whether the panel is shown (Esc closes it, see `keys`).
    open: RwSignal<bool>,
    /// Where the header reports a copy: what was copied; the panel itself shows the link to
    /// copy by hand when the browser refuses.
    status: WriteSignal<Option<Result<ClassMsg, String>>>,
) -> impl IntoView {
    let page = use_page();
    let link = Memo::new(move |_| link_with(&page.settings.with(|s| s.for_students().to_short_query())));
    let code = Memo::new(move |_| qr(&link.get()));
    let host = window().location().hostname().unwrap_or_default();
    let local = matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]").then_some(host);
    // The panel takes the focus when it opens (Esc and Tab then act inside it).
    let close = NodeRef::<leptos::html::Button>::new();
    Effect::new(move || {
        if let Some(button) = close.get() {
            let _ = button.focus();
        }
    });
    let share = move |_| {
        open.set(true);
        let href = link.get_untracked();
        leptos::task::spawn_local(async move {
            if copy_text(&href).await {
                status.set(Some(Ok(ClassMsg::StudentCopied)));
                set_timeout(move || status.update(clear_toast), std::time::Duration::from_secs(3));
            }
        });
    };
    view! {
        <button type="button" class="button" data-testid="copy-link-student" aria-expanded=move || open.get().to_string()
            on:click=share>
            {page.text(ClassMsg::CopyStudentLink)}
        </button>
        <Show when=move || open.get()>
            <div class="share" role="dialog" aria-labelledby="share-title" data-testid="student-link-panel">
                <h2 id="share-title" class="share__title">{page.text(ClassMsg::StudentLinkTitle)}</h2>
                {move || match code.get() {
                    Some(q) => view! {
                        <svg class="share__qr" data-testid="qr-code" role="img" aria-label=page.t(ClassMsg::QrLabel)
                            viewBox=format!("0 0 {0} {0}", q.side) shape-rendering="crispEdges">
                            <rect width="100%" height="100%" fill="#fff"></rect>
                            <path d=q.path fill="#000"></path>
                        </svg>
                    }.into_any(),
                    None => view! { <p class="field__error" role="alert">{page.t(ClassMsg::QrTooLong)}</p> }.into_any(),
                }}
                <p class="share__link" data-testid="student-link">{move || link.get()}</p>
                <p class="share__note">{page.text(ClassMsg::StudentLinkNote)}</p>
                {local.clone().map(|host| view! {
                    <p class="share__note share__note--warn">{move || fill(page.t(ClassMsg::StudentLinkLocal), &[("host", &host)])}</p>
                })}
                <button type="button" class="button" data-testid="student-link-close" node_ref=close on:click=move |_| open.set(false)>
                    {page.text(ClassMsg::Close)}
                </button>
            </div>
        </Show>
    }
}
