//! Stage 4: softmax row by row (masked cells grey), the row-sum check, and the chosen query's
//! weights as bars.

use super::{captioned, from_head, HeadPicker, StagePanel};
use crate::app::charts::{BarChart, Bars};
use crate::app::heatmap::Heatmap;
use crate::app::specs::{num, weights};
use crate::app::{formulas, state::use_lab};
use crate::i18n::{fill, Msg};
use crate::settings::Stage;
use leptos::prelude::*;

/// The weights of the chosen head and one query row as bars.
#[component]
pub fn SoftmaxStage() -> impl IntoView {
    let lab = use_lab();
    let query = lab.pick(|s| s.query);
    let a = from_head(|o, h, _| weights(h.weights.clone(), &o.tokens, &o.kv_tokens, &o.trace.blocked));
    // The largest |row sum − 1| over rows that may attend to something.
    let deviation = from_head(|o, h, _| {
        h.weights
            .rows()
            .into_iter()
            .zip(o.trace.blocked.rows())
            .filter(|(_, b)| b.iter().any(|x| !x))
            .map(|(r, _)| (r.sum() - 1.0).abs())
            .fold(0.0f32, f32::max)
    });
    let row = from_head(move |o, h, _| {
        let q = query.get().min(o.tokens.len() - 1);
        (
            o.tokens[q].clone(),
            Bars {
                weights: h.weights.row(q).to_vec(),
                labels: o.kv_tokens.clone(),
                blocked: o.trace.blocked.row(q).to_vec(),
            },
        )
    });
    let bars = Signal::derive(move || row.with(|r| r.as_ref().map(|r| r.1.clone()).unwrap_or(Bars { weights: vec![], labels: vec![], blocked: vec![] })));
    let bar_caption = Signal::derive(move || row.with(|r| r.as_ref().map(|r| fill(lab.t(Msg::RowChart), &[("tok", &r.0)])).unwrap_or_default()));
    let detail = Callback::new(move |(r, c): (usize, usize)| {
        a.with(|s| {
            let Some(s) = s else { return String::new() };
            let masked = s.blocked.as_ref().is_some_and(|b| b[[r, c]]);
            let v = if masked { lab.t(Msg::Masked).to_string() } else { num(s.values[[r, c]]) };
            format!("A[{}, {}] = {v}", s.row_labels[r], s.col_labels[c])
        })
    });
    let pick = Callback::new(move |(r, _): (usize, usize)| lab.settings.update(|s| s.query = r));
    let tokens = lab.tokens;

    view! {
        <StagePanel stage=Stage::Softmax formula=formulas::SOFTMAX explain=Msg::ExplainSoftmax notice=Msg::NoticeSoftmax>
            <HeadPicker />
            <Heatmap spec=a caption=captioned(a, Msg::MatWeights) testid="heatmap-weights" detail=detail on_pick=pick />
            <p class="stage__stat" data-testid="row-sum-check">
                {move || deviation.get().map(|d| fill(lab.t(Msg::RowSums), &[("dev", &format!("{d:.1e}"))])).unwrap_or_default()}
            </p>
            <div class="field field--row">
                <label class="field__label" for="query-row">{lab.text(Msg::QueryRow)}</label>
                <select id="query-row" data-testid="query-select"
                    prop:value=move || query.get().to_string()
                    on:change=move |ev| { if let Ok(q) = event_target_value(&ev).parse::<usize>() { lab.settings.update(|s| s.query = q) } }>
                    {move || tokens.get().into_iter().enumerate().map(|(i, t)| view! {
                        <option value=i.to_string() selected=i == query.get_untracked()>{format!("{}. {t}", i + 1)}</option>
                    }).collect_view()}
                </select>
            </div>
            <BarChart bars=bars caption=bar_caption testid="chart-query-row" />
        </StagePanel>
    }
}
