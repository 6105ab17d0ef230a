//! √d_k, d_k or nothing: the chosen head's raw scores through the softmax three ways, side by
//! side, with the spread and the typical top weight of each, and the temperature identity.
//! The numbers come from `core::choices`, on the lesson's numbers the page hands over.

use crate::core::choices::{scaling_choices, Choices, Divisor, DIVISORS};
use crate::i18n::{fill, LessonMsg};
use crate::number::{show, Room};
use crate::side::handover::use_handed;
use crate::ui::charts::PageMap;
use crate::ui::specs::weights;
use crate::ui::{use_lesson_state, HeadPicker};
use leptos::prelude::*;

/// The three choices for the chosen head of the current outcome.
#[component]
pub fn ChoicesView() -> impl IntoView {
    let page = use_lesson_state();
    let head = use_handed().head;
    let computed = Memo::new(move |_| {
        page.outcome.with(|o| {
            let o = &o.as_ref()?.0;
            let h = o.trace().head(head.get())?;
            let c = scaling_choices(&h.scores, &o.trace().blocked, o.trace().d_k);
            Some((c, o.tokens.clone(), o.kv_tokens.clone(), o.trace().blocked.clone(), o.trace().d_k))
        })
    });
    let identity = move || {
        computed.with(|c| {
            c.as_ref().map(|(c, ..)| {
                fill(
                    page.t(LessonMsg::ChoicesIdentity),
                    &[("err", &if c.identity_error == 0.0 { "0".into() } else { format!("{:.1e}", c.identity_error) })],
                )
            })
        })
    };
    let columns = DIVISORS.into_iter().enumerate().map(|(i, divisor)| {
        let spec = Memo::new(move |_| {
            computed.with(|c| {
                let (choices, rows, cols, blocked, _) = c.as_ref()?;
                Some(weights(choices.choices.get(i)?.weights.clone(), rows, cols, blocked))
            })
        });
        let name = Signal::derive(move || {
            let d_k = computed.with(|c| c.as_ref().map_or(1, |c| c.4));
            let v = divisor.value(d_k);
            match divisor {
                Divisor::One => page.t(LessonMsg::ChoiceOne).to_string(),
                Divisor::SqrtDk => fill(page.t(LessonMsg::ChoiceSqrt), &[("v", &show(v, Room::Reading))]),
                Divisor::Dk => fill(page.t(LessonMsg::ChoiceDk), &[("v", &d_k.to_string())]),
            }
        });
        let readout = move |pick: fn(&Choices, usize) -> f32| {
            move || computed.with(|c| c.as_ref().map(|c| show(pick(&c.0, i), Room::Reading)).unwrap_or_default())
        };
        view! {
            <div class="choice" data-testid=format!("choice-{}", i + 1)>
                <PageMap spec=spec name=name testid="heatmap-choice" />
                <dl class="readouts">
                    <div class="readouts__item">
                        <dt>{page.text(LessonMsg::ChoiceStd)}</dt>
                        <dd data-testid="choice-std">{readout(|c, i| c.choices.get(i).map_or(0.0, |c| c.summary.score_std))}</dd>
                    </div>
                    <div class="readouts__item">
                        <dt>{page.text(LessonMsg::ChoiceTop)}</dt>
                        <dd data-testid="choice-top">{readout(|c, i| c.choices.get(i).map_or(0.0, |c| c.summary.median_max_weight))}</dd>
                    </div>
                </dl>
            </div>
        }
    });
    view! {
        // The page's place for the view gives it its section and title (`HostedView`).
        <div class="view__hosted">
            <p class="view__text">{page.text(LessonMsg::ChoicesIntro)}</p>
            <HeadPicker />
            <div class="stage__grid stage__grid--three">{columns.collect_view()}</div>
            <p class="stage__notice" data-testid="choices-identity">{identity}</p>
        </div>
    }
}
