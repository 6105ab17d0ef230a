//! "The code for this stage": the PyTorch lines of `crate::stage_code`, made from the outcome
//! on screen, folded under a title with a copy button (and, for Q, K and V, how the code
//! splits the heads).

use super::super::clipboard::copy_text;
use super::super::page::use_page;
use crate::i18n::{LessonMsg, Msg};
use crate::settings::Stage;
use crate::stage_code::{stage_code, CodeShapes};
use crate::stage_texts::reshape_text;
use leptos::prelude::*;

/// The stage's code, folded under its title, with a copy button.
#[component]
pub fn StageCode(
    /// The stage whose code is shown.
    stage: Stage,
) -> impl IntoView {
    let page = use_page();
    let code = Memo::new(move |_| {
        page.outcome.with(|o| o.as_ref().map(|o| stage_code(stage, &CodeShapes::of(&o.0))).unwrap_or_default())
    });
    let (copied, set_copied) = signal(None::<bool>);
    let copy = move |_| {
        let text = code.get_untracked();
        leptos::task::spawn_local(async move { set_copied.set(Some(copy_text(&text).await)) });
    };
    view! {
        <details class="stage-code" data-testid="stage-code">
            <summary class="stage-code__title">{page.text(Msg::CodeTitle)}</summary>
            <pre class="stage-code__text" lang="en" translate="no"><code data-testid="stage-code-text">{code}</code></pre>
            <div class="stage-code__actions">
                <button type="button" class="button button--small" data-testid="stage-code-copy" on:click=copy>
                    {page.text(Msg::CodeCopy)}
                </button>
                <span role="status">{move || copied.get().map(|ok| page.t(if ok { Msg::CodeCopied } else { Msg::CodeCopyRefused }))}</span>
            </div>
            {(stage == Stage::Softmax).then(|| view! { <p class="stage-code__note">{page.text(Msg::CodeMaskNote)}</p> })}
            // How the code splits the heads (view, transpose, strides): for the reader of the
            // code, not the stage's main text.
            {(stage == Stage::Projection).then(|| view! {
                <div class="stage-code__note" data-testid="reshape">
                    <h4>{page.text(LessonMsg::ReshapeTitle)}</h4>
                    <p translate="no">{move || page.outcome.with(|o| o.as_ref().map(|o| reshape_text(&o.0, page.lang.get())))}</p>
                </div>
            })}
        </details>
    }
}
