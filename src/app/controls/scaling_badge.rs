//! The scaling badge: whether the scores are divided by √d_k, shown (and switched) on every
//! screen that scaling changes.

use crate::app::page::use_page;
use crate::i18n::ClassMsg;
use leptos::prelude::*;

/// Whether scores are divided by √d_k, on every screen scaling changes, as a switch: the
/// lesson and the saturation lab share this one state (so does the S key).
#[component]
pub fn ScalingBadge() -> impl IntoView {
    let page = use_page();
    let scaled = page.pick(|s| s.lesson().scaled());
    view! {
        <button type="button" class="scaling-badge" data-testid="scaling-badge" class:scaling-badge--off=move || !scaled.get()
            aria-pressed=move || scaled.get().to_string() title=page.text(ClassMsg::ScalingBadgeHint)
            on:click=move |_| page.settings.update(|s| { let on = s.lesson().scaled(); s.lesson_mut().set_scaled(!on) })>
            {move || page.t(if scaled.get() { ClassMsg::ScalingOnBadge } else { ClassMsg::ScalingOffBadge })}
        </button>
    }
}
