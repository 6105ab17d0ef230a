//! The trained model's forward pass, keeping each layer's full attention [`Trace`]: embed
//! (word + position + segment, LayerNorm), then per layer attention, residual + LayerNorm,
//! GELU feed-forward, residual + LayerNorm; finally the mean over tokens, L2-normalised (the
//! sentence embedding).

use super::layers::gelu;
use super::model::Model;
use super::wordpiece::Piece;
use crate::attention::run;
use crate::{AttentionConfig, AttnError, Trace};
use ndarray::{s, Array1, Array2, Axis};

/// One layer's work on a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerOutcome {
    /// Attention with every intermediate; `trace.x` is the layer's input (n, d_model).
    pub trace: Trace,
    /// LayerNorm(x + attention output): (n, d_model).
    pub attended: Array2<f32>,
    /// The layer's output, LayerNorm(attended + FFN(attended)): (n, d_model).
    pub output: Array2<f32>,
}

/// A sentence through the whole model.
#[derive(Debug, Clone, PartialEq)]
pub struct Encoding {
    /// [CLS], the WordPiece tokens, [SEP].
    pub pieces: Vec<Piece>,
    /// The word embeddings, one row per piece: (n, d_model).
    pub word: Array2<f32>,
    /// Position + segment embeddings: (n, d_model). The first layer's input is
    /// LayerNorm(word + position).
    pub position: Array2<f32>,
    /// One per layer, first to last.
    pub layers: Vec<LayerOutcome>,
    /// The sentence embedding: the mean of the last layer's rows, L2-normalised: (d_model).
    pub pooled: Array1<f32>,
}

/// Run `model` on `pieces` (from [`super::wordpiece::Vocab::encode`]). `cfg`'s mask, scaling
/// and temperature apply to every layer (the model was trained with none, scaled, 1); its
/// head count is the model's.
pub fn forward(model: &Model, pieces: Vec<Piece>, cfg: &AttentionConfig) -> Result<Encoding, AttnError> {
    let (n, d) = (pieces.len(), model.config.d_model);
    if n == 0 {
        return Err(AttnError::EmptySequence { which: "query" });
    }
    if n > model.config.max_positions {
        // In symbols only (the page shows it in either language): X has at most that many rows.
        let expected = format!("≤ {} × {d}", model.config.max_positions);
        return Err(AttnError::Shape { what: "X", expected, given: (n, d) });
    }
    let mut word = Array2::zeros((n, d));
    for (mut row, piece) in word.rows_mut().into_iter().zip(&pieces) {
        row.assign(&model.word_embedding(piece.id));
    }
    let position = &model.position.slice(s![..n, ..]) + &model.segment;
    let mut x = &word + &position;
    model.embedding_norm.apply(&mut x);

    let cfg = AttentionConfig { heads: model.config.heads, ..cfg.clone() };
    let mut layers = Vec::with_capacity(model.layers.len());
    for layer in &model.layers {
        let trace = run(&x, None, &layer.attention, &cfg)?;
        let mut attended = &x + &trace.output;
        layer.attention_norm.apply(&mut attended);
        let mut hidden = layer.ffn_in.apply("the feed-forward layer", attended.view())?;
        gelu(&mut hidden);
        let mut output = layer.ffn_out.apply("the feed-forward output", hidden.view())?;
        output += &attended;
        layer.ffn_norm.apply(&mut output);
        x = output.clone();
        layers.push(LayerOutcome { trace, attended, output });
    }
    let mean = x.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(d));
    let norm = mean.dot(&mean).sqrt().max(1e-12);
    Ok(Encoding { pieces, word, position, layers, pooled: mean / norm })
}

/// The cosine similarity of two sentence embeddings (each already of length 1).
pub fn similarity(a: &Encoding, b: &Encoding) -> f32 {
    a.pooled.dot(&b.pooled)
}
