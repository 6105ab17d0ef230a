//! One component per stage of the lesson, sharing a frame (title, formula, explanation,
//! "what to notice"); the per-head stages show `ui::HeadPicker`.

mod code;
mod input;
mod multihead;
mod note;
mod output;
mod predict;
mod projection;
mod scaling;
mod scores;
mod softmax;

pub use input::InputStage;
pub use multihead::MultiHeadStage;
pub use note::WeightsNote;
pub use output::OutputStage;
pub use projection::ProjectionStage;
pub use scaling::ScalingStage;
pub use scores::ScoresStage;
pub use softmax::SoftmaxStage;

use super::page::{use_page, Shared};
use crate::app::controls::ScalingBadge;
use crate::core::model::Outcome;
use crate::core::trace::HeadTrace;
use crate::export::trace_json;
use crate::figures::download::save_text;
use crate::i18n::{ClassMsg, Lang, Msg, ReadingMsg};
use crate::reading::stage_reading;
use crate::settings::{Stage, View};
use crate::stage_texts::{stage_texts, StageTexts};
use crate::ui::charts::SpotlightScope;
use leptos::prelude::*;

/// The catalogue name of a stage.
pub fn stage_name(stage: Stage) -> Msg {
    match stage {
        Stage::Input => Msg::NameInput,
        Stage::Projection => Msg::NameProjection,
        Stage::Scores => Msg::NameScores,
        Stage::Scaling => Msg::NameScaling,
        Stage::Softmax => Msg::NameSoftmax,
        Stage::Output => Msg::NameOutput,
        Stage::MultiHead => Msg::NameMultiHead,
    }
}

/// The frame every stage shares.
#[component]
fn StagePanel(
    /// Which stage this is (sets its title and `data-testid="stage-…"`, and its formula,
    /// explanation and notice, chosen from the outcome shown by [`stage_texts`]).
    stage: Stage,
    /// The stage's heatmaps and readouts (held back in "Predict first" until answered).
    children: ChildrenFn,
) -> impl IntoView {
    let page = use_page();
    provide_context(SpotlightScope);
    let save_json = move |_| {
        let stem = page.file_stem("trace");
        if let Some(json) = page.outcome.with_untracked(|o| o.as_ref().map(|o| trace_json(&o.0, &stem))) {
            if let Err(e) = save_text(&format!("{stem}.json"), "application/json", &json) {
                leptos::logging::error!("{e}");
            }
        }
    };
    // Three small strings, each remade from the outcome when it changes (no memo of its own:
    // the page's .wasm pays for every memo type).
    let text = move |f: fn(StageTexts) -> String| {
        let lang = page.lang.get();
        page.outcome.with(|o| o.as_ref().map(|Shared(o)| f(stage_texts(o, stage, lang))).unwrap_or_default())
    };
    let (head, query) = (page.pick(|s| s.lesson().head()), page.pick(|s| s.lesson().query()));
    let reading = Memo::new(move |_| {
        let (lang, h, q) = (page.lang.get(), head.get(), query.get());
        page.outcome.with(|o| o.as_ref().and_then(|Shared(o)| stage_reading(o, stage, h, q, lang)))
    });
    // On a projector one square map (the scores, the weights) stands beside the text; two or
    // more maps take the screen's width below it (see the stylesheet).
    let class = if matches!(stage, Stage::Scores | Stage::Softmax) { "stage" } else { "stage stage--wide" };
    // "Predict first": the figures and the reading wait for the answer.
    let predict = page.pick(|s| s.classroom().predict());
    let revealed = RwSignal::new(false);
    let open = move || !predict.get() || revealed.get();
    view! {
        <section class=class data-testid=format!("stage-{}", stage.slug())>
            // Three parts: on a projector the figures stand beside the text (see the stylesheet).
            <div class="stage__top">
                <div class="stage__head">
                    <h2 class="stage__title">{stage.index() + 1} ". " {move || page.t(stage_name(stage))}</h2>
                    {(stage.index() >= Stage::Scaling.index()).then(|| view! { <ScalingBadge /> })}
                    <button type="button" class="button button--small" data-testid="export-json" on:click=save_json>
                        {page.text(ClassMsg::ExportJson)}
                    </button>
                </div>
                <WeightsNote />
                <div class="stage__formula" tabindex="0" role="region" aria-label=page.text(ClassMsg::Formula) inner_html=move || text(|t| t.formula.mathml().into())></div>
                <p class="stage__explain" data-testid="stage-explain">{move || text(|t| t.explain)}</p>
            </div>
            <div class="stage__figures">
                <TokenStrip />
                <Show when=move || predict.get()>
                    <predict::PredictHost stage=stage revealed=revealed />
                </Show>
                <Show when=open>
                    <p class="stage__hint">{page.text(Msg::HoverHint)}</p>
                    {children()}
                </Show>
            </div>
            <div class="stage__bottom">
                <p class="stage__reading" data-testid="stage-reading" hidden=move || !open()>
                    <strong>{page.text(ReadingMsg::Title)}</strong> " " {move || reading.get().unwrap_or_default()}
                </p>
                // Hidden with the figure while a question waits: a notice may name its answer
                // (the input stage's identical rows).
                <p class="stage__notice" data-testid="stage-notice" hidden=move || !open()><strong>{page.text(Msg::Notice)}</strong> " " {move || text(|t| t.notice)}</p>
                {matches!(stage, Stage::Scaling | Stage::Softmax).then(|| view! {
                    <button type="button" class="button button--link stage__lab" data-testid="open-lab"
                        on:click=move |_| crate::app::view_link::open_view(page, View::Saturation)>
                        {page.text(ClassMsg::OpenLab)}
                    </button>
                })}
                <code::StageCode stage=stage />
            </div>
        </section>
    }
}

