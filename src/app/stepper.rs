//! The lesson's navigation: clickable stage names, a progress bar, previous/next buttons,
//! and the active stage's panel (only that one is mounted, so only it draws).

use super::page::use_page;
use super::stages::{
    stage_name, InputStage, MultiHeadStage, OutputStage, ProjectionStage, ScalingStage, ScoresStage, SoftmaxStage,
};
use super::view_link::view_link;
use crate::i18n::{fill, t, ClassMsg, Formula, Lang, LessonMsg, Msg};
use crate::settings::{Stage, View};
use leptos::prelude::*;

/// "Step i of n" for `stage`.
fn step_of(lang: Lang, stage: Stage) -> String {
    fill(t(lang, Msg::StepOf), &[("i", &(stage.index() + 1).to_string()), ("n", &Stage::ALL.len().to_string())])
}

/// Once the new stage is drawn: if its heading is above the screen (the learner had scrolled
/// down), bring it to the top, at once (no animation, whatever the motion preference).
fn show_heading() {
    request_animation_frame(|| {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
        if let Ok(Some(title)) = document.query_selector(".stage__title") {
            if title.get_bounding_client_rect().top() < 0.0 {
                title.scroll_into_view_with_bool(true);
            }
        }
    });
}

/// Previous, "step i of n" and next: above the stage and again below it.
#[component]
fn StepButtons(
    /// "" above the stage; "-bottom" below it (the buttons' test ids end in it).
    suffix: &'static str,
    /// Go to a stage and show its heading.
    go: Callback<Stage>,
) -> impl IntoView {
    let page = use_page();
    let stage = page.pick(|s| s.lesson().stage());
    view! {
        <div class="stepper__buttons">
            <button type="button" class="button" data-testid=format!("prev-stage{suffix}") disabled=move || stage.get().prev().is_none()
                on:click=move |_| { if let Some(p) = stage.get().prev() { go.run(p) } }>
                {page.text(Msg::Prev)}
            </button>
            <span class="stepper__count" data-testid=format!("stage-count{suffix}")>
                {move || step_of(page.lang.get(), stage.get())}
            </span>
            <button type="button" class="button button--primary" data-testid=format!("next-stage{suffix}") disabled=move || stage.get().next().is_none()
                on:click=move |_| { if let Some(n) = stage.get().next() { go.run(n) } }>
                {page.text(Msg::Next)}
            </button>
        </div>
    }
}

/// Bring stage 1's heading to the top of the screen (the overview's *Start*).
fn start_here() {
    if let Ok(Some(title)) = document().query_selector(".stage__title") {
        title.scroll_into_view_with_bool(true);
    }
}

/// Stage navigation and the active stage.
#[component]
pub fn Stepper() -> impl IntoView {
    let page = use_page();
    let stage = page.pick(|s| s.lesson().stage());
    let go = move |st: Stage| page.settings.update(|s| s.lesson_mut().set_stage(st));
    let go_and_show = Callback::new(move |st: Stage| {
        go(st);
        show_heading();
    });
    let total = Stage::ALL.len();

    view! {
        <section class="stepper" aria-label=page.text(Msg::StageNav)>
            <nav class="stepper__nav">
                <ol class="stepper__list">
                    {Stage::ALL.map(|st| view! {
                        <li>
                            <button type="button" class="stepper__stage" data-testid=format!("goto-{}", st.slug())
                                aria-current=move || (stage.get() == st).then_some("step")
                                on:click=move |_| go(st)>
                                {st.index() + 1} ". " {move || page.t(stage_name(st))}
                            </button>
                        </li>
                    })}
                </ol>
                <div class="stepper__progress" role="progressbar" aria-label=page.text(ClassMsg::LessonProgress) aria-valuemin="1" aria-valuemax=total.to_string()
                    aria-valuenow=move || (stage.get().index() + 1).to_string()>
                    <div class="stepper__bar" style:width=move || format!("{}%", (stage.get().index() + 1) * 100 / total)></div>
                </div>
                <StepButtons suffix="" go=go_and_show />
                // Screen readers hear the stage change.
                <p class="visually-hidden" aria-live="polite" data-testid="stage-announce">
                    {move || format!("{}: {}", step_of(page.lang.get(), stage.get()), page.t(stage_name(stage.get())))}
                </p>
            </nav>
            {move || match stage.get() {
                Stage::Input => view! { <Overview go=go_and_show /> <InputStage /> }.into_any(),
                Stage::Projection => view! { <ProjectionStage /> }.into_any(),
                Stage::Scores => view! { <ScoresStage /> }.into_any(),
                Stage::Scaling => view! { <ScalingStage /> }.into_any(),
                Stage::Softmax => view! { <SoftmaxStage /> }.into_any(),
                Stage::Output => view! { <OutputStage /> }.into_any(),
                Stage::MultiHead => view! { <MultiHeadStage /> <WhereNext /> }.into_any(),
            }}
            <nav class="stepper__nav stepper__nav--bottom" aria-label=page.text(Msg::StageNav)>
                <StepButtons suffix="-bottom" go=go_and_show />
            </nav>
        </section>
    }
}

/// Before the first stage: the one-line formula, named, with each of its pieces a button to
/// the stage that computes it.
#[component]
fn Overview(
    /// Opens a stage.
    go: Callback<Stage>,
) -> impl IntoView {
    let page = use_page();
    // The pieces as the formula writes them (the same in both languages).
    const PIECES: [(&str, Stage); 6] = [
        ("Q, K, V", Stage::Projection),
        ("QKᵀ", Stage::Scores),
        ("÷ √d_k", Stage::Scaling),
        ("softmax", Stage::Softmax),
        ("· V", Stage::Output),
        ("Concat · W_O", Stage::MultiHead),
    ];
    view! {
        <aside class="overview" data-testid="overview">
            <h2 class="overview__title">{page.text(LessonMsg::OverviewTitle)}</h2>
            <div class="stage__formula" tabindex="0" role="region" aria-label=page.text(ClassMsg::Formula)
                inner_html=Formula::Attention.mathml()></div>
            <button type="button" class="button button--primary overview__start" data-testid="start"
                on:click=|_| start_here()>{page.text(LessonMsg::Start)}</button>
            <p class="overview__text">{page.text(LessonMsg::OverviewText)}</p>
            <div class="overview__pieces" role="group" aria-label=page.text(LessonMsg::OverviewPieces)>
                {PIECES.map(|(piece, st)| view! {
                    <button type="button" class="button button--small" data-testid=format!("overview-{}", st.slug())
                        on:click=move |_| go.run(st)>
                        <span translate="no">{piece}</span> " → " {st.index() + 1} ". " {move || page.t(stage_name(st))}
                    </button>
                })}
            </div>
        </aside>
    }
}

/// After the last stage: where the lesson goes on (the saturation lab, a trained model's
/// weights, training one), each a button to its view.
#[component]
fn WhereNext() -> impl IntoView {
    let page = use_page();
    let current = page.pick(|s| s.view());
    const NEXT: [(View, LessonMsg); 3] = [
        (View::Saturation, LessonMsg::NextLab),
        (View::Model, LessonMsg::NextModel),
        (View::Learn, LessonMsg::NextLearn),
    ];
    view! {
        <aside class="next-steps" data-testid="where-next">
            <h2>{page.text(LessonMsg::NextTitle)}</h2>
            <ul class="where-next">
                {NEXT.map(|(v, text)| view! { <li>{view_link(page, current, v, "next")} " " {page.text(text)}</li> })}
            </ul>
        </aside>
    }
}
