//! Errors the core returns instead of panicking. Each message names what was expected and
//! what was given, so the UI can show it next to the control that caused it.

use std::fmt;

/// Why the core refused an input.
#[derive(Debug, Clone, PartialEq)]
pub enum AttnError {
    /// `d_model` was 0.
    ZeroModelWidth,
    /// `heads` was 0 or does not divide `d_model`.
    HeadsDoNotDivide { d_model: usize, n_heads: usize },
    /// A sequence had no tokens.
    EmptySequence { which: &'static str },
    /// A matrix had the wrong shape.
    Shape { what: &'static str, expected: String, given: (usize, usize) },
    /// A key-padding mask did not have one entry per key.
    PaddingLength { expected: usize, given: usize },
    /// An input held NaN or ±∞.
    NonFinite { what: &'static str, row: usize, col: usize },
    /// The softmax temperature was not a positive finite number.
    BadTemperature(f32),
}

impl fmt::Display for AttnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ZeroModelWidth => write!(f, "d_model must be at least 1, got 0"),
            Self::HeadsDoNotDivide { d_model, n_heads } => write!(
                f,
                "heads must be at least 1 and divide d_model: d_model = {d_model} is not divisible by heads = {n_heads}"
            ),
            Self::EmptySequence { which } => {
                write!(f, "the {which} sequence must have at least 1 token, got 0")
            }
            Self::Shape { what, expected, given } => {
                write!(f, "{what} must be {expected}, got {} × {}", given.0, given.1)
            }
            Self::PaddingLength { expected, given } => {
                write!(f, "the key-padding mask must have one entry per key: expected {expected}, got {given}")
            }
            Self::NonFinite { what, row, col } => {
                write!(f, "{what} must hold finite numbers, found NaN or infinity at row {row}, column {col}")
            }
            Self::BadTemperature(t) => {
                write!(f, "the softmax temperature must be a positive finite number, got {t}")
            }
        }
    }
}

impl std::error::Error for AttnError {}
