//! The pretrained model's views' module (`attention_lab::pretrained`), built by Trunk into its
//! own .wasm and started by the page when one of those views first opens. Natively it only
//! says what it is.

#[cfg(target_arch = "wasm32")]
fn main() {
    attention_lab::pretrained::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The pretrained model's views run in the browser, loaded by the page: see README.md.");
}
