//! The forward worker built with the kernels' relaxed-SIMD lanes (the `relaxed` feature): the
//! page starts this one instead of `forward` where the engine validates relaxed SIMD. Natively
//! it only says what it is.

#[cfg(target_arch = "wasm32")]
fn main() {
    attention_lab::compute::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The forward worker runs in the browser, started by the page: see README.md.");
}
