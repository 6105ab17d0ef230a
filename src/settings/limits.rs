//! The choices and limits of every setting: what a control offers and what a link may hold.
//! Those of random weights are the model registry's.

pub use crate::models::{D_MODEL_CHOICES, HEAD_CHOICES, MAX_SEED, MAX_TOKENS};

/// The softmax temperature range.
pub const TEMPERATURE_RANGE: (f32, f32) = (0.05, 20.0);
/// Sample counts offered by the variance experiment.
pub const SAMPLE_CHOICES: [usize; 5] = [100, 300, 1000, 3000, 10_000];
/// The sequence lengths of the cost view: 2⁴ … 2¹⁷ (128K), as exponents.
pub const COST_N_RANGE: (u32, u32) = (4, 17);
/// Tile sizes of the FlashAttention view.
pub const TILE_CHOICES: [usize; 5] = [1, 2, 4, 8, 16];
