//! Positional encoding, mask, self/cross, scaling and temperature.

use crate::number::parse_decimal;
use super::toggle::Toggle;
use crate::app::state::use_lab;
use crate::i18n::Msg;
use crate::settings::{format_temperature, TEMPERATURE_RANGE};
use leptos::prelude::*;

/// The switches that change how attention is computed.
#[component]
pub fn Switches() -> impl IntoView {
    let lab = use_lab();
    let causal = lab.pick(|s| s.causal);
    let cross = lab.pick(|s| s.cross);
    let temperature = lab.pick(|s| s.temperature);
    let (lo, hi) = (TEMPERATURE_RANGE.0.log10(), TEMPERATURE_RANGE.1.log10());

    view! {
        <Toggle testid="pe-toggle" label=Msg::Positional get=|s| s.positional set=|s, v| s.positional = v />
        <Toggle testid="scaling-toggle" label=Msg::Scaling get=|s| s.scaled set=|s, v| s.scaled = v />
        <div class="field field--row">
            <label class="field__label" for="mask">{lab.text(Msg::Mask)}</label>
            <select id="mask" data-testid="mask-select" prop:value=move || if causal.get() { "causal" } else { "none" }
                on:change=move |ev| lab.settings.update(|s| s.causal = event_target_value(&ev) == "causal")>
                <option value="none">{lab.text(Msg::MaskNone)}</option>
                <option value="causal">{lab.text(Msg::MaskCausal)}</option>
            </select>
        </div>
        <div class="field field--row">
            <label class="field__label" for="kind">{lab.text(Msg::Kind)}</label>
            <select id="kind" data-testid="kind-select" prop:value=move || if cross.get() { "cross" } else { "self" }
                on:change=move |ev| lab.settings.update(|s| s.cross = event_target_value(&ev) == "cross")>
                <option value="self">{lab.text(Msg::KindSelf)}</option>
                <option value="cross">{lab.text(Msg::KindCross)}</option>
            </select>
        </div>
        <div class="field">
            <label class="field__label" for="temperature">
                {lab.text(Msg::Temperature)} " = " <span data-testid="temperature-value">{move || format_temperature(temperature.get())}</span>
            </label>
            <input id="temperature" type="range" data-testid="temperature-slider"
                min=lo.to_string() max=hi.to_string() step="0.01"
                prop:value=move || temperature.get().log10().to_string()
                on:input=move |ev| {
                    if let Some(x) = parse_decimal(&event_target_value(&ev)).map(|x| x as f32) {
                        let t = 10f32.powf(x.clamp(lo, hi));
                        // Two decimals, like the URL, so what is shown is what is computed.
                        let t = (t * 100.0).round() / 100.0;
                        lab.settings.update(|s| s.temperature = t.clamp(TEMPERATURE_RANGE.0, TEMPERATURE_RANGE.1));
                    }
                } />
        </div>
    }
}
