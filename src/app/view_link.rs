//! A button to a view, as the navigation names it, and opening a view at its top: what the
//! navigation, the lesson's last stage and its links to the lab share (none of them imports
//! another for it).

use super::page::Page;
use crate::i18n::{t, Lang, LearnMsg, LessonMsg, ViewMsg};
use crate::settings::View;
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
pub fn open_view(page: Page, v: View) {
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
pub fn view_link(page: Page, current: Memo<View>, v: View, prefix: &'static str) -> impl IntoView {
    view! {
        <button type="button" class="views__link" data-testid=format!("{prefix}-{}", v.slug())
            aria-current=move || (current.get() == v).then_some("page")
            on:click=move |_| open_view(page, v)>
            {move || view_name(page.lang.get(), v)}
        </button>
    }
}
