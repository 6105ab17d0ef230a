//! Every output is a weighted average of the values: the chosen head's value vectors
//! projected onto their principal plane, their convex hull, and the chosen query's output
//! moving inside it as this picture's temperature changes. The numbers come from
//! `core::convex` and the core's softmax; this view only places them.

use crate::core::convex::{combine, hull, inside, Plane, Point};
use crate::core::softmax::softmax_row;
use crate::i18n::{fill, LessonMsg};
use crate::number::parse_decimal;
use crate::number::{show, Room};
use crate::shared::Shared;
use crate::side::handover::{pick_query, use_handed};
use crate::ui::use_lesson_state;
use crate::ui::HeadPicker;
use leptos::prelude::*;
use std::sync::Arc;

/// Side of the square drawing, and the room kept at its edges for labels.
const SIZE: f64 = 420.0;
const MARGIN: f64 = 48.0;
/// The temperature slider runs over 10^−1 … 10^1.
const LOG_T: (f64, f64) = (-1.0, 1.0);

/// What the picture is drawn from.
#[derive(Debug, Clone, PartialEq)]
struct Picture {
    labels: Vec<String>,
    points: Vec<Point>,
    hull: Vec<usize>,
    weights: Vec<f32>,
    output: Point,
    inside: bool,
}

