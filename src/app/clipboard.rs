//! Copying text to the clipboard. `navigator.clipboard` exists only in secure contexts (https
//! or localhost): on a classroom's plain-http server it is missing, and calling it would throw
//! inside the event handler. Here that is a refusal like any other.

use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Copy `text`; `true` once the browser has accepted it.
pub async fn copy_text(text: &str) -> bool {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else { return false };
    let present = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard")).is_ok_and(|c| !c.is_undefined());
    if !present {
        return false;
    }
    JsFuture::from(navigator.clipboard().write_text(text)).await.is_ok()
}

/// Clears a "copied" toast (never a link shown to copy by hand, which stays until used).
pub fn clear_toast(status: &mut Option<Result<crate::i18n::ClassMsg, String>>) {
    if matches!(status, Some(Ok(_))) {
        *status = None;
    }
}
