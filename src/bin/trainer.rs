//! The training worker (`attention_lab::trainer::worker`), built by Trunk into its own .wasm;
//! the training view starts a pool of them. Natively it only says what it is.

#[cfg(target_arch = "wasm32")]
fn main() {
    attention_lab::trainer::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The training worker runs in the browser, started by the training view: see README.md.");
}
