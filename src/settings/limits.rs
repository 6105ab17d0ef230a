//! The choices and limits of every setting: what a control offers and what a link may hold.

/// The most tokens a sentence may have: beyond this the heatmaps stop being readable.
pub const MAX_TOKENS: usize = 64;
/// The model widths offered.
pub const D_MODEL_CHOICES: [usize; 7] = [8, 16, 32, 64, 128, 256, 512];
/// The head counts offered (only those dividing d_model are shown).
pub const HEAD_CHOICES: [usize; 5] = [1, 2, 4, 8, 16];
/// The softmax temperature range.
pub const TEMPERATURE_RANGE: (f32, f32) = (0.05, 20.0);
/// Seeds are whole numbers up to this (they fit a number box and a URL comfortably).
pub const MAX_SEED: u64 = 999_999_999;
/// Sample counts offered by the variance experiment.
pub const SAMPLE_CHOICES: [usize; 5] = [100, 300, 1000, 3000, 10_000];
/// The sequence lengths of the cost view: 2⁴ … 2¹⁷ (128K), as exponents.
pub const COST_N_RANGE: (u32, u32) = (4, 17);
/// Tile sizes of the FlashAttention view.
pub const TILE_CHOICES: [usize; 5] = [1, 2, 4, 8, 16];
