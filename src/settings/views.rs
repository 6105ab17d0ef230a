//! Each side view's own state: the saturation lab's d_k, the variance experiment's d_k and
//! sample count, the sparse pattern head's anchor, the cost view's n and the FlashAttention
//! tile. Every one is in the link.

use super::{COST_N_RANGE, SAMPLE_CHOICES, TILE_CHOICES};
use crate::core::saturation::snap_dk;

/// A d_k written as any number from 1 to 1024, snapped to the power of two nearest in log scale.
fn snapped_dk(d: f64) -> Option<usize> {
    (1.0..=1024.0).contains(&d).then(|| snap_dk(d))
}

/// The saturation lab: its d_k (a power of two, 1–1024) once the learner moves its slider;
/// until then it shows the lesson's own. Its scaling switch is the lesson's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Lab {
    dk: Option<usize>,
}

impl Lab {
    /// The learner's d_k, if they moved the slider.
    pub fn chosen(&self) -> Option<usize> {
        self.dk
    }

    /// The d_k shown: the learner's, else `lesson_dk` snapped to a power of two.
    pub fn dk_or(&self, lesson_dk: usize) -> usize {
        self.dk.unwrap_or_else(|| snap_dk(lesson_dk.max(1) as f64))
    }

    /// The lab's d_k, snapped to a power of two, if within 1–1024.
    pub fn set_dk(&mut self, d: f64) -> bool {
        snapped_dk(d).map(|d| self.dk = Some(d)).is_some()
    }
}

/// The variance experiment: d_k (a power of two) and the number of sampled pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variance {
    dk: usize,
    samples: usize,
}

impl Default for Variance {
    fn default() -> Self {
        Self { dk: 64, samples: 3000 }
    }
}

impl Variance {
    pub fn dk(&self) -> usize {
        self.dk
    }

    pub fn samples(&self) -> usize {
        self.samples
    }

    /// d_k snapped to a power of two, if within 1–1024.
    pub fn set_dk(&mut self, d: f64) -> bool {
        snapped_dk(d).map(|d| self.dk = d).is_some()
    }

    /// The sample count, if offered.
    pub fn set_samples(&mut self, n: usize) -> bool {
        SAMPLE_CHOICES.contains(&n).then(|| self.samples = n).is_some()
    }
}

/// The cost view's sequence length, as log₂ n, and the FlashAttention view's tile size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    log_n: u32,
    tile: usize,
}

impl Default for Cost {
    fn default() -> Self {
        Self { log_n: 10, tile: 4 }
    }
}

impl Cost {
    pub fn log_n(&self) -> u32 {
        self.log_n
    }

    pub fn tile(&self) -> usize {
        self.tile
    }

    /// log₂ n, if within [`COST_N_RANGE`].
    pub fn set_log_n(&mut self, e: u32) -> bool {
        (COST_N_RANGE.0..=COST_N_RANGE.1).contains(&e).then(|| self.log_n = e).is_some()
    }

    /// The FlashAttention tile (queries × keys), if offered.
    pub fn set_tile(&mut self, tile: usize) -> bool {
        TILE_CHOICES.contains(&tile).then(|| self.tile = tile).is_some()
    }
}

/// The heads built by hand: the token the sparse head looks for (0-based), within the
/// lesson's sentence (which `Settings` knows, and passes in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Patterns {
    anchor: usize,
}

impl Patterns {
    pub fn anchor(&self) -> usize {
        self.anchor
    }

    /// The anchor, if below `n_tokens`.
    pub(super) fn set_anchor(&mut self, anchor: usize, n_tokens: usize) -> bool {
        (anchor < n_tokens).then(|| self.anchor = anchor).is_some()
    }

    /// The anchor within a sentence of `n_tokens` tokens (at least one).
    pub(super) fn fit(&mut self, n_tokens: usize) {
        self.anchor = self.anchor.min(n_tokens.max(1) - 1);
    }
}
