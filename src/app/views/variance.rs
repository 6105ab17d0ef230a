//! Why √d_k: sample pairs of unit-variance vectors, histogram q·k before and after ÷√d_k, and
//! the empirical variance against d_k on the line Var = d_k, with the derivation beside it.

use crate::number::parse_decimal;
use crate::app::charts::CanvasChart;
use crate::app::formulas;
use crate::app::state::use_lab;
use crate::chart::xy::{draw_histogram, draw_log_log, LogLog};
use crate::core::lab::{snap_dk, DK_STEPS};
use crate::core::variance::{histogram, sample_dots, variance, variance_curve};
use crate::i18n::{fill, ViewMsg};
use crate::settings::SAMPLE_CHOICES;
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

const BINS: usize = 40;

/// Histogram counts over ±4σ and the normal density scaled to counts, for `values`.
fn histogram_with_curve(values: &[f32], sigma: f32) -> (Vec<u32>, (f32, f32), Vec<(f32, f32)>) {
    let (lo, hi) = (-4.0 * sigma, 4.0 * sigma);
    let counts = histogram(values, BINS, lo, hi);
    let bin = (hi - lo) / BINS as f32;
    let n = values.len() as f32;
    let curve = (0..=100)
        .map(|i| {
            let x = lo + (hi - lo) * i as f32 / 100.0;
            let density = (-(x * x) / (2.0 * sigma * sigma)).exp() / (sigma * (std::f32::consts::TAU).sqrt());
            (x, density * n * bin)
        })
        .collect();
    (counts, (lo, hi), curve)
}

/// The variance experiment.
#[component]
pub fn VarianceView() -> impl IntoView {
    let lab = use_lab();
    let d_k = lab.pick(|s| s.var_dk);
    let samples = lab.pick(|s| s.var_samples);
    let seed = lab.pick(|s| s.seed);
    let dots = Memo::new(move |_| sample_dots(d_k.get(), samples.get(), seed.get()));
    let empirical = Memo::new(move |_| dots.with(|d| variance(d)));
    // The curve over every d_k depends on the sample count and seed, not on the slider.
    let curve = Memo::new(move |_| variance_curve(&DK_STEPS, samples.get(), seed.get()));

    let raw = Callback::new(move |(c, w): (HtmlCanvasElement, f64)| {
        let sigma = (d_k.get() as f32).sqrt();
        let (counts, range, pdf) = dots.with(|d| histogram_with_curve(d, sigma));
        draw_histogram(&c, &counts, range, &pdf, w, lab.ink(), lab.ink().series[0])
    });
    let scaled = Callback::new(move |(c, w): (HtmlCanvasElement, f64)| {
        let root = (d_k.get() as f32).sqrt();
        let (counts, range, pdf) = dots.with(|d| histogram_with_curve(&d.iter().map(|x| x / root).collect::<Vec<_>>(), 1.0));
        draw_histogram(&c, &counts, range, &pdf, w, lab.ink(), lab.ink().series[1])
    });
    let against_dk = Callback::new(move |(c, w): (HtmlCanvasElement, f64)| {
        let points: Vec<(f64, f64)> = curve.with(|pts| pts.iter().map(|(d, v)| (*d as f64, *v)).collect());
        let chart = LogLog { lines: &[], dots: Some((lab.ink().series[1], &points)), diagonal: true, x_exp: (0.0, 10.0), y_exp: Some((-1.0, 11.0)), marker: d_k.get() as f64 };
        draw_log_log(&c, &chart, w, lab.ink())
    });
    let caption = move |m: ViewMsg| Signal::derive(move || fill(lab.t(m), &[("n", &samples.get().to_string())]));

    view! {
        <section class="view" data-testid="view-variance">
            <h2 class="view__title">{lab.text(ViewMsg::VarTitle)}</h2>
            <p class="view__text">{lab.text(ViewMsg::VarIntro)}</p>
            <div class="view__controls">
                <label class="field__label" for="var-dk">{lab.text(ViewMsg::VarDk)} " = " <strong>{move || d_k.get()}</strong></label>
                <input id="var-dk" type="range" min="0" max="10" step="1" data-testid="variance-dk"
                    prop:value=move || d_k.get().trailing_zeros().to_string()
                    on:input=move |ev| { if let Some(e) = parse_decimal(&event_target_value(&ev)) { lab.settings.update(|s| s.var_dk = snap_dk(2f64.powf(e))) } } />
                <label class="field__label" for="var-n">{lab.text(ViewMsg::VarSamples)} " = " <strong>{move || samples.get()}</strong></label>
                <input id="var-n" type="range" min="0" max=(SAMPLE_CHOICES.len() - 1).to_string() step="1" data-testid="variance-samples"
                    prop:value=move || SAMPLE_CHOICES.iter().position(|n| *n == samples.get()).unwrap_or(0).to_string()
                    on:input=move |ev| {
                        if let Some(&n) = event_target_value(&ev).parse::<usize>().ok().and_then(|i| SAMPLE_CHOICES.get(i)) {
                            lab.settings.update(|s| s.var_samples = n);
                        }
                    } />
            </div>
            <dl class="readouts">
                <div class="readouts__item">
                    <dt>{lab.text(ViewMsg::VarReadout)}</dt>
                    <dd data-testid="variance-readout">{move || format!("{:.2}", empirical.get())}</dd>
                    <dd class="readouts__note">{move || fill(lab.t(ViewMsg::VarPredicted), &[("dk", &d_k.get().to_string())])}</dd>
                </div>
            </dl>
            <div class="stage__grid">
                <CanvasChart draw=raw caption=caption(ViewMsg::VarHistRaw) testid="variance-hist-raw" />
                <CanvasChart draw=scaled caption=caption(ViewMsg::VarHistScaled) testid="variance-hist-scaled" />
            </div>
            <div class="stage__grid">
                <CanvasChart draw=against_dk caption=caption(ViewMsg::VarCurve) testid="variance-curve" />
                <div class="derivation">
                    <h3 class="derivation__title">{lab.text(ViewMsg::VarDerivation)}</h3>
                    <ol class="derivation__steps">
                        <li><div inner_html=formulas::VAR_STEP_1></div><p>{lab.text(ViewMsg::VarStep1)}</p></li>
                        <li><div inner_html=formulas::VAR_STEP_2></div><p>{lab.text(ViewMsg::VarStep2)}</p></li>
                        <li><div inner_html=formulas::VAR_STEP_3></div><p>{lab.text(ViewMsg::VarStep3)}</p></li>
                        <li><div inner_html=formulas::VAR_STEP_4></div><p>{lab.text(ViewMsg::VarStep4)}</p></li>
                    </ol>
                </div>
            </div>
            <p class="stage__notice">{lab.text(ViewMsg::VarWhy)}</p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::histogram_with_curve;

    #[test]
    fn the_density_curve_has_the_histograms_area() {
        // Σ counts ≈ ∫ curve: both ≈ the number of samples inside ±4σ.
        let values: Vec<f32> = crate::core::variance::sample_dots(16, 4000, 1);
        let (counts, (lo, hi), curve) = histogram_with_curve(&values, 4.0);
        let total: u32 = counts.iter().sum();
        let step = (hi - lo) / 100.0;
        let bin = (hi - lo) / super::BINS as f32;
        let area: f32 = curve.iter().map(|(_, y)| y * step / bin).sum();
        assert!((area / total as f32 - 1.0).abs() < 0.05, "area {area} vs {total}");
    }
}