/// The picture for one query.
#[component]
pub fn ConvexView() -> impl IntoView {
    let page = use_lesson_state();
    let handed = use_handed();
    let head = handed.head;
    // The picture starts at the lesson's own temperature, so its first output is the trace's.
    let start_t = page.outcome.with_untracked(|o| o.as_ref().map_or(1.0, |o| o.0.trace().temperature));
    let (log_t, set_log_t) = signal(f64::from(start_t).log10().clamp(LOG_T.0, LOG_T.1));
    let query = Memo::new(move |_| {
        let n = page.tokens.with(Vec::len);
        handed.query.get().min(n.saturating_sub(1))
    });
    // The values' plane and hull depend on the head only; the slider moves just the output.
    let values = Memo::new(move |_| {
        page.outcome.with(|o| {
            let o = &o.as_ref()?.0;
            let h = o.trace().head(head.get())?;
            let points = Plane::fit(&h.v)?.project_rows(&h.v);
            let hull = hull(&points);
            Some(Shared(Arc::new((points, hull))))
        })
    });
    let picture = Memo::new(move |_| {
        let Shared(values) = values.get()?;
        let (points, hull) = &*values;
        page.outcome.with(|o| {
            let o = &o.as_ref()?.0;
            let h = o.trace().head(head.get())?;
            let i = query.get();
            let (scores, blocked) = (h.scaled_scores.row(i).to_vec(), o.trace().blocked.row(i).to_vec());
            let mut weights = vec![0.0; scores.len()];
            softmax_row(&scores, Some(&blocked), 10f64.powf(log_t.get()) as f32, &mut weights);
            let output = combine(ndarray::ArrayView1::from(&weights), points);
            let polygon: Vec<Point> = hull.iter().map(|&j| points[j]).collect();
            let spread = points.iter().fold(0.0f64, |m, p| m.max(p.0.abs()).max(p.1.abs()));
            let inside = inside(&polygon, output, 1e-6 * (1.0 + spread * spread));
            Some(Picture {
                labels: o.kv_tokens.clone(),
                points: points.clone(),
                hull: hull.clone(),
                weights,
                output,
                inside,
            })
        })
    });
    let svg = move || {
        picture.with(|p| {
            let p = p.as_ref()?;
            let (lo, hi) = p.points.iter().chain(std::iter::once(&p.output)).fold(
                ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN)),
                |(lo, hi), q| ((lo.0.min(q.0), lo.1.min(q.1)), (hi.0.max(q.0), hi.1.max(q.1))),
            );
            let span = (hi.0 - lo.0).max(hi.1 - lo.1).max(1e-9);
            // One scale for both axes (distances stay true), the points centred in the square.
            let s = (SIZE - 2.0 * MARGIN) / span;
            let pad = ((span - (hi.0 - lo.0)) * s / 2.0, (span - (hi.1 - lo.1)) * s / 2.0);
            let at = |q: Point| (MARGIN + pad.0 + (q.0 - lo.0) * s, SIZE - MARGIN - pad.1 - (q.1 - lo.1) * s);
            let polygon = p.hull.iter().map(|&j| at(p.points[j])).map(|(x, y)| format!("{x:.1},{y:.1}")).collect::<Vec<_>>();
            let o = at(p.output);
            let edges = p
                .points
                .iter()
                .zip(&p.weights)
                .filter(|(_, w)| **w > 0.005)
                .map(|(q, w)| {
                    let (x, y) = at(*q);
                    view! { <line class="convex__edge" x1=o.0 y1=o.1 x2=x y2=y stroke-width=format!("{:.2}", 0.5 + 10.0 * w) /> }
                })
                .collect_view();
            let dots = p
                .points
                .iter()
                .zip(&p.labels)
                .map(|(q, label)| {
                    let (x, y) = at(*q);
                    // Labels on the right half end at their dot, so none runs off the edge.
                    let (label_x, anchor) = if x > SIZE / 2.0 { (x - 7.0, "end") } else { (x + 7.0, "start") };
                    view! {
                        <circle class="convex__value" cx=x cy=y r="5" />
                        <text class="convex__label" x=label_x y=y - 7.0 text-anchor=anchor>{label.clone()}</text>
                    }
                })
                .collect_view();
            Some(view! {
                <svg class="convex" viewBox=format!("0 0 {SIZE} {SIZE}") role="img" data-testid="convex-svg"
                    aria-label=page.label(LessonMsg::ConvexPicture)>
                    <polygon class="convex__hull" points=polygon.join(" ") />
                    {edges}
                    {dots}
                    <circle class="convex__output" cx=o.0 cy=o.1 r="9" data-testid="convex-output" />
                </svg>
            })
        })
    };
    let tokens = page.tokens;
    view! {
        // The page's place for the view gives it its section and title (`HostedView`).
        <div class="view__hosted">
            <p class="view__text">{page.text(LessonMsg::ConvexIntro)}</p>
            <HeadPicker />
            <div class="view__controls">
                <label class="field__label" for="convex-query">{page.text(LessonMsg::ConvexQuery)}</label>
                <select id="convex-query" data-testid="convex-query"
                    on:change=move |ev| {
                        if let Some(i) = parse_decimal(&event_target_value(&ev)) {
                            pick_query(i as usize);
                        }
                    }>
                    {move || tokens.get().into_iter().enumerate().map(|(i, t)| view! {
                        <option value=i.to_string() selected=move || query.get() == i>{t}</option>
                    }).collect_view()}
                </select>
                <label class="field__label" for="convex-t">
                    {move || fill(page.t(LessonMsg::ConvexTemperature), &[("t", &show(10f64.powf(log_t.get()) as f32, Room::Reading))])}
                </label>
                <input id="convex-t" type="range" data-testid="convex-temperature" step="0.05"
                    min=LOG_T.0.to_string() max=LOG_T.1.to_string() prop:value=move || log_t.get().to_string()
                    on:input=move |ev| {
                        if let Some(v) = parse_decimal(&event_target_value(&ev)) {
                            set_log_t.set(v.clamp(LOG_T.0, LOG_T.1));
                        }
                    } />
            </div>
            <figure class="chart">
                <figcaption class="chart__caption">{page.text(LessonMsg::ConvexPicture)}</figcaption>
                {svg}
            </figure>
            <p class="stage__notice" data-testid="convex-inside">
                {move || picture.with(|p| p.as_ref().map(|p| {
                    let yes = page.t(if p.inside { LessonMsg::Yes } else { LessonMsg::No });
                    fill(page.t(LessonMsg::ConvexInside), &[("inside", yes)])
                }))}
            </p>
        </div>
    }
}
