//! The views reachable from the navigation bar: the lesson, and the deeper lessons. Only
//! the active view is mounted, so only its numbers are computed and its canvases drawn.

mod complexity;
mod coref;
mod graph;
mod model;
mod patterns;
mod variance;
mod variants;

use super::page::use_page;
use super::saturation::SaturationLab;
use super::stepper::Stepper;
use crate::i18n::ViewMsg;
use crate::settings::View;
use leptos::prelude::*;

fn view_name(v: View) -> ViewMsg {
    match v {
        View::Lesson => ViewMsg::NavLesson,
        View::Variance => ViewMsg::NavVariance,
        View::Variants => ViewMsg::NavVariants,
        View::Patterns => ViewMsg::NavPatterns,
        View::Graph => ViewMsg::NavGraph,
        View::Complexity => ViewMsg::NavComplexity,
        View::Model => ViewMsg::NavModel,
        View::Coref => ViewMsg::NavCoref,
    }
}

/// The navigation between views.
#[component]
pub fn ViewNav() -> impl IntoView {
    let page = use_page();
    let current = page.pick(|s| s.view);
    view! {
        <nav class="views" aria-label=page.text(ViewMsg::NavLabel)>
            {View::ALL.map(|v| view! {
                <button type="button" class="views__link" data-testid=format!("nav-{}", v.slug())
                    aria-current=move || (current.get() == v).then_some("page")
                    on:click=move |_| page.settings.update(|s| s.view = v)>
                    {move || page.t(view_name(v))}
                </button>
            })}
        </nav>
    }
}

/// The active view.
#[component]
pub fn ActiveView() -> impl IntoView {
    let page = use_page();
    let current = page.pick(|s| s.view);
    move || match current.get() {
        View::Lesson => view! { <Stepper /> <SaturationLab /> }.into_any(),
        View::Variance => view! { <variance::VarianceView /> }.into_any(),
        View::Variants => view! { <variants::VariantsView /> }.into_any(),
        View::Patterns => view! { <patterns::PatternsView /> }.into_any(),
        View::Graph => view! { <graph::GraphView /> }.into_any(),
        View::Complexity => view! { <complexity::ComplexityView /> }.into_any(),
        View::Model => view! { <model::ModelView /> }.into_any(),
        View::Coref => view! { <coref::CorefView /> }.into_any(),
    }
}
