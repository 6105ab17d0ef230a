//! Which weights the numbers on screen come from, said plainly on every stage: random ones
//! (so what attends to what means nothing), a pretrained model's layer and head with what its
//! tokenizer did to the sentence, or the learner's own model. Read from the outcome shown,
//! never from the settings, so the label always matches the numbers.

use crate::app::page::{use_page, Shared};
use crate::app::url_sync::Link;
use crate::bridge::with_pairs;
use crate::core::ablate::Ablation;
use crate::core::model::Origin;
use crate::i18n::{AblateMsg, GenerateMsg, ModelMsg};
use crate::settings::url::GENERATE_KEY;
use crate::settings::View;
use crate::stage_texts::weights_note;
use leptos::prelude::*;

/// The note, with a line while a model is asked for but another's numbers are still shown.
#[component]
pub fn WeightsNote() -> impl IntoView {
    let page = use_page();
    let link = expect_context::<Link>();
    let head = page.pick(|s| s.lesson().head());
    let text = page.pick(|s| s.lesson().text().to_string());
    let asked = Memo::new(move |_| page.model.with(|m| m.0.shape().origin.clone()));
    let lines = Memo::new(move |_| {
        let lang = page.lang.get();
        page.outcome.with(|o| {
            o.as_ref().map(|Shared(o)| (weights_note(o, lang, head.get(), &text.get()), o.shape().origin.clone()))
        })
    });
    view! {
        <div class="weights-note" data-testid="weights-note" data-weights=move || lines.with(|l| l.as_ref().map(|(_, o)| o.tag()))>
            {move || lines.get().map(|(lines, _)| lines.into_iter().map(|l| view! { <p>{l}</p> }).collect_view())}
            {move || {
                let waiting = lines.with(|l| l.as_ref().is_some_and(|(_, shown)| *shown != asked.get()));
                waiting.then(|| view! { <p>{page.t(ModelMsg::NoteWaiting)}</p> })
            }}
            // The learner's own model writes, in the training view's generator.
            <Show when=move || page.outcome.with(|o| o.as_ref().is_some_and(|Shared(o)| o.shape().origin == Origin::Yours))>
                <button type="button" class="button" data-testid="lesson-generate" on:click=move |_| {
                    link.go(&with_pairs(&link.query(), &[("view", View::Learn.slug()), (GENERATE_KEY, "saved")]), true, false);
                }>{page.text(GenerateMsg::FromLesson)}</button>
            </Show>
            <Show when=move || page.outcome.with(|o| o.as_ref().is_some_and(|Shared(o)| !o.encoding.options.ablation.is_empty()))>
                <button type="button" class="button" data-testid="ablate-lesson-all-on"
                    on:click=move |_| { page.apply(|s, c| s.set_ablated(&Ablation::default(), c)); }>
                    {page.text(AblateMsg::AllOn)}
                </button>
            </Show>
        </div>
    }
}
