//! Mounts the app. Built by Trunk for wasm32; natively it only reminds how to run the site.

#[cfg(target_arch = "wasm32")]
fn main() {
    attention_lab::panic_notice::install();
    // Keep every file for offline use (the worker is written by scripts/postbuild.py). A
    // browser without service workers, or a page served without one, simply stays online-only.
    if let Some(window) = web_sys::window() {
        let _ = window.navigator().service_worker().register("./sw.js");
    }
    leptos::mount::mount_to_body(attention_lab::app::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Attention Lab runs in the browser: see README.md (scripts/serve.sh).");
}
