//! "Predict first": each stage asks the student before it shows its figure, and judges the
//! answer against the numbers the page computed. The page hands over the numbers on screen
//! ([`shown`]); the questions ([`questions`]), the "Check yourself" exercises ([`exercise`])
//! and the tally ([`tally`]) are pure, and the side lessons' module draws them (`side::predict`),
//! so none of it is in the page's first .wasm.

pub mod exercise;
pub mod questions;
pub mod shown;
pub mod tally;
