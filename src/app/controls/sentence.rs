//! A sentence box with its tokens shown as chips. Text that gives no tokens, or too many,
//! is not applied: the error says why and the heatmaps keep the last good sentence.

use crate::app::page::use_page;
use crate::core::tokenize::tokenize;
use crate::i18n::{fill, unknown_token, Msg};
use crate::settings::SentenceProblem;
use crate::stage_texts::sentence_hint;
use leptos::prelude::*;

/// Which sentence a box edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The main sentence (queries; also keys and values in self-attention).
    Query,
    /// The second sentence of cross-attention (keys and values).
    KeyValue,
}

/// A textarea for one sentence, its error line and its token chips.
#[component]
pub fn SentenceBox(
    /// Which sentence this box edits.
    which: Which,
) -> impl IntoView {
    let page = use_page();
    let (problem, set_problem) = signal(None::<SentenceProblem>);
    let applied = Memo::new(move |_| {
        page.settings.with(|s| match which {
            Which::Query => s.lesson().text().to_string(),
            Which::KeyValue => s.lesson().kv_text().to_string(),
        })
    });
    // Counted as the model in use counts them (a pretrained model's own WordPiece tokens).
    let tokens = Memo::new(move |_| {
        let model = page.model.get();
        applied.with(|text| match which {
            Which::Query => crate::core::model::Token::texts(&model.0.tokenize(text).unwrap_or_default()),
            Which::KeyValue => tokenize(text),
        })
    });
    let (id, testid, label) = match which {
        Which::Query => ("sentence", "token-input", Msg::Sentence),
        Which::KeyValue => ("kv-sentence", "kv-input", Msg::KvSentence),
    };
    let error_id = format!("{id}-error");

    let on_input = move |ev| {
        let text = event_target_value(&ev);
        let mut result = Ok(());
        page.apply(|s, c| {
            result = match which {
                Which::Query => s.set_text(&text, c),
                Which::KeyValue => s.set_kv_text(&text, c),
            };
            result.is_ok()
        });
        set_problem.set(result.err());
    };
    let message = move || {
        problem.get().map(|p| match p {
            SentenceProblem::NoTokens => page.t(Msg::ErrNoTokens).to_string(),
            SentenceProblem::TooMany { n, max } => {
                fill(page.t(Msg::ErrTooManyTokens), &[("n", &n.to_string()), ("max", &max.to_string())])
            }
            SentenceProblem::Unknown(token) => unknown_token(page.lang.get(), &token),
        })
    };

    view! {
        <div class="field">
            <label class="field__label" for=id>{move || page.t(label)}</label>
            <textarea
                id=id
                class="field__text"
                rows="3"
                data-testid=testid
                prop:value=move || applied.get()
                aria-invalid=move || problem.get().is_some().to_string()
                aria-describedby=error_id.clone()
                on:input=on_input
            ></textarea>
            <p class="field__error" id=error_id role="alert" data-testid=format!("{testid}-error")>
                {message}
            </p>
            <p class="field__hint" data-testid=format!("{testid}-count")>
                {move || match tokens.with(Vec::len) {
                    1 => page.t(Msg::TokenCountOne).to_string(),
                    n => fill(page.t(Msg::TokenCount), &[("n", &n.to_string())]),
                }}
            </p>
            <ul class="chips" data-testid=format!("{testid}-chips")>
                <For each=move || tokens.get().into_iter().enumerate() key=|(i, t)| (*i, t.clone()) let((_, token))>
                    <li class="chips__chip">{token}</li>
                </For>
            </ul>
        </div>
        // How the model shown cuts text into tokens (the one asked for, once it is here).
        <p class="control-hint">{move || page.t(sentence_hint(&page.model.with(|m| m.0.shape().origin.clone())))}</p>
    }
}
