//! The lesson's own state: the sentences, how attention is run (mask, ÷√d_k, temperature),
//! the stage, and the layer, head, query row and spotlight it shows. Each index is set within
//! a bound; the bounds come from the model (its layers, heads and the sentence's tokens), which
//! `Settings` has and passes in.

use super::{format_temperature, Stage, TEMPERATURE_RANGE};
use crate::core::ablate::{Ablation, Replacement};
use crate::core::attention::Mask;

/// The lesson's state.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    /// The query-side sentence.
    text: String,
    /// The second sentence (keys and values), used in cross-attention.
    kv_text: String,
    cross: bool,
    mask: Mask,
    scaled: bool,
    /// Within [`TEMPERATURE_RANGE`], in steps of 0.01.
    temperature: f32,
    stage: Stage,
    /// The model's layer shown, 0-based, below its layer count.
    layer: usize,
    /// The head shown in the per-head stages, 0-based, below the model's head count.
    head: usize,
    /// The query row of the softmax stage, 0-based, below the token count.
    query: usize,
    /// Nobody chose the query: it is the sentence's pronoun as the model reads it (the token a
    /// lesson talks about), and follows it to another model or language.
    query_follows: bool,
    /// Nobody chose the layer and head: they are the model's own ([`Shape::talking_head`]),
    /// and follow it to another model.
    ///
    /// [`Shape::talking_head`]: crate::core::model::Shape::talking_head
    head_follows: bool,
    /// The spotlighted token (0-based): its row and column are outlined in every heatmap.
    spot: Option<usize>,
    /// The heads switched off, each within the model, and what they pass on instead.
    ablation: Ablation,
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
            query_follows: true,
            head_follows: true,
            spot: None,
            ablation: Ablation::default(),
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

    /// Whether the query is the sentence's pronoun, not one chosen (then a link leaves it out).
    pub fn query_follows(&self) -> bool {
        self.query_follows
    }

    /// Whether the layer and head are the model's own, not chosen (then a link leaves them out).
    pub fn head_follows(&self) -> bool {
        self.head_follows
    }

    pub fn set_mask(&mut self, mask: Mask) {
        self.mask = mask;
    }

    /// The heads switched off and what they pass on.
    pub fn ablation(&self) -> &Ablation {
        &self.ablation
    }

    /// What a switched-off head passes on (zeros, or its mean over the positions).
    pub fn set_replacement(&mut self, replacement: Replacement) {
        self.ablation.replacement = replacement;
    }

    /// The heads switched off, if each is within `n_layers` × `n_heads` (their replacement as
    /// chosen before).
    pub(super) fn set_ablated(&mut self, ablation: &Ablation, n_layers: usize, n_heads: usize) -> bool {
        let within = ablation.within(n_layers, n_heads);
        (within.heads() == ablation.heads())
            .then(|| self.ablation = Ablation::new(within.heads().iter().copied(), self.ablation.replacement))
            .is_some()
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

    /// The sentence, already checked against the model.
    pub(super) fn put_text(&mut self, text: &str) {
        self.text = text.to_string();
    }

    /// The second sentence, already checked.
    pub(super) fn put_kv_text(&mut self, text: &str) {
        self.kv_text = text.to_string();
    }

    /// The layer shown, if below `n_layers`.
    pub(super) fn set_layer(&mut self, layer: usize, n_layers: usize) -> bool {
        let ok = layer < n_layers;
        if ok {
            (self.layer, self.head_follows) = (layer, false);
        }
        ok
    }

    /// The head shown, if below `n_heads`.
    pub(super) fn set_head(&mut self, head: usize, n_heads: usize) -> bool {
        let ok = head < n_heads;
        if ok {
            (self.head, self.head_follows) = (head, false);
        }
        ok
    }

    /// The query row, if below `n_tokens`.
    pub(super) fn set_query(&mut self, query: usize, n_tokens: usize) -> bool {
        let ok = query < n_tokens;
        if ok {
            (self.query, self.query_follows) = (query, false);
        }
        ok
    }

    /// Where the defaults stand for this model and sentence: the query on `pronoun` (the
    /// first token if the sentence has none) unless one was chosen, the layer and head on
    /// `talking_head` unless chosen.
    pub(super) fn follow(&mut self, pronoun: Option<usize>, talking_head: (usize, usize)) {
        if self.query_follows {
            self.query = pronoun.unwrap_or(0);
        }
        if self.head_follows {
            (self.layer, self.head) = talking_head;
        }
    }

    /// The spotlighted token, if below `n_tokens`; `None` clears it.
    pub(super) fn set_spot(&mut self, spot: Option<usize>, n_tokens: usize) -> bool {
        spot.is_none_or(|s| s < n_tokens).then(|| self.spot = spot).is_some()
    }

    /// Every index within a model of `n_layers` layers of `n_heads` heads and a sentence of
    /// `n_tokens` tokens (at least one of each is assumed).
    pub(super) fn fit(&mut self, n_layers: usize, n_heads: usize, n_tokens: usize) {
        self.layer = self.layer.min(n_layers.max(1) - 1);
        self.head = self.head.min(n_heads.max(1) - 1);
        self.query = self.query.min(n_tokens.max(1) - 1);
        self.spot = self.spot.filter(|s| *s < n_tokens);
        self.ablation = self.ablation.within(n_layers, n_heads);
    }

    /// The query back to following the sentence's pronoun, no spotlight (the default sentence
    /// in another language: the word chosen in one is not a word of the other).
    pub(super) fn restart_indices(&mut self) {
        self.query_follows = true;
        self.spot = None;
    }
}
