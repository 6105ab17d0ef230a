//! The head (and layer) shown: a control the per-head stages and the side lessons share.

use crate::i18n::{ModelMsg, Msg};
use crate::ui::use_lesson_state;
use leptos::prelude::*;

/// Buttons to choose the head shown by the per-head stages and views.
#[component]
pub fn HeadPicker() -> impl IntoView {
    let page = use_lesson_state();
    let heads = Memo::new(move |_| page.shape.with(|s| s.n_heads));
    let current = page.pick(|s| s.lesson().head());
    let layers = Memo::new(move |_| page.shape.with(|s| s.n_layers));
    let layer = page.pick(|s| s.lesson().layer());
    let set_layer = move |ev| {
        if let Ok(l) = event_target_value(&ev).parse::<usize>() {
            page.apply(|s, c| l.checked_sub(1).is_some_and(|l| s.set_layer(l, c)));
        }
    };
    view! {
        <div class="head-picker" role="group" aria-label=page.text(Msg::Head)>
            <Show when=move || { layers.get() > 1 }>
                <label class="head-picker__label" for="layer">{page.text(ModelMsg::Layer)}</label>
                <select id="layer" class="head-picker__layer" data-testid="layer-select"
                    prop:value=move || (layer.get() + 1).to_string() on:change=set_layer>
                    {move || (1..=layers.get()).map(|l| view! { <option value=l.to_string()>{l}</option> }).collect_view()}
                </select>
            </Show>
            <span class="head-picker__label">{page.text(Msg::Head)}</span>
            {move || (0..heads.get()).map(|h| view! {
                <button type="button" class="head-picker__head" data-testid=format!("head-{}", h + 1)
                    aria-pressed=move || (current.get() == h).to_string()
                    on:click=move |_| { page.apply(|s, c| s.set_head(h, c)); }>
                    {h + 1}
                </button>
            }).collect_view()}
        </div>
    }
}
