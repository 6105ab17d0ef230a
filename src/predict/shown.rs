//! What the page hands to the questions' module: the numbers of the stage on screen (the
//! input, and the chosen head's intermediates), read from the page's own trace export, so the
//! module judges an answer against exactly what the page computed and will reveal.

use crate::trace_import::outcome_from_export;
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

/// The numbers of `head` and `query` (clamped to the trace's) in `json`, the page's trace
/// export (`export::trace_json`, which the page already has for its "Export JSON" button, so
/// the hand-over adds nothing to the page's .wasm), read back by `trace_import`; `None` if it
/// is not one.
pub fn from_export(json: &str, head: usize, query: usize) -> Option<Shown> {
    let o = outcome_from_export(json)?;
    let v: serde_json::Value = serde_json::from_str(json).ok()?;
    let (t, n_q) = (o.trace(), o.tokens.len());
    let head = head.min(t.n_heads() - 1);
    let h = t.head(head)?;
    Some(Shown {
        tokens: o.tokens.clone(),
        kv_tokens: o.kv_tokens.clone(),
        d_model: t.d_model(),
        n_heads: t.n_heads(),
        d_k: t.d_k,
        head,
        query: query.min(n_q - 1),
        // The pretrained models and the learner's name their layer (1-based); the random weights
        // have one layer and say whether they add positions, the learner's model which kind it has.
        layer: v.get("layer").and_then(serde_json::Value::as_u64).map_or(0, |l| l.saturating_sub(1) as usize),
        scaled: t.scaled,
        scale: t.scale,
        temperature: t.temperature,
        positions: match (
            v.get("positional_encoding").map(|p| p.as_bool()),
            v.get("positions").and_then(|p| p.as_str()),
        ) {
            (Some(Some(false)), _) => Positions::None,
            (_, Some("rope")) => Positions::Rotary,
            _ => Positions::Added,
        },
        cross: t.is_cross(),
        random: v.get("seed").is_some(),
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
    use crate::export::trace_json;
    use crate::i18n::Lang;
    use crate::reading::tests::outcome;

    #[test]
    fn what_the_export_hands_over_is_the_trace() {
        let o = outcome(Lang::En, |_, _| {});
        let s = from_export(&trace_json(&o, "lesson"), 1, 2).expect("reads the export");
        let (t, h) = (o.trace(), &o.trace().head_traces[1]);
        assert_eq!((s.head, s.query, &s.tokens), (1, 2, &o.tokens));
        assert_eq!((&s.x, &s.weights, &s.v, &s.q, &s.blocked), (&t.x, &h.weights, &h.v, &h.q, &t.blocked));
        assert_eq!((&s.scaled_scores, &s.output, s.positions), (&h.scaled_scores, &h.output, Positions::Added));
        assert!(s.random, "the default weights are the seeded random ones");
        assert!(from_export("{}", 0, 0).is_none() && from_export("not json", 0, 0).is_none());
        let far = from_export(&trace_json(&o, ""), 99, 99).expect("clamped");
        assert_eq!((far.head, far.query), (t.n_heads() - 1, o.tokens.len() - 1));
    }
}
