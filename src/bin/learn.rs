//! The training view's module (`attention_lab::learn`), built by Trunk into its own .wasm and
//! started by the page when the view first opens. Natively it only says what it is.

#[cfg(target_arch = "wasm32")]
fn main() {
    attention_lab::learn::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The training view's module runs in the browser, loaded by the page: see README.md.");
}
