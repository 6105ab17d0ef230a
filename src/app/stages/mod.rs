//! One component per stage of the lesson, sharing a frame (title, formula, explanation,
//! "what to notice") and a head picker.

mod input;
mod multihead;
mod output;
mod projection;
mod scaling;
mod scores;
mod softmax;


pub use input::InputStage;
pub use multihead::MultiHeadStage;
pub use output::OutputStage;
pub use projection::ProjectionStage;
pub use scaling::ScalingStage;
pub use scores::ScoresStage;
pub use softmax::SoftmaxStage;

use super::state::{use_lab, Shared};
use super::stepper::stage_name;
use super::download::save_text;
use super::heatmap::SpotlightScope;
use super::specs::caption;
use crate::export::{file_stem, trace_json};
use crate::i18n::ClassMsg;
use crate::chart::heatmap::HeatmapSpec;
use crate::core::scenario::Outcome;
use crate::core::trace::HeadTrace;
use crate::i18n::{Lang, Msg};
use crate::settings::Stage;
use leptos::prelude::*;

/// The frame every stage shares.
#[component]
fn StagePanel(
    /// Which stage this is (sets its title and `data-testid="stage-…"`).
    stage: Stage,
    /// The step's formula in MathML.
    formula: &'static str,
    /// Its explanation.
    explain: Msg,
    /// Its "what to notice" line.
    notice: Msg,
    /// The stage's heatmaps and readouts.
    children: Children,
) -> impl IntoView {
    let lab = use_lab();
    provide_context(SpotlightScope);
    let save_json = move |_| {
        let json = lab.outcome.with_untracked(|o| o.as_ref().map(|o| lab.settings.with_untracked(|s| (trace_json(&o.0, s), file_stem(s, "trace")))));
        if let Some((json, stem)) = json {
            if let Err(e) = save_text(&format!("{stem}.json"), "application/json", &json) {
                leptos::logging::error!("{e}");
            }
        }
    };
    view! {
        <section class="stage" data-testid=format!("stage-{}", stage.slug())>
            <div class="stage__head">
                <h2 class="stage__title">{stage.index() + 1} ". " {move || lab.t(stage_name(stage))}</h2>
                <button type="button" class="button button--small" data-testid="export-json" on:click=save_json>
                    {lab.text(ClassMsg::ExportJson)}
                </button>
            </div>
            <div class="stage__formula" inner_html=formula></div>
            <p class="stage__explain">{move || lab.t(explain)}</p>
            <TokenStrip />
            <p class="stage__hint">{lab.text(Msg::HoverHint)}</p>
            {children()}
            <p class="stage__notice"><strong>{lab.text(Msg::Notice)}</strong> " " {move || lab.t(notice)}</p>
        </section>
    }
}

/// The query tokens as buttons: clicking one spotlights its row and column in every heatmap
/// of the stage; clicking it again clears the spotlight.
#[component]
fn TokenStrip() -> impl IntoView {
    let lab = use_lab();
    let tokens = lab.tokens;
    let spot = lab.pick(|s| s.spot);
    view! {
        <div class="token-strip" role="group" aria-label=lab.text(ClassMsg::Spotlight)>
            <span class="token-strip__label" title=lab.text(ClassMsg::SpotlightHint)>{lab.text(ClassMsg::Spotlight)}</span>
            {move || tokens.get().into_iter().enumerate().map(|(i, t)| view! {
                <button type="button" class="token-strip__token" data-testid=format!("spot-{}", i + 1)
                    aria-pressed=move || (spot.get() == Some(i)).to_string()
                    on:click=move |_| lab.settings.update(|s| s.spot = if s.spot == Some(i) { None } else { Some(i) })>
                    {t}
                </button>
            }).collect_view()}
        </div>
    }
}

/// Buttons to choose the head shown by the per-head stages.
#[component]
pub(crate) fn HeadPicker() -> impl IntoView {
    let lab = use_lab();
    let heads = Memo::new(move |_| lab.outcome.with(|o| o.as_ref().map_or(1, |o| o.0.trace.heads.len())));
    let current = lab.pick(|s| s.head);
    view! {
        <div class="head-picker" role="group" aria-label=lab.text(Msg::Head)>
            <span class="head-picker__label">{lab.text(Msg::Head)}</span>
            {move || (0..heads.get()).map(|h| view! {
                <button type="button" class="head-picker__head" data-testid=format!("head-{}", h + 1)
                    aria-pressed=move || (current.get().min(heads.get() - 1) == h).to_string()
                    on:click=move |_| lab.settings.update(|s| s.head = h)>
                    {h + 1}
                </button>
            }).collect_view()}
        </div>
    }
}

/// A memo of something read from the current outcome (`None` before anything computed).
fn from_outcome<T>(f: impl Fn(&Outcome, Lang) -> T + Send + Sync + 'static) -> Memo<Option<T>>
where
    T: PartialEq + Send + Sync + 'static,
{
    let lab = use_lab();
    Memo::new(move |_| {
        let lang = lab.lang.get();
        lab.outcome.with(|o| o.as_ref().map(|Shared(o)| f(o, lang)))
    })
}

/// Like [`from_outcome`], for the head chosen in the head picker.
fn from_head<T>(f: impl Fn(&Outcome, &HeadTrace, Lang) -> T + Send + Sync + 'static) -> Memo<Option<T>>
where
    T: PartialEq + Send + Sync + 'static,
{
    let lab = use_lab();
    let head = lab.pick(|s| s.head);
    Memo::new(move |_| {
        let (lang, h) = (lab.lang.get(), head.get());
        lab.outcome.with(|o| {
            o.as_ref().and_then(|Shared(o)| {
                let h = h.min(o.trace.heads.len().saturating_sub(1));
                o.trace.heads.get(h).map(|ht| f(o, ht, lang))
            })
        })
    })
}

/// The caption "name: rows × cols" of a heatmap, from the shape of what it draws.
fn captioned(spec: Memo<Option<HeatmapSpec>>, name: Msg) -> Signal<String> {
    let lab = use_lab();
    Signal::derive(move || spec.with(|s| s.as_ref().map(|s| caption(lab.t(name), s.values.dim())).unwrap_or_default()))
}
