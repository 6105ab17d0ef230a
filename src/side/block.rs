//! Where attention sits: one Transformer block drawn as boxes (input, multi-head attention,
//! add & LayerNorm, feed-forward, add & LayerNorm, repeated N times) with the part this site
//! explains highlighted, and a way into its lesson.

use crate::i18n::LessonMsg;
use crate::settings::View;
use crate::ui::use_lesson_state;
use leptos::prelude::*;

/// Width of the drawing's coordinate space; boxes are centred in it.
const WIDTH: f64 = 450.0;
/// Height of one box and the gap between boxes.
const BOX_H: f64 = 46.0;
const GAP: f64 = 30.0;
/// Left edge and width of the boxes (room on the left for the residual lines).
const BOX_X: f64 = 70.0;
const BOX_W: f64 = 365.0;

/// The boxes from input to output, and whether each is the site's subject.
const BOXES: [(LessonMsg, bool); 6] = [
    (LessonMsg::BlockInput, false),
    (LessonMsg::BlockAttention, true),
    (LessonMsg::BlockAddNorm, false),
    (LessonMsg::BlockFfn, false),
    (LessonMsg::BlockAddNorm, false),
    (LessonMsg::BlockRepeat, false),
];

/// Top of box `i`.
fn top(i: usize) -> f64 {
    10.0 + i as f64 * (BOX_H + GAP)
}

/// The diagram and its explanation.
#[component]
pub fn BlockView() -> impl IntoView {
    let page = use_lesson_state();
    let height = top(BOXES.len()) + 10.0 - GAP;
    let boxes = BOXES
        .iter()
        .enumerate()
        .map(|(i, &(label, ours))| {
            let y = top(i);
            let class = if ours { "block__box block__box--ours" } else { "block__box" };
            let arrow = (i + 1 < BOXES.len()).then(|| {
                let (x, y0, y1) = (BOX_X + BOX_W / 2.0, y + BOX_H, y + BOX_H + GAP);
                view! { <line class="block__arrow" x1=x y1=y0 x2=x y2=y1 marker-end="url(#block-head)" /> }
            });
            view! {
                <g data-testid=if ours { "block-attention" } else { "block-part" }>
                    <rect class=class x=BOX_X y=y width=BOX_W height=BOX_H rx="8"
                        stroke-dasharray=if i + 1 == BOXES.len() { "6 4" } else { "none" } />
                    <text class="block__label" x=BOX_X + BOX_W / 2.0 y=y + BOX_H / 2.0 text-anchor="middle" dominant-baseline="middle">
                        {move || page.t(label)}
                    </text>
                </g>
                {arrow}
            }
        })
        .collect_view();
    // A residual line from the middle of box `from` round the left to the middle of box `to`.
    let residual = |from: usize, to: usize| {
        let (y0, y1) = (top(from) + BOX_H / 2.0, top(to) + BOX_H / 2.0);
        let d = format!("M {BOX_X} {y0} H 30 V {y1} H {}", BOX_X - 2.0);
        view! {
            <path class="block__residual" d=d marker-end="url(#block-head)" />
            <text class="block__note" x="8" y=(y0 + y1) / 2.0 transform=format!("rotate(-90 14 {})", (y0 + y1) / 2.0)>
                {move || page.t(LessonMsg::BlockResidual)}
            </text>
        }
    };
    view! {
        <>
            <p class="view__text">{page.text(LessonMsg::BlockIntro)}</p>
            <svg class="block" viewBox=format!("0 0 {WIDTH} {height}") role="img" aria-label=page.label(LessonMsg::BlockTitle)>
                <defs>
                    <marker id="block-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="block__head" />
                    </marker>
                </defs>
                {residual(0, 2)}
                {residual(2, 4)}
                {boxes}
            </svg>
            <button type="button" class="button view__action" data-testid="block-open-lesson"
                on:click=move |_| page.settings.update(|s| s.set_view(View::Lesson))>
                {page.text(LessonMsg::BlockOpen)}
            </button>
        </>
    }
}
