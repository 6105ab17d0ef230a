//! The side lessons' module (`attention_lab::side`), built by Trunk into its own .wasm and
//! started by the page when one of them first opens. Natively it only says what it is.

#[cfg(target_arch = "wasm32")]
fn main() {
    attention_lab::side::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The side lessons' module runs in the browser, loaded by the page: see README.md.");
}
