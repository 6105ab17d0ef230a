//! Mounts the app. Built by Trunk for wasm32; natively it only reminds how to run the site.

#[cfg(target_arch = "wasm32")]
fn main() {
    attention_lab::panic_notice::install();
    attention_lab::report_memory("page");
    // The app registers the service worker itself (`app::updates`), to offer new versions.
    leptos::mount::mount_to_body(|| leptos::view! { <attention_lab::app::App /> });
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("Attention Lab runs in the browser: see README.md (scripts/serve.sh).");
}
