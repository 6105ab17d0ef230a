//! The views reachable from the navigation bar: the lesson, and the deeper lessons. Only
//! the active view is mounted, so only its numbers are computed and its canvases drawn. The
//! views of a module of their own (`bridge::Hosted`) are places for it here.

mod padding;
mod patterns;
mod variants;

use super::module_host::{hand_over, HostedView};
use super::page::use_page;
use super::saturation::SaturationLab;
use super::stepper::Stepper;
use super::view_link::view_link;
use crate::bridge::Hosted;
use crate::i18n::{LearnMsg, LessonMsg, ModelMsg, Pair, Text, ViewMsg};
use crate::settings::{Chapter, View};
use leptos::prelude::*;

/// The name of chapter `c`.
fn chapter_name(c: Chapter) -> LessonMsg {
    match c {
        Chapter::Lesson => LessonMsg::ChapterLesson,
        Chapter::Why => LessonMsg::ChapterWhy,
        Chapter::Variants => LessonMsg::ChapterVariants,
        Chapter::Models => LessonMsg::ChapterModels,
        Chapter::Efficiency => LessonMsg::ChapterEfficiency,
    }
}

/// The navigation between views, grouped in chapters; every view is one click away (on a
/// phone the row scrolls sideways).
#[component]
pub fn ViewNav() -> impl IntoView {
    let page = use_page();
    let current = page.pick(|s| s.view());
    let chapters = Chapter::ALL.map(|c| {
        let links = c.views().map(|v| view_link(page, current, v, "nav")).collect_view();
        view! {
            <div class="views__chapter" role="group" aria-label=move || page.t(chapter_name(c))
                data-testid=format!("chapter-{}", c.slug())>
                <span class="views__chapter-name" aria-hidden="true">{move || page.t(chapter_name(c))}</span>
                {links}
            </div>
        }
    });
    view! {
        <nav class="views" aria-label=page.text(ViewMsg::NavLabel)>{chapters}</nav>
    }
}

/// A side lesson that is the side lessons' module's (`crate::side`), `testid` with `title`.
fn side_lesson(testid: &'static str, title: impl Text) -> AnyView {
    side_view(testid, title.pair())
}

/// [`side_lesson`], compiled once.
fn side_view(testid: &'static str, title: Pair) -> AnyView {
    view! {
        <HostedView module=Hosted::Side testid=testid title=title
            loading=LessonMsg::SideLoading.pair() failed=LessonMsg::SideFailed.pair() />
    }
    .into_any()
}

/// A side lesson that draws the lesson's numbers, handed over to the module while it is open.
#[component]
fn NumbersLesson(
    /// `data-testid` of the view.
    testid: &'static str,
    /// Its title.
    title: Pair,
) -> impl IntoView {
    hand_over(use_page());
    side_view(testid, title)
}

/// The active view.
#[component]
pub fn ActiveView() -> impl IntoView {
    let page = use_page();
    let current = page.pick(|s| s.view());
    move || match current.get() {
        View::Lesson => view! { <Stepper /> }.into_any(),
        View::Saturation => view! { <SaturationLab /> }.into_any(),
        View::Variance => side_lesson("view-variance", ViewMsg::VarTitle),
        View::Variants => view! { <variants::VariantsView /> }.into_any(),
        View::Patterns => view! { <patterns::PatternsView /> }.into_any(),
        View::Graph => view! { <NumbersLesson testid="view-graph" title=ViewMsg::GraphTitle.pair() /> }.into_any(),
        View::Complexity => {
            view! { <NumbersLesson testid="view-complexity" title=ViewMsg::CxTitle.pair() /> }.into_any()
        }
        View::ScalingChoices => {
            view! { <NumbersLesson testid="view-scaling-choices" title=LessonMsg::ChoicesTitle.pair() /> }.into_any()
        }
        View::Convex => view! { <NumbersLesson testid="view-convex" title=LessonMsg::ConvexTitle.pair() /> }.into_any(),
        View::Position => side_lesson("view-position", LessonMsg::PositionTitle),
        View::RnnCnn => side_lesson("view-rnn-cnn", LessonMsg::RnnCnnTitle),
        View::Block => side_lesson("view-block", LessonMsg::BlockTitle),
        View::Model => view! {
            <HostedView module=Hosted::Pretrained testid="view-model" title=ModelMsg::ModelTitle.pair()
                loading=ModelMsg::ModuleLoading.pair() failed=ModelMsg::ModuleFailed.pair() />
        }
        .into_any(),
        View::Coref => view! {
            <HostedView module=Hosted::Pretrained testid="view-coref" title=ModelMsg::CorefTitle.pair()
                loading=ModelMsg::ModuleLoading.pair() failed=ModelMsg::ModuleFailed.pair() />
        }
        .into_any(),
        View::Learn => view! {
            <HostedView module=Hosted::Learn testid="view-learn" title=LearnMsg::Title.pair()
                loading=LearnMsg::Loading.pair() failed=LearnMsg::LoadFailed.pair() />
        }
        .into_any(),
    }
}
