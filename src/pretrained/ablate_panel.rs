//! Switching heads off in the model view: a switch for every head (layers × heads), what a
//! switched-off head passes on (zeros or its mean), and what changed from the intact model
//! (each layer's largest weight change, each token's final cosine, the similarity to a second
//! sentence; the maps drawn as their change, if asked). The heads switched off are
//! the lesson's (`ablate`, `ablatemode` in its link): a change here goes into the address bar
//! with the viewed model, and the page reads it (`hosted::replace_query`).

use super::second::{Second, SecondSentence};
use super::sweep_panel::SweepPanel;
use super::use_viewer;
use crate::bridge::with_pairs;
use crate::core::ablate::{Ablation, Replacement};
use crate::core::intervene::Change;
use crate::core::model::{Encoding, Model, Token};
use crate::figures::heads::{HeadSwitches, ModeSelect};
use crate::hosted::{address, replace_query};
use crate::i18n::{fill, t, AblateMsg};
use crate::settings::url::ablation_pairs;
use crate::shared::Shared;
use crate::stage_texts::{heads_listed, replacement_name};
use leptos::prelude::*;

/// The switches, the mode, and what changed (`change`, when any head is off).
#[component]
pub fn AblatePanel(
    /// The viewed model.
    model: Shared<dyn Model>,
    /// Its run on the sentence with every head on.
    intact: Shared<Encoding>,
    /// What switching the heads off changed from the intact model (`None`: every head is on).
    change: Memo<Option<Shared<Change>>>,
    /// The maps above are drawn as their change from the intact model.
    show_change: RwSignal<bool>,
) -> impl IntoView {
    let viewer = use_viewer();
    let lang = viewer.lang;
    let (layers, heads) = (intact.0.layers.len(), intact.0.layers.first().map_or(0, |l| l.trace.n_heads()));
    let tokens = intact.0.tokens.clone();
    let tr = move |m: AblateMsg| t(lang, m);
    // The learner's switch: here at once, and in the lesson's link for the page.
    let set = move |ablation: Ablation| {
        let pairs = ablation_pairs(viewer.id, &ablation);
        let pairs = pairs.each_ref().map(|(k, v)| (*k, v.as_str()));
        replace_query(&with_pairs(&address(), &pairs));
        viewer.ablation.set(ablation);
    };
    let mode = move || viewer.ablation.with(|a| a.replacement);
    let on_mode = move |r: Replacement| set(Ablation::new(viewer.ablation.with_untracked(|a| a.heads().to_vec()), r));
    let input = viewer.settings.with_value(|s| s.input(&*model.0));
    let second = Second::new(model.clone(), input.text, intact.0.options.clone());
    let summary = move || match change.get() {
        None => view! { <p class="view__text" data-testid="ablate-summary">{tr(AblateMsg::NoneOff)}</p> }.into_any(),
        Some(Shared(change)) => changed(lang, &viewer.ablation.get_untracked(), &change, &tokens).into_any(),
    };
    view! {
        <section class="ablate" data-testid="ablate-panel">
            <h3 class="view__subtitle">{tr(AblateMsg::Title)}</h3>
            <p class="view__text">{tr(AblateMsg::Intro)}</p>
            <ModeSelect mode=Signal::derive(mode) set=Callback::new(on_mode) lang=lang />
            <HeadSwitches layers=layers heads=heads off=viewer.ablation lang=lang
                toggle=Callback::new(move |(l, h)| set(viewer.ablation.with_untracked(|a: &Ablation| a.toggled(l, h)))) />
            <button type="button" class="button" data-testid="ablate-all-on"
                disabled=move || viewer.ablation.with(Ablation::is_empty)
                on:click=move |_| set(Ablation::new([], mode()))>{tr(AblateMsg::AllOn)}</button>
            {summary}
            <Show when=move || change.with(Option::is_some)>
                <label class="toggle">
                    <input type="checkbox" data-testid="ablate-show-change" prop:checked=move || show_change.get()
                        on:change=move |ev| show_change.set(event_target_checked(&ev)) />
                    {tr(AblateMsg::ShowChange)}
                </label>
            </Show>
            <SecondSentence second=second model=model.clone() />
            <p class="stage__note">{tr(AblateMsg::Caveat)}</p>
            <SweepPanel model=model intact=intact set=Callback::new(set) other=second.for_sweep() />
        </section>
    }
}

/// What changed: which heads are off, the layers left as they were, each layer's largest
/// weight change and each token's final cosine.
fn changed(lang: crate::i18n::Lang, ablation: &Ablation, change: &Change, tokens: &[Token]) -> impl IntoView {
    let tr = move |m: AblateMsg| t(lang, m);
    let mode = replacement_name(ablation.replacement, lang);
    let off = fill(tr(AblateMsg::Off), &[("heads", &heads_listed(ablation)), ("mode", mode)]);
    let first = ablation.first_layer().unwrap_or(0) + 1;
    let weights = change.weights.iter().enumerate().map(|(l, heads)| {
        let largest = heads.iter().copied().fold(0.0f32, f32::max);
        format!("L{} {largest:.3}", l + 1)
    });
    let weights = fill(tr(AblateMsg::WeightChange), &[("changes", &weights.collect::<Vec<_>>().join(" · "))]);
    let cosines = tokens.iter().zip(&change.final_cosine).map(|(tok, c)| format!("{} {c:.3}", tok.text));
    let mean = format!("{:.4}", change.mean_final_change());
    let finals =
        fill(tr(AblateMsg::FinalChange), &[("cosines", &cosines.collect::<Vec<_>>().join(" · ")), ("mean", &mean)]);
    let same = match first {
        1 => tr(AblateMsg::SameFirst).to_string(),
        _ => fill(tr(AblateMsg::SameBefore), &[("layer", &first.to_string())]),
    };
    view! {
        <p class="view__text" data-testid="ablate-summary">{off}</p>
        <p class="view__text" data-testid="ablate-same">{same}</p>
        <p class="view__text" data-testid="ablate-weights">{weights}</p>
        <p class="view__text" data-testid="ablate-final" data-mean-change=mean>{finals}</p>
    }
}
