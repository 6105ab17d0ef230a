//! Saving a file from the page: text through a Blob URL, a canvas as PNG. No network.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};

/// Offer `href` to the browser as a download called `name`.
fn save(href: &str, name: &str) -> Result<(), String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let a: HtmlAnchorElement =
        document.create_element("a").map_err(|_| "cannot create a link")?.dyn_into().map_err(|_| "not a link")?;
    a.set_href(href);
    a.set_download(name);
    a.click();
    Ok(())
}

/// Download `text` as a file called `name` of type `mime`.
pub fn save_text(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options).map_err(|_| "cannot make the file")?;
    let url = Url::create_object_url_with_blob(&blob).map_err(|_| "cannot make a link to the file")?;
    save(&url, name)?;
    // Release the file a minute later, once the browser has surely read it.
    leptos::prelude::set_timeout(
        move || {
            let _ = Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(60),
    );
    Ok(())
}

/// Download what `canvas` shows as a PNG called `name`.
pub fn save_png(name: &str, canvas: &HtmlCanvasElement) -> Result<(), String> {
    let data = canvas.to_data_url_with_type("image/png").map_err(|_| "cannot read the canvas")?;
    save(&data, name)
}
