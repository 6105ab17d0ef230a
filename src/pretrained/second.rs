//! The model view's second sentence: the two sentences' similarity (each embedded as the model
//! embeds a text, with "query: " before it for e5, as its model card asks), with every head on
//! and with the heads switched off; the sweep can read it too. The sentence is kept in the
//! address bar (`settings::url::SECOND_KEY`).

use super::use_viewer;
use crate::bridge::{read_pairs, with_pairs};
use crate::core::ablate::Ablation;
use crate::core::intervene::{Experiment, Readout};
use crate::core::model::{Model, RunOptions};
use crate::hosted::{address, replace_query};
use crate::i18n::{fill, model_error, t, AblateMsg, Lang};
use crate::models::ModelId;
use crate::settings::url::SECOND_KEY;
use crate::shared::Shared;
use crate::stage_texts::heads_listed;
use leptos::prelude::*;
use std::sync::Arc;

/// The sentence a class compares with first: near in meaning to the lesson's own.
fn first(lang: Lang, model: ModelId) -> &'static str {
    if lang == Lang::Zh && model == ModelId::E5 {
        "小狗没有过马路，因为它太累了。"
    } else {
        "The dog did not cross the road because it was too tired"
    }
}

/// The second sentence and what it gives.
#[derive(Clone, Copy)]
pub struct Second {
    /// As typed (the last one the model could read).
    pub text: RwSignal<String>,
    /// Why the last one typed was not taken.
    error: RwSignal<Option<String>>,
    /// Both sentences, embedded, with every head on.
    experiment: Memo<Option<Shared<Experiment>>>,
    /// Their similarity with the heads off now, when any are.
    off: Memo<Option<f32>>,
}

impl Second {
    /// The second sentence (the link's, else the first one for the page's language and model)
    /// against `text` through `model` under `options`.
    pub fn new(model: Shared<dyn Model>, text: String, options: RunOptions) -> Self {
        let viewer = use_viewer();
        let linked = read_pairs(&address(), &[SECOND_KEY]).into_iter().find_map(|(_, v)| v);
        let readable = |t: &str| !t.trim().is_empty() && model.0.tokenize(t).is_ok();
        let start = linked.filter(|t| readable(t)).unwrap_or_else(|| first(viewer.lang, viewer.id).to_string());
        let typed = RwSignal::new(start);
        let m = Shared(Arc::clone(&model.0));
        let experiment = Memo::new(move |_| {
            let other = typed.get();
            let e = Experiment::for_readout(&*m.0, &text, &options, Some(&other), Readout::Similarity).ok()?;
            Some(Shared(Arc::new(e)))
        });
        let off = Memo::new(move |_| {
            let ablation = viewer.ablation.get();
            let e = experiment.get()?;
            if ablation.is_empty() {
                return None;
            }
            e.0.off(&*model.0, &ablation).ok()?.similarity()
        });
        Self { text: typed, error: RwSignal::new(None), experiment, off }
    }

    /// The sentence and the similarity with every head on, for the sweep's readout.
    pub fn for_sweep(self) -> Memo<Option<(String, f32)>> {
        Memo::new(move |_| {
            let e = self.experiment.get()?;
            Some((self.text.get(), e.0.similarity()?))
        })
    }
}

/// The field, and the similarity with every head on and with the heads off.
#[component]
pub fn SecondSentence(second: Second, model: Shared<dyn Model>) -> impl IntoView {
    let viewer = use_viewer();
    let lang = viewer.lang;
    let tr = move |m: AblateMsg| t(lang, m);
    let prefix = model.0.shape().origin.embedding_prefix();
    let prefix_note =
        if prefix.is_empty() { String::new() } else { fill(tr(AblateMsg::SecondPrefix), &[("prefix", prefix)]) };
    let on_change = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        let problem = if text.trim().is_empty() {
            Some(model_error(lang, &crate::core::model::ModelError::NoTokens { which: "key/value" }))
        } else {
            model.0.tokenize(&text).err().map(|p| model_error(lang, &p.of("key/value")))
        };
        match problem {
            Some(why) => second.error.set(Some(why)),
            None => {
                second.error.set(None);
                replace_query(&with_pairs(&address(), &[(SECOND_KEY, &text)]));
                second.text.set(text);
            }
        }
    };
    let line = move || {
        let intact = second.experiment.get()?.0.similarity()?;
        let intact_text = format!("{intact:.3}");
        let ablation: Ablation = viewer.ablation.get();
        let text = match second.off.get() {
            Some(off) => fill(
                tr(AblateMsg::SimilarityOff),
                &[
                    ("prefix", &prefix_note),
                    ("intact", &intact_text),
                    ("off", &format!("{off:.3}")),
                    ("heads", &heads_listed(&ablation)),
                    ("change", &format!("{:+.3}", off - intact)),
                ],
            ),
            None => fill(tr(AblateMsg::SimilarityIntact), &[("prefix", &prefix_note), ("intact", &intact_text)]),
        };
        Some(view! { <p class="view__text" data-testid="ablate-similarity" data-intact=intact_text>{text}</p> })
    };
    view! {
        <div class="field">
            <label class="field__label" for="ablate-second">{tr(AblateMsg::SecondSentence)}</label>
            <input id="ablate-second" type="text" class="field__text" data-testid="ablate-second"
                prop:value=move || second.text.get() aria-invalid=move || second.error.with(Option::is_some).to_string()
                on:change=on_change />
            <p class="field__hint">{tr(AblateMsg::SecondHint)}</p>
            {move || second.error.get().map(|e| view! { <p class="field__error" role="alert" data-testid="ablate-second-error">{e}</p> })}
        </div>
        {line}
    }
}
