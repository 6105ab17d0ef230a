//! Attention against recurrence and convolution: the longest path between two tokens as n
//! grows (a log–log chart), and a table of path, sequential steps and work at the chosen n.
//! The numbers come from `core::cost::Mixer`.

use crate::app::charts::CanvasChart;
use crate::app::page::use_page;
use crate::chart::xy::{draw_log_log, LogLog};
use crate::core::cost::Mixer;
use crate::i18n::LessonMsg;
use crate::number::parse_decimal;
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

/// The convolution compared: kernel width 3.
const CONV: Mixer = Mixer::Convolution { k: 3 };
/// n runs over 2^1 … 2^MAX_EXP.
const MAX_EXP: u32 = 12;

/// The three mixers, their names, and their work per layer in O-notation.
const MIXERS: [(Mixer, LessonMsg, &str); 3] = [
    (Mixer::Recurrent, LessonMsg::MixerRecurrent, "O(n · d²)"),
    (CONV, LessonMsg::MixerConvolution, "O(k · n · d²)"),
    (Mixer::Attention, LessonMsg::MixerAttention, "O(n² · d)"),
];

/// The chart and the table.
#[component]
pub fn RnnCnnView() -> impl IntoView {
    let page = use_page();
    let (log_n, set_log_n) = signal(6u32);
    let chart = Callback::new(move |(canvas, w): (HtmlCanvasElement, f64)| {
        let ink = page.ink.get();
        let line = |m: Mixer| -> Vec<(f64, f64)> {
            // A path of 0 has no logarithm; n starts at 2, where every path is at least 1.
            (1..=MAX_EXP).map(|e| (f64::from(1u32 << e), m.path_length(1u64 << e) as f64)).collect()
        };
        let lines =
            [(ink.series[0], line(Mixer::Recurrent)), (ink.series[1], line(CONV)), (ink.text, line(Mixer::Attention))];
        let chart = LogLog {
            lines: &lines,
            dots: None,
            diagonal: false,
            x_exp: (1.0, f64::from(MAX_EXP)),
            // From 2^-1, so that the attention line at 1 stands clear of the axis.
            y_exp: Some((-1.0, f64::from(MAX_EXP))),
            marker: f64::from(1u32 << log_n.get()),
        };
        draw_log_log(&canvas, &chart, w, ink)
    });
    let n = move || 1u64 << log_n.get();
    let rows = MIXERS
        .map(|(m, name, work)| {
            view! {
                <tr>
                    <th scope="row">{page.text(name)}</th>
                    <td data-testid="mixer-path">{move || m.path_length(n()).to_string()}</td>
                    <td data-testid="mixer-steps">{move || m.sequential_steps(n()).to_string()}</td>
                    <td>{work}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="view" data-testid="view-rnn-cnn">
            <h2 class="view__title">{page.text(LessonMsg::RnnCnnTitle)}</h2>
            <p class="view__text">{page.text(LessonMsg::RnnCnnIntro)}</p>
            <div class="view__controls">
                <label class="field__label" for="mixer-n">"n = " <strong data-testid="mixer-n">{move || n().to_string()}</strong></label>
                <input id="mixer-n" type="range" min="1" max=MAX_EXP.to_string() step="1" data-testid="mixer-n-slider"
                    prop:value=move || log_n.get().to_string()
                    on:input=move |ev| {
                        if let Some(v) = parse_decimal(&event_target_value(&ev)) {
                            set_log_n.set((v.round() as u32).clamp(1, MAX_EXP));
                        }
                    } />
            </div>
            <table class="mixers" data-testid="mixer-table">
                <thead>
                    <tr>
                        <th scope="col">{page.text(LessonMsg::RnnCnnMixer)}</th>
                        <th scope="col">{page.text(LessonMsg::RnnCnnPath)}</th>
                        <th scope="col">{page.text(LessonMsg::RnnCnnSteps)}</th>
                        <th scope="col">{page.text(LessonMsg::RnnCnnWork)}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
            <p class="legend" aria-hidden="true">
                <span class="legend__item"><span class="legend__swatch legend__swatch--series-1"></span>{page.text(LessonMsg::MixerRecurrent)}</span>
                <span class="legend__item"><span class="legend__swatch legend__swatch--series-2"></span>{page.text(LessonMsg::MixerConvolution)}</span>
                <span class="legend__item"><span class="legend__swatch legend__swatch--ink"></span>{page.text(LessonMsg::MixerAttention)}</span>
            </p>
            <CanvasChart draw=chart caption=page.label(LessonMsg::RnnCnnChart) testid="mixer-chart" />
        </section>
    }
}
