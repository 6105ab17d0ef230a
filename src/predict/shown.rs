//! What the page hands to the questions' module: the numbers of the stage on screen (the
//! input, and the chosen head's intermediates for the chosen query), packed as one flat f32
//! array and the token texts as one string, so the module judges an answer against exactly
//! what the page computed and will reveal. The page packs ([`pack`]); the module unpacks.

use crate::core::model::Outcome;
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

/// The header's length: the sizes and flags before the matrices.
const HEADER: usize = 12;

/// Token texts are joined by this (no tokenizer produces it).
const SEP: char = '\u{1f}';

/// The outcome's numbers for `head` and `query` (clamped to the outcome's), packed, and its
/// tokens, query side then key side.
pub fn pack(o: &Outcome, head: usize, query: usize) -> Option<(Vec<f32>, String)> {
    let t = o.trace();
    let h = t.head(head)?;
    let (n_q, n_kv) = t.n();
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let header = [
        n_q as f32,
        n_kv as f32,
        t.d_model() as f32,
        t.n_heads() as f32,
        t.d_k as f32,
        head.min(t.n_heads().saturating_sub(1)) as f32,
        query.min(n_q.saturating_sub(1)) as f32,
        o.layer as f32,
        flag(t.scaled),
        t.scale,
        flag(o.positional().is_some()),
        flag(t.is_cross()),
    ];
    let mut data = header.to_vec();
    for m in [&t.x, &h.q, &h.k, &h.v, &h.output, &h.scores, &h.scaled_scores, &h.weights] {
        data.extend(m.iter());
    }
    data.extend(t.blocked.iter().map(|b| flag(*b)));
    let words: Vec<&str> = o.tokens.iter().chain(&o.kv_tokens).map(String::as_str).collect();
    Some((data, words.join(&SEP.to_string())))
}

/// The numbers [`pack`] packed; `None` if they do not fit together.
pub fn unpack(data: &[f32], words: &str) -> Option<Shown> {
    let size = |i: usize| data.get(i).filter(|v| v.is_finite() && **v >= 0.0).map(|v| *v as usize);
    let (n_q, n_kv, d_model, n_heads, d_k) = (size(0)?, size(1)?, size(2)?, size(3)?, size(4)?);
    let on = |i: usize| data.get(i).is_some_and(|v| *v == 1.0);
    let mut rest = data.get(HEADER..)?;
    let mut take = |rows: usize, cols: usize| -> Option<Array2<f32>> {
        let (m, tail) = (rest.get(..rows * cols)?, rest.get(rows * cols..)?);
        rest = tail;
        Array2::from_shape_vec((rows, cols), m.to_vec()).ok()
    };
    let x = take(n_q, d_model)?;
    let (q, k, v, output) = (take(n_q, d_k)?, take(n_kv, d_k)?, take(n_kv, d_k)?, take(n_q, d_k)?);
    let (scores, scaled_scores, weights) = (take(n_q, n_kv)?, take(n_q, n_kv)?, take(n_q, n_kv)?);
    let blocked = take(n_q, n_kv)?.mapv(|b| b == 1.0);
    let all: Vec<String> = if words.is_empty() { vec![] } else { words.split(SEP).map(String::from).collect() };
    if all.len() != n_q + n_kv || n_q == 0 || n_kv == 0 {
        return None;
    }
    let (tokens, kv_tokens) = all.split_at(n_q);
    Some(Shown {
        tokens: tokens.to_vec(),
        kv_tokens: kv_tokens.to_vec(),
        d_model,
        n_heads,
        d_k,
        head: size(5)?,
        query: size(6)?.min(n_q - 1),
        layer: size(7)?,
        scaled: on(8),
        scale: *data.get(9)?,
        positional: on(10),
        cross: on(11),
        x,
        q,
        k,
        v,
        output,
        scores,
        scaled_scores,
        weights,
        blocked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::reading::tests::outcome;

    #[test]
    fn what_is_packed_unpacks_as_the_trace_has_it() {
        let o = outcome(Lang::En, |_, _| {});
        let (data, words) = pack(&o, 1, 2).expect("packs");
        let s = unpack(&data, &words).expect("unpacks");
        let h = &o.trace().head_traces[1];
        assert_eq!((s.head, s.query, s.tokens.clone()), (1, 2, o.tokens.clone()));
        assert_eq!((&s.x, &s.weights, &s.v, &s.blocked), (&o.trace().x, &h.weights, &h.v, &o.trace().blocked));
        assert_eq!(s.scaled_scores, h.scaled_scores);
        assert!(unpack(&data[..data.len() - 1], &words).is_none(), "a short array is refused");
        assert!(unpack(&data, "a").is_none(), "tokens that do not match the sizes are refused");
    }
}
