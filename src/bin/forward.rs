//! The forward worker (`attention_lab::compute::worker`), built by Trunk into its own .wasm;
//! the page starts it the first time a downloaded model is shown. Natively it only says what
//! it is.

#[cfg(target_arch = "wasm32")]
fn main() {
    attention_lab::compute::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The forward worker runs in the browser, started by the page: see README.md.");
}
