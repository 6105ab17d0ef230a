//! What the page hands to the questions' module: the numbers of the stage on screen (the
//! input, and the chosen head's intermediates), taken from the page's own outcome as it
//! crossed (`protocol::ToModule::Shown`), so the module judges an answer against exactly what
//! the page computed and will reveal.

use crate::core::model::{InputRule, Origin, Outcome};
use ndarray::Array2;

/// How the model shown tells positions apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Positions {
    /// Nothing: a token's row of X is the same wherever it stands.
    None,
    /// Added to the token's embedding in X (sinusoidal or learned).
    Added,
    /// Inside attention: each head's Q and K turned by position (RoPE); X holds none.
    Rotary,
}

/// The handed-over numbers. `n_q` queries, `n_kv` keys, `d_k` columns per head.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    /// Query tokens (rows), key/value tokens (columns).
    pub tokens: Vec<String>,
    pub kv_tokens: Vec<String>,
    pub d_model: usize,
    pub n_heads: usize,
    pub d_k: usize,
    /// The chosen head and query row, 0-based.
    pub head: usize,
    pub query: usize,
    /// The layer shown, 0-based.
    pub layer: usize,
    /// Whether the scores are divided by √d_k, and the divisor (√d_k or 1).
    pub scaled: bool,
    pub scale: f32,
    /// The softmax temperature T: weights = softmax(scaled / T).
    pub temperature: f32,
    /// How positions enter, and whether keys come from a second sentence.
    pub positions: Positions,
    pub cross: bool,
    /// Seeded random weights: what attends to what means nothing, so a question about which key
    /// wins can only be guessed.
    pub random: bool,
    /// X: (n_q, d_model).
    pub x: Array2<f32>,
    /// The chosen head's K_h, V_h: (n_kv, d_k); Q_h, O_h: (n_q, d_k).
    pub q: Array2<f32>,
    pub k: Array2<f32>,
    pub v: Array2<f32>,
    pub output: Array2<f32>,
    /// Raw scores, scaled scores, weights: (n_q, n_kv).
    pub scores: Array2<f32>,
    pub scaled_scores: Array2<f32>,
    pub weights: Array2<f32>,
    /// `true` where the query may not see the key: (n_q, n_kv).
    pub blocked: Array2<bool>,
}

/// The numbers of `head` and `query` (clamped to the trace's) of `o`, the outcome of the
/// page's layer `layer` (0-based; the handed-over outcome holds that one layer).
pub fn from_outcome(o: &Outcome, layer: usize, head: usize, query: usize) -> Option<Shown> {
    let (t, n_q, shape) = (o.trace(), o.tokens.len(), o.shape());
    let head = head.min(t.n_heads().checked_sub(1)?);
    let h = t.head(head)?;
    Some(Shown {
        tokens: o.tokens.clone(),
        kv_tokens: o.kv_tokens.clone(),
        d_model: t.d_model(),
        n_heads: t.n_heads(),
        d_k: t.d_k,
        head,
        query: query.min(n_q.checked_sub(1)?),
        layer,
        scaled: t.scaled,
        scale: t.scale,
        temperature: t.temperature,
        positions: match shape.input {
            InputRule::Sinusoidal { on: false } => Positions::None,
            InputRule::Rotary => Positions::Rotary,
            _ => Positions::Added,
        },
        cross: t.is_cross(),
        random: matches!(shape.origin, Origin::Seeded { .. }),
        x: t.x.clone(),
        q: h.q.clone(),
        k: h.k.clone(),
        v: h.v.clone(),
        output: h.output.clone(),
        scores: h.scores.clone(),
        scaled_scores: h.scaled_scores.clone(),
        weights: h.weights.clone(),
        blocked: t.blocked.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::reading::tests::outcome;

    #[test]
    fn what_the_page_hands_over_is_the_trace() {
        let o = outcome(Lang::En, |_, _| {});
        let s = from_outcome(&o, o.layer, 1, 2).expect("reads the outcome");
        let (t, h) = (o.trace(), &o.trace().head_traces[1]);
        assert_eq!((s.head, s.query, &s.tokens), (1, 2, &o.tokens));
        assert_eq!((&s.x, &s.weights, &s.v, &s.q, &s.blocked), (&t.x, &h.weights, &h.v, &h.q, &t.blocked));
        assert_eq!((&s.scaled_scores, &s.output, s.positions), (&h.scaled_scores, &h.output, Positions::Added));
        assert!(s.random, "the default weights are the seeded random ones");
        let far = from_outcome(&o, 0, 99, 99).expect("clamped");
        assert_eq!((far.head, far.query), (t.n_heads() - 1, o.tokens.len() - 1));
    }
}
