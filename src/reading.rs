//! Plain readings: what the numbers of a stage say, in words, made from the live trace (the
//! chosen head and query row) in either language: "“it” takes 24% from “animal”, …".

use crate::core::model::{InputRule, Outcome};
use crate::core::order::largest_first;
use crate::i18n::{fill, t, Lang, ReadingMsg};
use crate::settings::Stage;
use ndarray::Array2;

/// How many keys a reading names before it sums up the rest.
const NAMED: usize = 3;

/// The reading of `stage` for query row `query` (0-based) of head `head`, or `None` when the
/// trace has no such row or head.
pub fn stage_reading(o: &Outcome, stage: Stage, head: usize, query: usize, lang: Lang) -> Option<String> {
    let trace = o.trace();
    let h = trace.head_traces.get(head)?;
    let q = token_name(&o.tokens, query)?;
    let key = |j: usize| token_name(&o.kv_tokens, j).unwrap_or_default();
    let tr = |m| t(lang, m);
    let text = match stage {
        Stage::Input => {
            let row = trace.x.outer_iter().nth(query)?;
            let first = row.iter().take(3).map(|v| format!("{v:.2}")).collect::<Vec<_>>().join(", ");
            let msg = match o.shape().input {
                InputRule::LearnedNormed => ReadingMsg::InputPretrained,
                InputRule::Learned => ReadingMsg::InputYours,
                InputRule::Sinusoidal { on: true } => ReadingMsg::Input,
                InputRule::Sinusoidal { on: false } => ReadingMsg::InputNoPosition,
                InputRule::SinusoidalTrained => ReadingMsg::InputYoursSinusoidal,
                InputRule::Rotary => ReadingMsg::InputYoursRotary,
            };
            // Row i (counted from 1 on screen) holds position p = i − 1, as PE(p) counts.
            let (i, p, d) = ((query + 1).to_string(), query.to_string(), row.len().to_string());
            fill(tr(msg), &[("i", &i), ("p", &p), ("tok", &q), ("d", &d), ("first", &first)])
        }
        Stage::Projection => {
            let (dk, heads, dm) = (trace.d_k, trace.n_heads(), trace.x.ncols());
            let values = [head + 1, head * dk + 1, (head + 1) * dk, dm, heads, dk].map(|v| v.to_string());
            let names = ["h", "a", "b", "dm", "heads", "dk"];
            let mut pairs: Vec<(&str, &str)> = names.iter().copied().zip(values.iter().map(String::as_str)).collect();
            pairs.push(("tok", &q));
            let msg = if trace.x_kv.is_some() { ReadingMsg::ProjectionCross } else { ReadingMsg::Projection };
            fill(tr(msg), &pairs)
        }
        Stage::Scores => {
            let order = ranked(o, &h.scores, query);
            let (top, low) = (*order.first()?, *order.last()?);
            let (s, s2) = (format!("{:.2}", h.scores[(query, top)]), format!("{:.2}", h.scores[(query, low)]));
            if order.len() == 1 {
                // One key left: either the mask hid the others, or there are no others.
                let msg = if o.kv_tokens.len() > 1 { ReadingMsg::ScoresOne } else { ReadingMsg::ScoresOnlyKey };
                fill(tr(msg), &[("q", &q), ("k", &key(top)), ("s", &s)])
            } else {
                fill(tr(ReadingMsg::Scores), &[("q", &q), ("k", &key(top)), ("s", &s), ("k2", &key(low)), ("s2", &s2)])
            }
        }
        Stage::Scaling => {
            let top = *ranked(o, &h.scores, query).first()?;
            let s = format!("{:.2}", h.scores[(query, top)]);
            if trace.scaled {
                let (div, scaled) = (format!("{:.2}", trace.scale), format!("{:.2}", h.scaled_scores[(query, top)]));
                let pairs = [("q", q.as_str()), ("k", &key(top)), ("s", &s), ("div", &div), ("t", &scaled)];
                fill(tr(ReadingMsg::Scaling), &pairs)
            } else {
                fill(tr(ReadingMsg::ScalingOff), &[("q", &q), ("k", &key(top)), ("s", &s)])
            }
        }
        Stage::Softmax => {
            let order = ranked(o, &h.weights, query);
            if order.is_empty() {
                return None;
            }
            let mut shares: Vec<String> = order
                .iter()
                .take(NAMED)
                .map(|&j| fill(tr(ReadingMsg::Share), &[("p", &percent(h.weights[(query, j)])), ("k", &key(j))]))
                .collect();
            let rest = &order[order.len().min(NAMED)..];
            if !rest.is_empty() {
                let p = percent(rest.iter().map(|&j| h.weights[(query, j)]).sum());
                shares.push(fill(tr(ReadingMsg::Rest), &[("p", &p), ("m", &rest.len().to_string())]));
            }
            fill(tr(ReadingMsg::Softmax), &[("q", &q), ("shares", &shares.join(tr(ReadingMsg::ListSep)))])
        }
        Stage::Output => {
            let order = ranked(o, &h.weights, query);
            if order.is_empty() {
                return None;
            }
            let terms: Vec<String> =
                order.iter().take(NAMED).map(|&j| format!("{:.2} × v[{}]", h.weights[(query, j)], key(j))).collect();
            let mut sum = terms.join(" + ");
            match order.len().saturating_sub(NAMED) {
                0 => {}
                1 => sum.push_str(&format!(" {}", tr(ReadingMsg::MoreTermsOne))),
                m => sum.push_str(&format!(" {}", fill(tr(ReadingMsg::MoreTerms), &[("m", &m.to_string())]))),
            }
            let stage = (Stage::Softmax.index() + 1).to_string();
            fill(tr(ReadingMsg::Output), &[("q", &q), ("sum", &sum), ("stage", &stage)])
        }
        Stage::MultiHead => {
            let tops: Vec<(usize, f32)> = trace
                .head_traces
                .iter()
                .filter_map(|h| ranked(o, &h.weights, query).first().map(|&top| (top, h.weights[(query, top)])))
                .collect();
            let picks: Vec<String> = tops
                .iter()
                .enumerate()
                .map(|(i, &(top, w))| {
                    let (h, w) = ((i + 1).to_string(), format!("{w:.2}"));
                    fill(tr(ReadingMsg::HeadPick), &[("h", &h), ("k", &key(top)), ("w", &w)])
                })
                .collect();
            let dm = trace.x.ncols().to_string();
            let (first, w) = *tops.first()?;
            let pairs = [("q", q.as_str()), ("picks", &picks.join(tr(ReadingMsg::ListSep))), ("dm", &dm)];
            match tops.len() {
                1 => fill(
                    tr(ReadingMsg::MultiHeadOne),
                    &[("q", &q), ("k", &key(first)), ("w", &format!("{w:.2}")), ("dm", &dm)],
                ),
                _ if tops.iter().all(|&(top, _)| top == first) => {
                    fill(tr(ReadingMsg::MultiHeadSame), &[pairs[0], ("k", &key(first)), pairs[1], pairs[2]])
                }
                _ => fill(tr(ReadingMsg::MultiHead), &pairs),
            }
        }
    };
    Some(text)
}

