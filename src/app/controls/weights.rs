//! Which model's weights the lesson shows (the registry's models), the loading of one that is
//! fetched (progress, or an error with a retry) and what its fixed shape replaces.

use crate::app::page::use_page;
use crate::core::model::InputRule;
use crate::fetch::status::LoadStatus;
use crate::fetch::LoadState;
use crate::i18n::{fill, t, unknown_token, ModelMsg};
use crate::models::{Delivery, ModelId};
use crate::settings::SentenceProblem;
use crate::trainer::pool::Device;
use leptos::prelude::*;

/// The most memory (GB, as `navigator.deviceMemory` reports it) at which a download asks first:
/// a 2 GB Chromebook or phone, whose system and browser leave the page little of it.
const LOW_MEMORY_GB: f64 = 2.0;

/// The memory this device reports (GB), if it is [`LOW_MEMORY_GB`] or less.
fn low_memory() -> Option<f64> {
    Device::here().memory_gb.filter(|gb| *gb <= LOW_MEMORY_GB)
}

/// The size of model `id`'s file in MB, for a model that is downloaded.
fn download_mb(id: ModelId) -> Option<usize> {
    match id.delivery() {
        Delivery::Download(d) => Some((d.file.bytes + 500_000) / 1_000_000),
        _ => None,
    }
}

/// The weights switch with the model's loading state beneath it.
#[component]
pub fn WeightsControls() -> impl IntoView {
    let page = use_page();
    let chosen = page.pick(|s| s.choice().id());
    // The model last asked for: while the sentence does not fit it, say why.
    let wanted = RwSignal::new(None::<ModelId>);
    let select = NodeRef::<leptos::html::Select>::new();
    // A download this device may not hold, said first (the model): the same choice again
    // downloads it.
    let warned = RwSignal::new(None::<ModelId>);
    let set_model = move |ev| {
        let Some(id) = ModelId::from_slug(&event_target_value(&ev)) else { return };
        let fetched = page.load_state(id) == LoadState::Idle && page.models.with(|m| m.ready(id).is_none());
        let warn =
            (fetched && warned.get() != Some(id) && low_memory().is_some() && download_mb(id).is_some()).then_some(id);
        warned.set(warn);
        wanted.set(Some(id));
        // Warned first, or refused: the select goes back to the model still in use.
        if warn.is_some() || !page.apply(|s, c| s.set_model(id, c)) {
            if let Some(el) = select.get_untracked() {
                el.set_value(chosen.get_untracked().slug());
            }
        }
    };
    let problem = move |id: ModelId| page.models.with(|m| page.settings.with(|s| s.model_problem(id, m)));
    // Once the sentence fits the model asked for, the request is forgotten: a later, longer
    // sentence does not bring back a refusal nobody just asked for.
    Effect::new(move |_| {
        if wanted.get().is_some_and(|w| problem(w).is_none()) {
            wanted.set(None);
        }
    });
    let refusal = move || {
        if let Some((mb, gb)) = warned.get().and_then(download_mb).zip(low_memory()) {
            return Some(fill(page.t(ModelMsg::LowMemory), &[("gb", &gb.to_string()), ("mb", &mb.to_string())]));
        }
        wanted.get().and_then(problem).map(|p| match p {
            SentenceProblem::TooMany { n, max } => {
                fill(page.t(ModelMsg::SwitchTooLong), &[("n", &n.to_string()), ("max", &max.to_string())])
            }
            SentenceProblem::NoTokens => page.t(ModelMsg::SwitchNoTokens).to_string(),
            SentenceProblem::Unknown(token) => unknown_token(page.lang.get(), &token),
        })
    };
    // A model of fixed sizes, once it is here: the settings it replaces, said once.
    let fixed = Memo::new(move |_| {
        let arrived = page.models.with(|m| m.ready(chosen.get()).is_some());
        page.model.with(|m| {
            let shape = m.0.shape();
            let fixed = arrived && !shape.settable_sizes();
            fixed.then(|| {
                let lang = page.lang.get();
                let kv = if shape.kv_heads < shape.n_heads {
                    fill(t(lang, ModelMsg::FixedKv), &[("kv", &shape.kv_heads.to_string())])
                } else {
                    String::new()
                };
                let positions = t(
                    lang,
                    match shape.input {
                        InputRule::SinusoidalTrained | InputRule::Sinusoidal { .. } => ModelMsg::FixedSinusoidal,
                        InputRule::Rotary => ModelMsg::FixedRotary,
                        InputRule::Learned | InputRule::LearnedNormed => ModelMsg::FixedLearned,
                    },
                );
                let [d, h, dk] = [shape.d_model, shape.n_heads, shape.d_k()].map(|v| v.to_string());
                fill(
                    t(lang, ModelMsg::FixedByModel),
                    &[("d", &d), ("h", &h), ("dk", &dk), ("kv", &kv), ("positions", positions)],
                )
            })
        })
    });
    view! {
        <div class="field">
            <label class="field__label" for="weights" title=page.text(ModelMsg::WeightsHint)>{page.text(ModelMsg::Weights)}</label>
            <select id="weights" data-testid="weights-switch" node_ref=select prop:value=move || chosen.get().slug() on:change=set_model
                aria-describedby="model-status">
                // In the language's order; the chosen one stays selected when the order changes.
                {move || ModelId::offered(page.lang.get()).map(|id| view! {
                    <option value=id.slug() selected=move || chosen.get() == id>{page.text(id.name())}</option>
                })}
            </select>
            <p class="field__error" role="alert" data-testid="weights-error">{refusal}</p>
            <ModelStatus model=chosen />
            {move || fixed.get().map(|text| view! { <p class="field__note">{text}</p> })}
        </div>
    }
}

/// Model `model`'s download progress, or why it failed with a retry button; nothing once ready.
#[component]
fn ModelStatus(
    /// The model whose download is shown.
    #[prop(into)]
    model: Signal<ModelId>,
) -> impl IntoView {
    let page = use_page();
    let state = Signal::derive(move || page.load_state(model.get()));
    let retry = Callback::new(move |()| page.set_load_state(model.get_untracked(), LoadState::Idle));
    view! { <LoadStatus id="model-status" state=state lang=page.lang retry=retry /> }
}
