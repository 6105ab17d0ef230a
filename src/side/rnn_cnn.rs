//! Attention against recurrence and convolution: the longest path between two tokens as n
//! grows (a log–log chart), and a table of path, sequential steps and work at the chosen n.
//! The numbers come from `core::cost::Mixer`.

use crate::chart::colormap::Rgb;
use crate::chart::ink::Ink;
use crate::chart::xy::{draw_log_log, LogLog};
use crate::core::cost::Mixer;
use crate::figures::CanvasChart;
use crate::i18n::{fill, LessonMsg};
use crate::number::parse_decimal;
use crate::ui::use_lesson_state;
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

/// The convolution's kernel width (the texts say it through `{k}`).
const KERNEL: u64 = 3;
/// n runs over 2^1 … 2^MAX_EXP.
const MAX_EXP: u32 = 12;

/// How a mixer's line is coloured: a theme series, or the ink (its swatch class follows).
#[derive(Clone, Copy)]
enum Pen {
    Series(usize),
    Ink,
}

impl Pen {
    fn color(self, ink: Ink) -> Rgb {
        match self {
            Pen::Series(i) => ink.series[i],
            Pen::Ink => ink.text,
        }
    }

    fn swatch(self) -> &'static str {
        match self {
            Pen::Series(0) => "legend__swatch legend__swatch--series-1",
            Pen::Series(_) => "legend__swatch legend__swatch--series-2",
            Pen::Ink => "legend__swatch legend__swatch--ink",
        }
    }
}

/// The three mixers in the order of the table, the chart and the legend: the mixer, its name,
/// its pen, and its work per layer in O-notation.
const MIXERS: [(Mixer, LessonMsg, Pen, &str); 3] = [
    (Mixer::Recurrent, LessonMsg::MixerRecurrent, Pen::Series(0), "O(n · d²)"),
    (Mixer::Convolution { k: KERNEL }, LessonMsg::MixerConvolution, Pen::Series(1), "O(k · n · d²)"),
    (Mixer::Attention, LessonMsg::MixerAttention, Pen::Ink, "O(n² · d)"),
];

/// The chart and the table.
#[component]
pub fn RnnCnnView() -> impl IntoView {
    let page = use_lesson_state();
    let (log_n, set_log_n) = signal(6u32);
    let chart = Callback::new(move |(canvas, w): (HtmlCanvasElement, f64)| {
        let ink = page.ink.get();
        let line = |m: Mixer| -> Vec<(f64, f64)> {
            // A path of 0 has no logarithm; n starts at 2, where every path is at least 1.
            (1..=MAX_EXP).map(|e| (f64::from(1u32 << e), m.path_length(1u64 << e) as f64)).collect()
        };
        let lines = MIXERS.map(|(m, _, pen, _)| (pen.color(ink), line(m)));
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
    let name = move |msg: LessonMsg| fill(page.t(msg), &[("k", &KERNEL.to_string())]);
    let rows = MIXERS
        .map(|(m, msg, _, work)| {
            view! {
                <tr>
                    <th scope="row">{move || name(msg)}</th>
                    <td data-testid="mixer-path">{move || m.path_length(n()).to_string()}</td>
                    <td data-testid="mixer-steps">{move || m.sequential_steps(n()).to_string()}</td>
                    <td>{work}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <>
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
            // Focusable, so that a keyboard can scroll it where it is wider than the screen.
            <div class="table-scroll" tabindex="0">
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
            </div>
            <p class="legend" aria-hidden="true">
                {MIXERS.map(|(_, msg, pen, _)| view! {
                    <span class="legend__item"><span class=pen.swatch()></span>{move || name(msg)}</span>
                }).collect_view()}
            </p>
            <CanvasChart draw=chart caption=Signal::derive(move || name(LessonMsg::RnnCnnChart)) testid="mixer-chart" />
        </>
    }
}
