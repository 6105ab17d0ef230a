//! Positional encoding's relative-position property: PE · PEᵀ over 32 positions (constant
//! along every diagonal), an offset slider, and how exactly one rotation moves every position
//! by that offset. The numbers come from `core::position`.

use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::core::position::{position_gram, shift_error};
use crate::i18n::{fill, LessonMsg};
use crate::number::parse_decimal;
use crate::number::{show, Room};
use crate::ui::charts::PageMap;
use crate::ui::specs::{indices, signed};
use crate::ui::use_lesson_state;
use leptos::prelude::*;

/// Positions shown in the map.
const POSITIONS: usize = 32;
/// The largest offset the slider offers.
const MAX_OFFSET: usize = 16;

/// The Gram matrix of the encoding and the rotation check.
#[component]
pub fn PositionView() -> impl IntoView {
    let page = use_lesson_state();
    // The sinusoidal encoding of the random-weights lesson, at its width.
    let d_model = page.pick(|s| s.choice().random().d_model);
    let (offset, set_offset) = signal(1usize);
    let gram = Memo::new(move |_| position_gram(POSITIONS, d_model.get()));
    let spec = Memo::new(move |_| {
        let labels = indices(POSITIONS);
        // A sequential scale from the smallest entry to the largest shows the bands that a
        // diverging one, centred on 0, would wash out.
        Some(gram.with(|g| {
            let (min, max) = g.iter().fold((f32::MAX, f32::MIN), |(a, b), v| (a.min(*v), b.max(*v)));
            HeatmapSpec { scale: Scale::Sequential { min, max }, ..signed(g.clone(), &labels, labels.clone()) }
        }))
    });
    let name = Signal::derive(move || {
        fill(page.t(LessonMsg::PositionGram), &[("n", &POSITIONS.to_string()), ("d", &d_model.get().to_string())])
    });
    let error = move || format!("{:.1e}", shift_error(POSITIONS, d_model.get(), offset.get()));
    let diagonal = move || {
        let k = offset.get();
        let v = gram.with(|g| g.get((0, k)).copied().unwrap_or(0.0));
        fill(page.t(LessonMsg::PositionDiagonal), &[("v", &show(v, Room::Reading))])
    };
    view! {
        <>
            <p class="view__text">{page.text(LessonMsg::PositionIntro)}</p>
            <div class="view__controls">
                <label class="field__label" for="pe-offset">
                    {move || fill(page.t(LessonMsg::PositionOffset), &[("k", &offset.get().to_string())])}
                </label>
                <input id="pe-offset" type="range" min="1" max=MAX_OFFSET.to_string() step="1" data-testid="position-offset"
                    prop:value=move || offset.get().to_string()
                    on:input=move |ev| {
                        if let Some(v) = parse_decimal(&event_target_value(&ev)) {
                            set_offset.set((v.round().max(1.0) as usize).min(MAX_OFFSET));
                        }
                    } />
            </div>
            <dl class="readouts">
                <div class="readouts__item">
                    <dt>{page.text(LessonMsg::PositionError)}</dt>
                    <dd data-testid="position-error">{error}</dd>
                </div>
            </dl>
            <PageMap spec=spec name=name testid="heatmap-position" />
            <p class="stage__notice" data-testid="position-diagonal">{diagonal}</p>
        </>
    }
}
