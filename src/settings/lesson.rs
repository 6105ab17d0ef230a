//! The lesson's own state: the sentences, how attention is run (mask, ÷√d_k, temperature),
//! the stage, and the layer, head, query row and spotlight it shows. The rules that need the
//! model (an index within its heads, layers or tokens) are kept by `Settings`, which has it.

use super::{format_temperature, Stage, TEMPERATURE_RANGE};
use crate::core::attention::Mask;

/// The lesson's state.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    /// The query-side sentence.
    pub(super) text: String,
    /// The second sentence (keys and values), used in cross-attention.
    pub(super) kv_text: String,
    pub(super) cross: bool,
    mask: Mask,
    scaled: bool,
    /// Within [`TEMPERATURE_RANGE`], in steps of 0.01.
    temperature: f32,
    stage: Stage,
    /// The model's layer shown, 0-based, below its layer count.
    pub(super) layer: usize,
    /// The head shown in the per-head stages, 0-based, below the model's head count.
    pub(super) head: usize,
    /// The query row of the softmax stage, 0-based, below the token count.
    pub(super) query: usize,
    /// The spotlighted token (0-based): its row and column are outlined in every heatmap.
    pub(super) spot: Option<usize>,
}

impl Lesson {
    /// The first stage of `text` (and `kv_text` for cross-attention), run as the Transformer
    /// runs it.
    pub fn new(text: &str, kv_text: &str) -> Self {
        Self {
            text: text.into(),
            kv_text: kv_text.into(),
            cross: false,
            mask: Mask::None,
            scaled: true,
            temperature: 1.0,
            stage: Stage::Input,
            layer: 0,
            head: 0,
            query: 0,
            spot: None,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn kv_text(&self) -> &str {
        &self.kv_text
    }

    /// Cross-attention asked for (it applies only to a model that takes a second sentence).
    pub fn cross(&self) -> bool {
        self.cross
    }

    /// The mask chosen (cross-attention runs without it, see `Settings::effective_mask`).
    pub fn mask(&self) -> Mask {
        self.mask
    }

    pub fn scaled(&self) -> bool {
        self.scaled
    }

    pub fn temperature(&self) -> f32 {
        self.temperature
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    pub fn layer(&self) -> usize {
        self.layer
    }

    pub fn head(&self) -> usize {
        self.head
    }

    pub fn query(&self) -> usize {
        self.query
    }

    pub fn spot(&self) -> Option<usize> {
        self.spot
    }

    pub fn set_mask(&mut self, mask: Mask) {
        self.mask = mask;
    }

    pub fn set_scaled(&mut self, on: bool) {
        self.scaled = on;
    }

    pub fn set_cross(&mut self, on: bool) {
        self.cross = on;
    }

    pub fn set_stage(&mut self, stage: Stage) {
        self.stage = stage;
    }

    /// A new softmax temperature, rounded to two decimals (as shown and as written in links),
    /// if it lies in [`TEMPERATURE_RANGE`].
    pub fn set_temperature(&mut self, t: f64) -> bool {
        let t = ((t * 100.0).round() / 100.0) as f32;
        let ok = (TEMPERATURE_RANGE.0..=TEMPERATURE_RANGE.1).contains(&t);
        ok.then(|| self.temperature = t).is_some()
    }

    /// The temperature as shown and written in links.
    pub fn temperature_text(&self) -> String {
        format_temperature(self.temperature)
    }
}
