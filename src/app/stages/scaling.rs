//! Stage 3: the scores before and after ÷√d_k, on one shared colour scale, with their spread.

use super::{from_head, from_outcome, StagePanel};
use crate::app::page::use_page;
use crate::i18n::Msg;
use crate::settings::Stage;
use crate::ui::charts::PageMap;
use crate::ui::specs::{scores_on, spread_text};
use crate::ui::HeadPicker;
use leptos::prelude::*;

/// S and S/√d_k side by side.
#[component]
pub fn ScalingStage() -> impl IntoView {
    let page = use_page();
    // One scale for both maps, fitted to the raw scores the mask leaves open; its keys grey.
    let before =
        from_head(|o, h, _| scores_on(h.scores.clone(), &h.scores, &o.tokens, o.kv_tokens.clone(), &o.trace().blocked));
    let after = from_head(|o, h, _| {
        scores_on(h.scaled_scores.clone(), &h.scores, &o.tokens, o.kv_tokens.clone(), &o.trace().blocked)
    });
    let spread_before = from_head(|o, h, lang| spread_text(lang, &h.scores, &o.trace().blocked));
    let spread_after = from_head(|o, h, lang| {
        format!("{} (÷ {:.3})", spread_text(lang, &h.scaled_scores, &o.trace().blocked), o.trace().scale)
    });
    // What the shown trace was computed with, not what the settings say now.
    let unscaled = from_outcome(|o, _| !o.trace().scaled);
    let off = move || unscaled.get() == Some(true);
    let after_name = Signal::derive(move || page.t(if off() { Msg::MatScaledOff } else { Msg::MatScaled }).to_string());
    view! {
        <StagePanel stage=Stage::Scaling>
            <HeadPicker />
            <div class="stage__grid">
                <div>
                    <PageMap spec=before name=page.label(Msg::MatScores) testid="heatmap-scores-raw" />
                    <p class="stage__stat" data-testid="spread-raw">{move || spread_before.get().unwrap_or_default()}</p>
                </div>
                <div>
                    <PageMap spec=after name=after_name testid="heatmap-scores-scaled" />
                    <p class="stage__stat" data-testid="spread-scaled">{move || spread_after.get().unwrap_or_default()}</p>
                </div>
            </div>
            <p class="stage__note" data-testid="scaling-note">{move || off().then(|| page.t(Msg::ScalingOff))}</p>
        </StagePanel>
    }
}
