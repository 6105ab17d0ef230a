//! Random or trained weights, the trained model's loading (progress, or an error with a retry)
//! and what its fixed shape replaces.

use crate::app::model_loader::LoadError;
use crate::app::page::{use_page, ModelState};
use crate::core::scenario::Source;
use crate::i18n::{fill, unknown_token, ModelMsg};
use crate::settings::SentenceProblem;
use leptos::prelude::*;

/// The weights switch with the model's loading state beneath it.
#[component]
pub fn WeightsControls() -> impl IntoView {
    let page = use_page();
    let source = page.pick(|s| s.source);
    // The weights last asked for: while the sentence does not fit them, say why.
    let wanted = RwSignal::new(None::<Source>);
    let select = NodeRef::<leptos::html::Select>::new();
    let set_source = move |ev| {
        if let Some(source) = Source::from_slug(&event_target_value(&ev)) {
            wanted.set(Some(source));
            if !page.apply(|s| s.set_source(source)) {
                // Refused: the select goes back to the weights still in use.
                if let Some(el) = select.get_untracked() {
                    el.set_value(page.settings.with_untracked(|s| s.source).slug());
                }
            }
        }
    };
    // Once the sentence fits the weights asked for, the request is forgotten: a later, longer
    // sentence does not bring back a refusal nobody just asked for.
    Effect::new(move |_| {
        let settled = wanted.get().is_some_and(|w| page.settings.with(|s| s.source_problem(w).is_none()));
        if settled {
            wanted.set(None);
        }
    });
    let refusal = move || {
        let problem = wanted.get().and_then(|w| page.settings.with(|s| s.source_problem(w)));
        problem.map(|p| match p {
            SentenceProblem::TooMany { n, max } => {
                fill(page.t(ModelMsg::SwitchTooLong), &[("n", &n.to_string()), ("max", &max.to_string())])
            }
            SentenceProblem::NoTokens => page.t(ModelMsg::SwitchNoTokens).to_string(),
            SentenceProblem::Unknown(token) => unknown_token(page.lang.get(), &token),
        })
    };
    view! {
        <div class="field">
            <label class="field__label" for="weights" title=page.text(ModelMsg::WeightsHint)>{page.text(ModelMsg::Weights)}</label>
            <select id="weights" data-testid="weights-switch" node_ref=select prop:value=move || source.get().slug() on:change=set_source
                aria-describedby="model-status">
                <option value=Source::Random.slug()>{page.text(ModelMsg::WeightsRandom)}</option>
                <option value=Source::Minilm.slug()>{page.text(ModelMsg::WeightsTrained)}</option>
                <option value=Source::Yours.slug()>{page.text(ModelMsg::WeightsYours)}</option>
            </select>
            <p class="field__error" role="alert" data-testid="weights-error">{refusal}</p>
            <ModelStatus />
            <Show when=move || source.get() == Source::Minilm>
                <p class="field__note">{page.text(ModelMsg::FixedByModel)}</p>
            </Show>
        </div>
    }
}

/// The download's progress, or why it failed with a retry button; nothing once ready.
#[component]
pub fn ModelStatus() -> impl IntoView {
    let page = use_page();
    let mb = |bytes: usize| format!("{:.1}", bytes as f64 / 1e6);
    let retry = move |_| page.model.set(ModelState::Idle);
    let failed = move || page.model.with(|m| if let ModelState::Failed(e) = m { Some(e.clone()) } else { None });
    view! {
        <div id="model-status" aria-live="polite">
            {move || page.model.with(|m| match *m {
                ModelState::Loading { received, total } => Some(view! {
                    <div class="model-progress" data-testid="model-progress">
                        <progress max=total.to_string() value=received.to_string()></progress>
                        <span>{fill(page.t(ModelMsg::Loading), &[("got", &mb(received)), ("total", &mb(total))])}</span>
                    </div>
                }),
                _ => None,
            })}
            {move || failed().map(|e: LoadError| view! {
                <p class="field__error model-error" role="alert" data-testid="model-error">
                    {e.message(page.lang.get())} " "
                    <button type="button" class="button button--small" data-testid="model-retry" on:click=retry>
                        {page.text(ModelMsg::Retry)}
                    </button>
                </p>
            })}
        </div>
    }
}
