//! What the page hands to the questions' module: the numbers of the stage on screen (the
//! input, and the chosen head's intermediates), read from the page's own trace export, so the
//! module judges an answer against exactly what the page computed and will reveal.

use crate::core::kernels::matmul;
use crate::core::mask::{causal_mask, Mask};
use ndarray::Array2;

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
    /// Whether X includes a positional encoding, and whether keys come from a second sentence.
    pub positional: bool,
    pub cross: bool,
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
/// the hand-over adds nothing to the page's .wasm); `None` if it is not one. Q_h, K_h, V_h
/// are the head's columns of Q, K, V; O_h = A·V_h by the core's own product; the mask is
/// rebuilt from its name (the lesson runs no key padding).
pub fn from_export(json: &str, head: usize, query: usize) -> Option<Shown> {
    let v: serde_json::Value = serde_json::from_str(json).ok()?;
    let strings = |key: &str| -> Option<Vec<String>> {
        v.get(key)?.as_array()?.iter().map(|s| s.as_str().map(String::from)).collect()
    };
    let (tokens, kv_tokens) = (strings("tokens")?, strings("kv_tokens")?);
    let (n_q, n_kv) = (tokens.len(), kv_tokens.len());
    let size = |key: &str| v.get(key)?.as_u64().and_then(|n| usize::try_from(n).ok());
    let (d_model, n_heads) = (size("d_model")?, size("heads")?);
    if n_q == 0 || n_kv == 0 || n_heads == 0 || d_model % n_heads != 0 {
        return None;
    }
    let d_k = d_model / n_heads;
    let (head, query) = (head.min(n_heads - 1), query.min(n_q - 1));
    let expected = v.get("expected")?;
    let matrix = |m: &serde_json::Value, shape: (usize, usize)| -> Option<Array2<f32>> {
        let rows = m.as_array()?;
        let mut data = Vec::with_capacity(shape.0 * shape.1);
        for row in rows {
            // JSON has no −∞: an infinite entry is written as null.
            data.extend(row.as_array()?.iter().map(|x| x.as_f64().map_or(f32::NEG_INFINITY, |x| x as f32)));
        }
        Array2::from_shape_vec(shape, data).ok()
    };
    let columns = |key: &str, rows: usize| -> Option<Array2<f32>> {
        let full = matrix(expected.get(key)?, (rows, d_model))?;
        Some(full.slice(ndarray::s![.., head * d_k..(head + 1) * d_k]).to_owned())
    };
    let (q, k, values) = (columns("q", n_q)?, columns("k", n_kv)?, columns("v", n_kv)?);
    let per_head = |key: &str| matrix(expected.get(key)?.get(head)?, (n_q, n_kv));
    let (scores, weights) = (per_head("scores")?, per_head("weights")?);
    let scaled = v.get("scaled")?.as_bool()?;
    let scale = if scaled { (d_k as f32).sqrt() } else { 1.0 };
    let causal = Mask::from_slug(v.get("mask")?.as_str()?)? == Mask::Causal;
    let blocked = if causal { causal_mask(n_q) } else { Array2::from_elem((n_q, n_kv), false) };
    Some(Shown {
        x: matrix(v.get("x")?, (n_q, d_model))?,
        output: matmul(weights.view(), values.view()),
        scaled_scores: &scores / scale,
        tokens,
        kv_tokens,
        d_model,
        n_heads,
        d_k,
        head,
        query,
        // The pretrained models and the learner's name their layer (1-based) and always add
        // positions; the random weights have one layer and say whether they add them.
        layer: size("layer").map_or(0, |l| l.saturating_sub(1)),
        scaled,
        scale,
        temperature: v.get("temperature").and_then(serde_json::Value::as_f64).map_or(1.0, |t| t as f32),
        positional: v.get("positional_encoding").is_none_or(|p| p.as_bool() == Some(true)),
        cross: v.get("x_kv").is_some(),
        q,
        k,
        v: values,
        scores,
        weights,
        blocked,
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
        assert_eq!((&s.scaled_scores, &s.output, s.positional), (&h.scaled_scores, &h.output, true));
        assert!(from_export("{}", 0, 0).is_none() && from_export("not json", 0, 0).is_none());
        let far = from_export(&trace_json(&o, ""), 99, 99).expect("clamped");
        assert_eq!((far.head, far.query), (t.n_heads() - 1, o.tokens.len() - 1));
    }
}
