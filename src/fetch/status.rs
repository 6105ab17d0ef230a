//! Where a model's load is, on screen: its progress, or why it failed with a retry button;
//! nothing once it is here. Beside the weights switch in the page, and in the pretrained
//! model's views.

use super::{LoadError, LoadState};
use crate::i18n::{fill, t, Lang, ModelMsg};
use leptos::prelude::*;

/// A load's progress, or its failure and a retry.
#[component]
pub fn LoadStatus(
    /// The element's id (a control it describes names it).
    id: &'static str,
    /// Where the load is.
    #[prop(into)]
    state: Signal<LoadState>,
    /// The language of its lines.
    #[prop(into)]
    lang: Signal<Lang>,
    /// Try again after a failure.
    retry: Callback<()>,
) -> impl IntoView {
    let mb = |bytes: usize| format!("{:.1}", bytes as f64 / 1e6);
    let tr = move |m: ModelMsg| t(lang.get(), m);
    let failed = move || state.with(|m| if let LoadState::Failed(e) = m { Some(e.clone()) } else { None });
    view! {
        <div id=id aria-live="polite">
            {move || state.with(|m| match *m {
                LoadState::Loading { received, total } => Some(view! {
                    <div class="model-progress" data-testid="model-progress">
                        <progress max=total.to_string() value=received.to_string()></progress>
                        <span>{fill(tr(ModelMsg::Loading), &[("got", &mb(received)), ("total", &mb(total))])}</span>
                    </div>
                }),
                _ => None,
            })}
            {move || failed().map(|e: LoadError| view! {
                <p class="field__error model-error" role="alert" data-testid="model-error">
                    {e.message(lang.get())} " "
                    <button type="button" class="button button--small" data-testid="model-retry" on:click=move |_| retry.run(())>
                        {move || tr(ModelMsg::Retry)}
                    </button>
                </p>
            })}
        </div>
    }
}
