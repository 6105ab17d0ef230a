//! The boards of the experiments on heads, shared by the model view (a pretrained model) and
//! the training view (the learner's model): the switches that turn heads off (layers × heads),
//! the choice of what a switched-off head passes on, and a grid of one number per head (what
//! switching it off cost, or where its weight goes), each cell shaded by its size against the
//! grid's scale.

use crate::core::ablate::{Ablation, Replacement};
use crate::i18n::{fill, t, AblateMsg, Lang, ModelMsg};
use leptos::prelude::*;

/// One switch per head (`ablate-head`, `aria-pressed` when off), a row per layer.
#[component]
pub fn HeadSwitches(
    layers: usize,
    heads: usize,
    /// The heads switched off.
    #[prop(into)]
    off: Signal<Ablation>,
    /// A switch was pressed: (layer, head) from 0.
    toggle: Callback<(usize, usize)>,
    lang: Lang,
    /// Only this layer's row (from 0), where a view shows one layer.
    #[prop(optional)]
    only: Option<usize>,
) -> impl IntoView {
    let rows = (0..layers).filter(move |l| only.is_none_or(|o| o == *l)).map(|l| {
        let switches = (0..heads).map(|h| {
            let is_off = move || off.with(|a| a.has(l, h));
            let (layer, head) = ((l + 1).to_string(), (h + 1).to_string());
            let label = Signal::derive(move || {
                let msg = if is_off() { AblateMsg::HeadOff } else { AblateMsg::HeadOn };
                fill(t(lang, msg), &[("layer", &layer), ("head", &head)])
            });
            view! {
                <button type="button" class="ablate__head" data-testid="ablate-head" data-layer=l + 1 data-head=h + 1
                    aria-pressed=move || is_off().to_string() title=label aria-label=label
                    on:click=move |_| toggle.run((l, h))>
                    {h + 1}
                </button>
            }
        });
        view! {
            <div class="ablate__row" role="group">
                <span class="ablate__layer">{t(lang, ModelMsg::Layer)} " " {l + 1}</span>
                {switches.collect_view()}
            </div>
        }
    });
    view! { <div class="ablate__board" data-testid="ablate-board">{rows.collect_view()}</div> }
}

/// What a switched-off head passes on (`ablate-mode`: zeros or its mean), and what either means.
#[component]
pub fn ModeSelect(
    #[prop(into)] mode: Signal<Replacement>,
    /// Another choice was made.
    set: Callback<Replacement>,
    lang: Lang,
) -> impl IntoView {
    let option = move |r: Replacement, name: AblateMsg| {
        view! { <option value=r.slug() selected=move || mode.get() == r>{t(lang, name)}</option> }
    };
    view! {
        <label class="field">
            <span>{t(lang, AblateMsg::Mode)}</span>
            <select data-testid="ablate-mode" prop:value=move || mode.get().slug()
                on:change=move |ev| {
                    if let Some(r) = Replacement::from_slug(&event_target_value(&ev)) {
                        set.run(r);
                    }
                }>
                {option(Replacement::Zero, AblateMsg::ModeZero)}
                {option(Replacement::Mean, AblateMsg::ModeMean)}
            </select>
        </label>
        <p class="stage__note">{t(lang, AblateMsg::ModeNote)}</p>
    }
}

/// What a grid's numbers are, which names the attribute each cell carries its value in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// What switching the head off cost (`data-effect`).
    Effect,
    /// A share of the head's attention weight (`data-weight`).
    Weight,
}

/// The shade of `value` on a scale up to `max`: 0 (none) to 4 (the largest); by size, so a
/// negative effect shades as much as a positive one of its size.
fn shade(value: f32, max: f32) -> usize {
    if max <= 0.0 || !value.is_finite() {
        return 0;
    }
    ((value.abs() / max * 4.0).ceil().clamp(0.0, 4.0)) as usize
}

/// One number per head, `values[layer][head]`, each cell shaded against `max` (the largest
/// size when `None`); a cell is a button for `pick` when there is one.
#[component]
pub fn HeadValues(
    values: Vec<Vec<f32>>,
    #[prop(optional)] max: Option<f32>,
    measure: Measure,
    /// The grid's and its cells' `data-testid`s.
    testid: &'static str,
    cell_testid: &'static str,
    /// A cell's text (short) and its full label.
    text: fn(f32) -> String,
    label: Callback<(usize, usize, f32), String>,
    /// What a click on a cell does, if anything.
    #[prop(optional)]
    pick: Option<Callback<(usize, usize)>>,
    lang: Lang,
) -> impl IntoView {
    let max =
        max.unwrap_or_else(|| values.iter().flatten().filter(|v| v.is_finite()).fold(0.0f32, |m, v| m.max(v.abs())));
    let rows = values.into_iter().enumerate().map(|(l, row)| {
        let cells = row.into_iter().enumerate().map(move |(h, v)| {
            let class = format!("ablate-cell ablate-cell--{}", shade(v, max));
            let name = label.run((l, h, v));
            let exact = format!("{v:.6}");
            let (effect, weight) = match measure {
                Measure::Effect => (Some(exact), None),
                Measure::Weight => (None, Some(exact)),
            };
            match pick {
                Some(pick) => view! {
                    <button type="button" class=class data-testid=cell_testid data-layer=l + 1 data-head=h + 1
                        data-effect=effect data-weight=weight title=name.clone() aria-label=name
                        on:click=move |_| pick.run((l, h))>{text(v)}</button>
                }
                .into_any(),
                None => view! {
                    <span class=class data-testid=cell_testid data-layer=l + 1 data-head=h + 1
                        data-effect=effect data-weight=weight title=name.clone() aria-label=name>{text(v)}</span>
                }
                .into_any(),
            }
        });
        view! {
            <div class="ablate__row" role="group">
                <span class="ablate__layer">{t(lang, ModelMsg::Layer)} " " {l + 1}</span>
                {cells.collect_view()}
            </div>
        }
    });
    view! { <div class="ablate__board" data-testid=testid>{rows.collect_view()}</div> }
}
