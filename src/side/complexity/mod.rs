//! The cost of attention: how the n × n scores grow with the sequence length, then the two
//! answers — FlashAttention (same result, tile by tile) and linear attention (a kernel, O(n)).

mod flash;
mod linear;

use crate::chart::xy::{draw_log_log, LogLog};
use crate::core::cost::{cost, format_bytes, format_flops};
use crate::figures::CanvasChart;
use crate::i18n::ViewMsg;
use crate::settings::COST_N_RANGE;
use crate::ui::use_lesson_state;
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

/// Cost readouts and chart, FlashAttention, linear attention.
#[component]
pub fn ComplexityView() -> impl IntoView {
    let page = use_lesson_state();
    let log_n = page.pick(|s| s.cost().log_n());
    let dims = page.pick(|s| (s.choice().random().d_model as u64, s.choice().random().n_heads as u64));
    let c = Memo::new(move |_| {
        let (d, h) = dims.get();
        cost(1u64 << log_n.get(), d, h)
    });
    let chart = Callback::new(move |(canvas, w): (HtmlCanvasElement, f64)| {
        let (d, h) = dims.get();
        let ns = (COST_N_RANGE.0..=COST_N_RANGE.1).map(|e| cost(1u64 << e, d, h));
        let (soft, lin): (Vec<_>, Vec<_>) =
            ns.map(|c| ((c.n as f64, c.softmax_flops as f64), (c.n as f64, c.linear_flops as f64))).unzip();
        let range = (f64::from(COST_N_RANGE.0), f64::from(COST_N_RANGE.1));
        let ink = page.ink.get();
        let lines = [(ink.series[0], soft), (ink.series[1], lin)];
        draw_log_log(
            &canvas,
            &LogLog { lines: &lines, dots: None, diagonal: false, x_exp: range, y_exp: None, marker: c.get().n as f64 },
            w,
            ink,
        )
    });
    let readout = move |label: ViewMsg, id: &'static str, value: fn(&crate::core::cost::Cost) -> String| {
        view! {
            <div class="readouts__item">
                <dt>{move || page.t(label)}</dt>
                <dd data-testid=id>{move || c.with(value)}</dd>
            </div>
        }
    };

    view! {
        // The page's place for the view gives it its section and title (`HostedView`).
        <div class="view__hosted">
            <p class="view__text">{page.text(ViewMsg::CxIntro)}</p>
            <div class="view__controls">
                <label class="field__label" for="cost-n">
                    {page.text(ViewMsg::CxN)} " = " <strong data-testid="cost-n-value">{move || c.with(|c| c.n.to_string())}</strong>
                </label>
                <input id="cost-n" type="range" data-testid="cost-n-slider" step="1"
                    min=COST_N_RANGE.0.to_string() max=COST_N_RANGE.1.to_string()
                    prop:value=move || log_n.get().to_string()
                    on:input=move |ev| {
                        if let Ok(e) = event_target_value(&ev).parse::<u32>() {
                            page.apply(|s, _| s.cost_mut().set_log_n(e));
                        }
                    } />
            </div>
            <dl class="readouts">
                {readout(ViewMsg::CxPairs, "cost-pairs", |c| c.pairs.to_string())}
                {readout(ViewMsg::CxMem16, "cost-mem-fp16", |c| format_bytes(c.score_bytes_fp16))}
                {readout(ViewMsg::CxMem32, "cost-mem-fp32", |c| format_bytes(c.score_bytes_fp32))}
                {readout(ViewMsg::CxFlops, "cost-flops", |c| format_flops(c.softmax_flops))}
                {readout(ViewMsg::CxLinFlops, "cost-linear-flops", |c| format_flops(c.linear_flops))}
            </dl>
            <p class="legend" aria-hidden="true">
                <span class="legend__item"><span class="legend__swatch legend__swatch--series-1"></span>{page.text(ViewMsg::CxFlops)}</span>
                <span class="legend__item"><span class="legend__swatch legend__swatch--series-2"></span>{page.text(ViewMsg::CxLinFlops)}</span>
            </p>
            <CanvasChart draw=chart caption=Signal::derive(move || page.t(ViewMsg::CxChart).to_string()) testid="cost-chart" />
            <flash::FlashPanel />
            <linear::LinearPanel />
        </div>
    }
}
