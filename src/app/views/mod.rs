//! The views reachable from the navigation bar: the lesson, and the deeper lessons. Only
//! the active view is mounted, so only its numbers are computed and its canvases drawn. The
//! views of a module of their own (`bridge::Hosted`) are places for it here.

mod padding;
mod patterns;
mod variants;

use super::module_host::{hand_over, HostedView};
use super::page::{use_page, Page};
use super::saturation::SaturationLab;
use super::stepper::Stepper;
use crate::bridge::Hosted;
use crate::i18n::{t, Lang, LearnMsg, LessonMsg, ModelMsg, Pair, Text, ViewMsg};
use crate::settings::{Chapter, View};
use leptos::prelude::*;

/// The name of view `v` in the navigation.
fn view_name(lang: Lang, v: View) -> &'static str {
    match v {
        View::Lesson => t(lang, ViewMsg::NavLesson),
        View::Saturation => t(lang, ViewMsg::NavSaturation),
        View::Variance => t(lang, ViewMsg::NavVariance),
        View::ScalingChoices => t(lang, LessonMsg::NavChoices),
        View::Convex => t(lang, LessonMsg::NavConvex),
        View::Position => t(lang, LessonMsg::NavPosition),
        View::Variants => t(lang, ViewMsg::NavVariants),
        View::Patterns => t(lang, ViewMsg::NavPatterns),
        View::Graph => t(lang, ViewMsg::NavGraph),
        View::Block => t(lang, LessonMsg::NavBlock),
        View::RnnCnn => t(lang, LessonMsg::NavRnnCnn),
        View::Complexity => t(lang, ViewMsg::NavComplexity),
        View::Model => t(lang, ViewMsg::NavModel),
        View::Coref => t(lang, ViewMsg::NavCoref),
        View::Learn => t(lang, LearnMsg::Nav),
    }
}

/// Open view `v` at its top (the page's main column), not where the last one was scrolled to,
/// once it is drawn.
pub(crate) fn open_view(page: Page, v: View) {
    page.settings.update(|s| s.set_view(v));
    request_animation_frame(|| {
        if let Ok(Some(main)) = document().query_selector(".page__main") {
            if main.get_bounding_client_rect().top() < 0.0 {
                main.scroll_into_view();
            }
        }
    });
}

/// A button that opens view `v`, named as the navigation names it, marked when `current` is
/// `v`; its test id is `{prefix}-{slug}`.
pub(crate) fn view_link(page: Page, current: Memo<View>, v: View, prefix: &'static str) -> impl IntoView {
    view! {
        <button type="button" class="views__link" data-testid=format!("{prefix}-{}", v.slug())
            aria-current=move || (current.get() == v).then_some("page")
            on:click=move |_| open_view(page, v)>
            {move || view_name(page.lang.get(), v)}
        </button>
    }
}

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
