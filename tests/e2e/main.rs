//! End-to-end tests: the built site (`dist/`) served on 127.0.0.1 and driven over WebDriver,
//! as a user would use it, in the engine `E2E_BROWSER` names (`engine.rs`: Chromium, the
//! default; Firefox; WebKit). Elements are found by `data-testid`.
//!
//! Ignored in a plain `cargo test` because they need the built site and a browser; the README's
//! test command (scripts/test.sh) builds `dist/` and runs them with `--ignored` in each engine.
#![cfg(not(target_arch = "wasm32"))]

mod a11y;
mod browser;
mod budget;
mod chinese_model;
mod classroom;
mod engine;
mod engines;
mod learn;
mod lesson;
mod lessons;
mod model;
mod places;
mod predict;
mod publishing;
mod robustness;
mod screens;
mod server;
mod views;
