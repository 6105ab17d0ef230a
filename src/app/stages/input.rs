//! Stage 0: the input X = embedding + positional encoding.

use super::{from_outcome, StagePanel};
use crate::app::page::use_page;
use crate::core::model::{Cutting, InputRule, Origin};
use crate::core::tokenize::is_cjk;
use crate::i18n::{ModelMsg, Msg};
use crate::number::{show, Room};
use crate::settings::Stage;
use crate::ui::charts::PageMap;
use crate::ui::specs::{indices, signed};
use leptos::prelude::*;

/// E, PE and X for the query sentence.
#[component]
pub fn InputStage() -> impl IntoView {
    let page = use_page();
    let e = from_outcome(|o, _| signed(o.embedding().clone(), &o.tokens, indices(o.trace().d_model())));
    let pe = from_outcome(|o, _| o.positional().map(|pe| signed(pe.clone(), &o.tokens, indices(o.trace().d_model()))));
    let pe_spec = Memo::new(move |_| pe.get().flatten());
    let x = from_outcome(|o, _| signed(o.trace().x.clone(), &o.tokens, indices(o.trace().d_model())));
    let x_detail = Callback::new(move |(r, c): (usize, usize)| {
        page.outcome
            .with(|o| {
                let o = &o.as_ref()?.0;
                let e = *o.embedding().get((r, c))?;
                let pe = o.positional().and_then(|p| p.get((r, c)).copied()).unwrap_or(0.0);
                let (token, x) = (o.tokens.get(r)?, show(*o.trace().x.get((r, c))?, Room::Reading));
                let c = c + 1; // columns are counted from 1 on screen
                Some(match (o.shape().input, o.layer) {
                    (InputRule::LearnedNormed, 0) => {
                        format!(
                            "X[{token}, {c}] = LayerNorm(E + PE)[{c}] = {x}   (E = {}, PE = {})",
                            show(e, Room::Reading),
                            show(pe, Room::Reading)
                        )
                    }
                    (_, 0) => format!(
                        "X[{token}, {c}] = E + PE = {} + {} = {x}",
                        show(e, Room::Reading),
                        show(pe, Room::Reading)
                    ),
                    // The output of the layer before: H⁽ˡ⁾ for layer l, 1-based.
                    (_, l) => format!("X[{token}, {c}] = H{}[{token}, {c}] = {x}", superscript(l)),
                })
            })
            .unwrap_or_default()
    });
    let input = Memo::new(move |_| page.outcome.with(|o| o.as_ref().map(|o| o.0.shape().input)));
    // Chinese sentences are cut into characters (but not by SentencePiece, whose own note
    // says how it cuts them): say why, where the tokens first appear.
    let cjk = from_outcome(|o, _| {
        let pieces = matches!(o.shape().origin, Origin::Pretrained { cutting: Cutting::Unigram, .. });
        !pieces && o.tokens.iter().any(|t| t.chars().any(is_cjk))
    });
    view! {
        <StagePanel stage=Stage::Input>
            {move || match input.get() {
                Some(InputRule::LearnedNormed) => Some(view! { <p class="stage__note">{page.text(ModelMsg::InputPretrained)}</p> }),
                Some(InputRule::Learned) => Some(view! { <p class="stage__note">{page.text(ModelMsg::InputYours)}</p> }),
                Some(InputRule::SinusoidalTrained) => Some(view! { <p class="stage__note">{page.text(ModelMsg::InputYoursSinusoidal)}</p> }),
                Some(InputRule::Rotary) => Some(view! { <p class="stage__note">{page.text(ModelMsg::InputYoursRotary)}</p> }),
                _ => None,
            }}
            <Show when=move || cjk.get() == Some(true)>
                <p class="stage__note" data-testid="tokens-cjk">{page.text(Msg::TokensCjk)}</p>
            </Show>
            <div class="stage__stack">
                <PageMap spec=e name=page.label(Msg::MatEmbedding) testid="heatmap-embedding" />
                <Show when=move || pe_spec.with(Option::is_some)
                    fallback=move || view! { <p class="stage__note">{page.text(Msg::PositionalOff)}</p> }>
                    <PageMap spec=pe_spec name=page.label(Msg::MatPositional) testid="heatmap-positional" />
                </Show>
                <PageMap spec=x name=page.label(Msg::MatInput) testid="heatmap-x" detail=x_detail />
            </div>
        </StagePanel>
    }
}

/// "⁽³⁾" for 3: the layer index as a superscript in parentheses.
fn superscript(n: usize) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits: String = n.to_string().chars().filter_map(|d| d.to_digit(10).map(|d| DIGITS[d as usize])).collect();
    format!("⁽{digits}⁾")
}