/// The query tokens as buttons: clicking one spotlights its row and column in every heatmap
/// of the stage; clicking it again clears the spotlight.
#[component]
fn TokenStrip() -> impl IntoView {
    let page = use_page();
    let tokens = page.tokens;
    let spot = page.pick(|s| s.lesson().spot());
    view! {
        <div class="token-strip" role="group" aria-label=page.text(ClassMsg::Spotlight)>
            <span class="token-strip__label" title=page.text(ClassMsg::SpotlightHint)>{page.text(ClassMsg::Spotlight)}</span>
            <For each=move || tokens.get().into_iter().enumerate() key=|(i, t)| (*i, t.clone()) let((i, t))>
                <button type="button" class="token-strip__token" data-testid=format!("spot-{}", i + 1)
                    aria-pressed=move || (spot.get() == Some(i)).to_string()
                    on:click=move |_| { page.apply(|s, c| s.set_spot(if s.lesson().spot() == Some(i) { None } else { Some(i) }, c)); }>
                    {t}
                </button>
            </For>
        </div>
    }
}

/// A memo of something read from the current outcome (`None` before anything computed).
/// `f` is a plain function, not a closure: one copy of the memo code per result type.
fn from_outcome<T>(f: fn(&Outcome, Lang) -> T) -> Memo<Option<T>>
where
    T: PartialEq + Send + Sync + 'static,
{
    let page = use_page();
    Memo::new(move |_| {
        let lang = page.lang.get();
        page.outcome.with(|o| o.as_ref().map(|Shared(o)| f(o, lang)))
    })
}

/// The hover text of cell (row, col) of the chosen head, made by `f` from the current
/// outcome; `f` returns `None` for a cell it has no text for.
fn head_detail(
    f: fn(&Outcome, &HeadTrace, Lang, (usize, usize)) -> Option<String>,
) -> Callback<(usize, usize), String> {
    let page = use_page();
    Callback::new(move |cell| {
        let (h, lang) = (page.settings.with_untracked(|s| s.lesson().head()), page.lang.get_untracked());
        page.outcome.with(|o| o.as_ref().and_then(|Shared(o)| f(o, o.trace().head(h)?, lang, cell))).unwrap_or_default()
    })
}

/// Like [`from_outcome`], for the head chosen in the head picker.
fn from_head<T>(f: fn(&Outcome, &HeadTrace, Lang) -> T) -> Memo<Option<T>>
where
    T: PartialEq + Send + Sync + 'static,
{
    let page = use_page();
    let head = page.pick(|s| s.lesson().head());
    Memo::new(move |_| {
        let (lang, h) = (page.lang.get(), head.get());
        page.outcome.with(|o| o.as_ref().and_then(|Shared(o)| o.trace().head(h).map(|ht| f(o, ht, lang))))
    })
}
