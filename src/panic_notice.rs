//! A panic in Wasm stops the whole app. This hook makes that visible: the panic goes to the
//! console as usual and a notice (in both languages, since the app state is gone) is put at
//! the top of the page with plain DOM calls that do not depend on the app still working.

use crate::i18n::{t, Lang, Msg};

/// Install the hook once, before mounting the app.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show(&info.to_string());
    }));
}

fn show(details: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(body) = document.body() else { return };
    let Ok(notice) = document.create_element("div") else { return };
    notice.set_class_name("panic-notice");
    let _ = notice.set_attribute("role", "alert");
    let _ = notice.set_attribute("data-testid", "panic");
    // text content, never HTML: the details may contain user text.
    notice.set_text_content(Some(&format!(
        "{} / {} {details}",
        t(Lang::En, Msg::PanicNotice),
        t(Lang::Zh, Msg::PanicNotice)
    )));
    let _ = body.prepend_with_node_1(&notice);
}
