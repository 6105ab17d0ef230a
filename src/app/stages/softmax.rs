//! Stage 4: softmax row by row (masked cells grey), the row-sum check, and the chosen query's
//! weights as bars.

use super::{from_head, StagePanel};
use crate::app::controls::TokenOptions;
use crate::app::page::use_page;
use crate::i18n::{fill, Msg};
use crate::number::{show, Room};
use crate::reading::weight_in_words;
use crate::settings::Stage;
use crate::ui::charts::{BarChart, Bars, PageMap};
use crate::ui::specs::weights;
use crate::ui::HeadPicker;
use leptos::prelude::*;

/// The weights of the chosen head and one query row as bars.
#[component]
pub fn SoftmaxStage() -> impl IntoView {
    let page = use_page();
    let query = page.pick(|s| s.lesson().query());
    let a = from_head(|o, h, _| weights(h.weights.clone(), &o.tokens, &o.kv_tokens, &o.trace().blocked));
    let deviation = from_head(|o, h, _| o.trace().row_sum_deviation(h));
    // The chosen query's row, read from the weights' own spec (labels and mask included).
    let row = Memo::new(move |_| {
        let q = query.get();
        a.with(|s| {
            let s = s.as_ref()?;
            // The label first: it exists only for rows the spec has.
            let token = s.row_labels.get(q)?.clone();
            let blocked = s.blocked.as_ref().map(|b| b.row(q).to_vec()).unwrap_or_default();
            Some((token, Bars { weights: s.values.row(q).to_vec(), labels: s.col_labels.clone(), blocked }))
        })
    });
    let bars = Signal::derive(move || row.with(|r| r.as_ref().map(|r| r.1.clone()).unwrap_or_default()));
    let bar_caption = Signal::derive(move || {
        row.with(|r| r.as_ref().map(|r| fill(page.t(Msg::RowChart), &[("tok", &r.0)])).unwrap_or_default())
    });
    let detail = Callback::new(move |(r, c): (usize, usize)| {
        a.with(|s| {
            let s = s.as_ref()?;
            let masked = s.blocked.as_ref().is_some_and(|b| b.get((r, c)) == Some(&true));
            let (q, k) = (s.row_labels.get(r)?, s.col_labels.get(c)?);
            if masked {
                return Some(format!("A[{q}, {k}] = {}", page.t(Msg::Masked)));
            }
            let w = *s.values.get((r, c))?;
            Some(format!(
                "A[{q}, {k}] = {}: {}",
                show(w, Room::Reading),
                weight_in_words(q, k, w, page.lang.get_untracked())
            ))
        })
        .unwrap_or_default()
    });
    let pick = Callback::new(move |(r, _): (usize, usize)| {
        page.apply(|s, c| s.set_query(r, c));
    });

    view! {
        <StagePanel stage=Stage::Softmax>
            <HeadPicker />
            <PageMap spec=a name=page.label(Msg::MatWeights) testid="heatmap-weights" detail=detail on_pick=pick />
            <p class="stage__stat" data-testid="row-sum-check">
                {move || deviation.get().map(|d| fill(page.t(Msg::RowSums), &[("dev", &format!("{d:.1e}"))])).unwrap_or_default()}
            </p>
            <div class="field field--row">
                <label class="field__label" for="query-row">{page.text(Msg::QueryRow)}</label>
                <select id="query-row" data-testid="query-select"
                    prop:value=move || query.get().to_string()
                    on:change=move |ev| { if let Ok(q) = event_target_value(&ev).parse::<usize>() { page.apply(|s, c| s.set_query(q, c)); } }>
                    <TokenOptions selected=query />
                </select>
            </div>
            <BarChart bars=bars caption=bar_caption testid="chart-query-row" />
        </StagePanel>
    }
}