/// One attention weight in words: "“it” takes 24% of what it reads from “animal”".
pub fn weight_in_words(query: &str, key: &str, weight: f32, lang: Lang) -> String {
    fill(t(lang, ReadingMsg::WeightCell), &[("q", query), ("p", &percent(weight)), ("k", key)])
}

/// The keys row `query` may see, largest entry of `m` (n_q, n_kv) first.
fn ranked(o: &Outcome, m: &Array2<f32>, query: usize) -> Vec<usize> {
    let (Some(row), Some(blocked)) = (m.outer_iter().nth(query), o.trace().blocked.outer_iter().nth(query)) else {
        return vec![];
    };
    let row: Vec<f32> = row.to_vec();
    largest_first(&row).into_iter().filter(|&j| !blocked[j]).collect()
}

/// Token `i` as a reading names it: its text, with its position when the sentence repeats it.
fn token_name(tokens: &[String], i: usize) -> Option<String> {
    let tok = tokens.get(i)?;
    Some(if tokens.iter().filter(|t| *t == tok).count() > 1 { format!("{tok} ({})", i + 1) } else { tok.clone() })
}

/// A weight as a whole percentage; below half a percent, "<1%" rather than a misleading 0%.
fn percent(w: f32) -> String {
    if w > 0.0 && w < 0.005 {
        "<1%".into()
    } else {
        format!("{:.0}%", w * 100.0)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::models::{Catalog, Models};
    use crate::settings::Settings;
    use std::sync::Arc;

    /// The outcome of the default lesson in `lang`, first changed by `f`.
    pub(crate) fn outcome(lang: Lang, f: impl FnOnce(&mut Settings, &Models)) -> Outcome {
        let models = Models::default();
        let mut s = Settings::new(lang);
        f(&mut s, &models);
        let model = models.model(s.choice());
        let e = model.forward(&s.input(&*model), &s.run_options(&*model)).expect("the default sentence computes");
        Outcome::new(Arc::new(e), 0).expect("one layer")
    }

    #[test]
    fn the_softmax_reading_names_the_largest_weights_and_they_add_up() {
        let o = outcome(Lang::En, |_, _| {});
        let q = o.tokens.iter().position(|t| t == "street").expect("street is a token");
        let text = stage_reading(&o, Stage::Softmax, 0, q, Lang::En).expect("a reading");
        let w = o.trace().head_traces[0].weights.row(q);
        let top = (0..w.len()).max_by(|&a, &b| w[a].total_cmp(&w[b])).expect("a row");
        let expected =
            format!("“street” takes {} from “{}”", percent(w[top]), token_name(&o.tokens, top).unwrap_or_default());
        assert!(text.starts_with(&expected), "{text:?} should start with {expected:?}");
        // The named shares and the rest are the whole row (to rounding): percentages sum ≈ 100.
        let sum: i32 = text.split('%').filter_map(|p| p.rsplit(' ').next()?.parse::<i32>().ok()).sum();
        assert!((97..=103).contains(&sum), "{text:?} sums to {sum}%");
        assert!(text.contains(&format!("the other {}", o.tokens.len() - NAMED)), "{text}");
    }

    #[test]
    fn repeated_tokens_are_told_apart_and_chinese_reads_in_chinese() {
        let o = outcome(Lang::En, |_, _| {});
        let first = o.tokens.iter().position(|t| t == "the").expect("“the” is a token");
        assert_eq!(token_name(&o.tokens, first).as_deref(), Some(format!("the ({})", first + 1).as_str()));
        let zh = outcome(Lang::Zh, |_, _| {});
        let text = stage_reading(&zh, Stage::Softmax, 0, 0, Lang::Zh).expect("a reading");
        assert!(text.starts_with("“小") && text.contains("来自"), "{text}");
    }

    #[test]
    fn the_scaling_reading_divides_by_the_trace_divisor_and_says_when_scaling_is_off() {
        let on = outcome(Lang::En, |_, _| {});
        let text = stage_reading(&on, Stage::Scaling, 0, 2, Lang::En).expect("a reading");
        assert!(text.contains(&format!("÷ {:.2} =", on.trace().scale)) && on.trace().scale == 4.0, "{text}");
        let off = outcome(Lang::En, |s, _| s.lesson_mut().set_scaled(false));
        let text = stage_reading(&off, Stage::Scaling, 0, 2, Lang::En).expect("a reading");
        assert!(text.starts_with("Scaling is OFF") && !text.contains(" = "), "nothing is divided: {text}");
    }

    #[test]
    fn the_projection_reading_shows_how_d_k_splits_d_model() {
        let o = outcome(Lang::En, |s, c| {
            assert!(s.change_choice(c, |m| m.set_d_model(64)) && s.change_choice(c, |m| m.set_n_heads(4)))
        });
        let text = stage_reading(&o, Stage::Projection, 1, 0, Lang::En).expect("a reading");
        assert!(
            text.contains("Head 2 reads columns 17–32")
                && text.contains("h = 4 heads, d_k = d_model / h = 64 / 4 = 16"),
            "{text}"
        );
        let cross = outcome(Lang::En, |s, _| s.lesson_mut().set_cross(true));
        let text = stage_reading(&cross, Stage::Projection, 0, 0, Lang::En).expect("a reading");
        assert!(text.contains("come from the tokens of the second sentence"), "{text}");
    }

    #[test]
    fn masked_keys_are_not_read_and_a_missing_row_gives_nothing() {
        let o = outcome(Lang::En, |s, _| s.lesson_mut().set_mask(crate::core::Mask::Causal));
        let text = stage_reading(&o, Stage::Softmax, 0, 0, Lang::En).expect("a reading");
        assert_eq!(text, "“the (1)” takes 100% from “the (1)”.", "the first token sees only itself");
        let scores = stage_reading(&o, Stage::Scores, 0, 0, Lang::En).expect("a reading");
        assert!(scores.starts_with("Row “the (1)” may see only “the (1)”"), "{scores}");
        assert_eq!(stage_reading(&o, Stage::Softmax, 0, o.tokens.len(), Lang::En), None);
        assert_eq!(stage_reading(&o, Stage::Softmax, 9, 0, Lang::En), None);
    }
}
