//! One question per stage, made from the numbers on screen ([`Shown`]), and its judgement:
//! right or wrong, and a sentence or two made from the same numbers saying why.

use super::shown::{Positions, Shown};
use crate::i18n::{fill, t, Lang, PredictMsg as P};
use crate::settings::Stage;
use ndarray::ArrayView1;

/// How a question is answered (its `data-kind` in the page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Click one key (a column of the stage's matrix).
    ClickKey,
    /// Select any number of rows (possibly none), then check.
    ClickRow,
    /// Type a number, or numbers.
    Number,
    /// Set a slider between 0 and 1.
    Slider,
}

impl Kind {
    pub fn slug(self) -> &'static str {
        match self {
            Kind::ClickKey => "click-key",
            Kind::ClickRow => "click-row",
            Kind::Number => "number",
            Kind::Slider => "slider",
        }
    }
}

/// What is right.
#[derive(Debug, Clone, PartialEq)]
enum Expected {
    /// The key(s) with the largest value in `values` among those not `blocked`; ties all count.
    Key { values: Vec<f32>, blocked: Vec<bool> },
    /// Exactly these rows.
    Rows(Vec<usize>),
    /// A number within 10 %.
    Value(f32),
    /// A number within 0.1 (a weight, set with a slider).
    Near(f32),
    /// Two whole numbers (a shape, rows × columns, or a column range, first–last).
    Pair(usize, usize),
}

/// A question about the stage on screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    pub stage: Stage,
    pub kind: Kind,
    /// The question, in the page's language.
    pub prompt: String,
    /// The tokens to click, for `ClickKey` (the keys) and `ClickRow` (the rows).
    pub choices: Vec<String>,
    expected: Expected,
    /// The numbers the feedback names.
    facts: Facts,
}

/// What the feedback says beyond right or wrong, made when the question is.
#[derive(Debug, Clone, PartialEq)]
struct Facts {
    /// The feedback's template and its values (the given answer fills `{yours}`).
    template: P,
    values: Vec<(&'static str, String)>,
}

/// The student's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    Key(usize),
    Rows(Vec<usize>),
    Text(String),
}

/// The page's judgement of an answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub correct: bool,
    pub feedback: String,
}

/// Three significant decimals, as the heatmaps' read-outs print numbers.
pub fn show(v: f32) -> String {
    crate::number::show(v, crate::number::Room::Reading)
}

/// The population standard deviation of `values`, as the stage's heatmaps print it.
fn spread(values: &[f32]) -> f32 {
    crate::core::readouts::mean_std(values).1
}

/// The Euclidean distance of two vectors.
fn distance(a: ArrayView1<f32>, b: ArrayView1<f32>) -> f32 {
    a.iter().zip(b.iter()).map(|(x, y)| (x - y) * (x - y)).sum::<f32>().sqrt()
}

/// Groups of identical rows of X (each of two or more rows), in order.
fn identical_rows(s: &Shown) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = vec![];
    for i in 0..s.x.nrows() {
        let same = |j: &usize| distance(s.x.row(i), s.x.row(*j)) <= 1e-6;
        match groups.iter_mut().find(|g| g.first().is_some_and(same)) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups.retain(|g| g.len() > 1);
    groups
}

/// "1, 3" for 0-based rows 0 and 2, each with its token: "1 (the), 3 (the)".
fn rows_text(rows: &[usize], tokens: &[String]) -> String {
    let one = |r: &usize| format!("{} ({})", r + 1, tokens.get(*r).map_or("", String::as_str));
    rows.iter().map(one).collect::<Vec<_>>().join(", ")
}

/// The stage's question for the numbers on screen, in `lang`.
pub fn question(s: &Shown, stage: Stage, lang: Lang) -> Question {
    let tr = |m: P| t(lang, m);
    let head = (s.head + 1).to_string();
    let query = s.tokens[s.query].clone();
    let ask = |m: P, values: &[(&str, &str)]| fill(tr(m), values);
    // A question about keys: the largest of `values` among the keys the query may see (grey on
    // the revealed map when a mask hides some: the question says so), with what the feedback
    // names; with random weights it can only be guessed, and the question says that too.
    let key_question = |prompt: P, fb: P, values: Vec<f32>, more: Vec<(&'static str, String)>| {
        let blocked = s.blocked.row(s.query).to_vec();
        let best = best_keys(&values, &blocked);
        let best_text = best.iter().map(|j| s.kv_tokens[*j].clone()).collect::<Vec<_>>().join(", ");
        let best_value = best.first().map_or(String::new(), |j| show(values[*j]));
        let mut prompt = ask(prompt, &[("h", &head), ("q", &query)]);
        let joiner = if lang == Lang::Zh { "" } else { " " };
        if blocked.iter().any(|b| *b) {
            prompt = format!("{prompt}{joiner}{}", tr(P::AmongOpen));
        }
        // Only the scores can be guessed from nothing: the later stages' answers follow from
        // the scores a student has seen by then.
        if s.random && stage == Stage::Scores {
            prompt = format!("{prompt}{joiner}{}", tr(P::RandomGuess));
        }
        let mut values_fb = vec![("best", best_text), ("v", best_value)];
        values_fb.extend(more);
        Question {
            stage,
            kind: Kind::ClickKey,
            prompt,
            choices: s.kv_tokens.clone(),
            facts: Facts { template: fb, values: values_fb },
            expected: Expected::Key { values, blocked },
        }
    };
    match stage {
        Stage::Input => {
            let groups = identical_rows(s);
            let rows: Vec<usize> = {
                let mut r: Vec<usize> = groups.concat();
                r.sort_unstable();
                r
            };
            let mut seen = std::collections::BTreeMap::<&str, usize>::new();
            for tok in &s.tokens {
                *seen.entry(tok).or_default() += 1;
            }
            let repeated: Vec<&str> = seen.iter().filter(|(_, n)| **n > 1).map(|(t, _)| *t).collect();
            let later = s.layer > 0;
            let (template, values) = if !rows.is_empty() {
                let same = if s.positions == Positions::Rotary { P::FbInputSameRotary } else { P::FbInputSame };
                (same, vec![("rows", rows_text(&rows, &s.tokens))])
            } else if !repeated.is_empty() {
                let differ = if later { P::FbInputContext } else { P::FbInputPositions };
                (differ, vec![("tokens", repeated.join(", ")), ("layer", s.layer.to_string())])
            } else {
                (P::FbInputNoRepeat, vec![])
            };
            let pe = tr(match (later, s.positions) {
                (true, _) => P::PositionalLater,
                (false, Positions::Added) => P::PositionalOn,
                (false, Positions::None) => P::PositionalOff,
                (false, Positions::Rotary) => P::PositionalRotary,
            });
            Question {
                stage,
                kind: Kind::ClickRow,
                prompt: ask(P::QInput, &[("pe", pe)]),
                choices: s.tokens.clone(),
                expected: Expected::Rows(rows),
                facts: Facts { template, values },
            }
        }
        Stage::Projection => {
            let (n, d, h, dk) = (s.tokens.len(), s.d_model, s.n_heads, s.d_k);
            let values: Vec<(&'static str, String)> =
                vec![("n", n.to_string()), ("d", d.to_string()), ("h", h.to_string()), ("dk", dk.to_string())];
            Question {
                stage,
                kind: Kind::Number,
                prompt: ask(P::QProjection, &[("n", &values[0].1), ("d", &values[1].1), ("h", &values[2].1)]),
                choices: vec![],
                expected: Expected::Pair(n, dk),
                facts: Facts { template: P::FbShape, values },
            }
        }
        Stage::Scores => key_question(P::QScores, P::FbScores, s.scores.row(s.query).to_vec(), vec![]),
        Stage::Scaling => {
            let raw = spread(&crate::core::readouts::open_values(&s.scores, &s.blocked));
            let after = spread(&crate::core::readouts::open_values(&s.scaled_scores, &s.blocked));
            let template = if s.scaled { P::FbSpreadScaled } else { P::FbSpreadUnscaled };
            let values = vec![("s", show(after)), ("raw", show(raw)), ("dk", s.d_k.to_string()), ("sq", show(s.scale))];
            let scaling = tr(if s.scaled { P::ScalingOn } else { P::ScalingOff });
            Question {
                stage,
                kind: Kind::Number,
                prompt: ask(P::QScaling, &[("h", &head), ("raw", &values[1].1), ("on", scaling)]),
                choices: vec![],
                expected: Expected::Value(after),
                facts: Facts { template, values },
            }
        }
        Stage::Softmax => key_question(P::QSoftmax, P::FbSoftmax, s.weights.row(s.query).to_vec(), vec![]),
        Stage::Output => {
            // The largest share of the mix: the lesson's rule (the output leans towards the
            // values with the most weight), read off the row of A. The value nearest the output
            // is named too when it is another (flat weights put O between the values).
            let weights = s.weights.row(s.query).to_vec();
            let blocked = s.blocked.row(s.query).to_vec();
            let o = s.output.row(s.query);
            let d: Vec<f32> = s.v.rows().into_iter().map(|v| -distance(o, v)).collect();
            let (most, near) = (best_keys(&weights, &blocked), best_keys(&d, &blocked));
            let nearest = match near.first() {
                Some(j) if !most.contains(j) => {
                    fill(tr(P::FbOutputNearest), &[("near", &s.kv_tokens[*j]), ("dist", &show(-d[*j]))])
                }
                _ => String::new(),
            };
            key_question(P::QOutput, P::FbOutput, weights, vec![("nearest", nearest)])
        }
        Stage::MultiHead => {
            let (a, b) = (s.head * s.d_k + 1, (s.head + 1) * s.d_k);
            let values =
                vec![("h", head.clone()), ("a", a.to_string()), ("b", b.to_string()), ("dk", s.d_k.to_string())];
            Question {
                stage,
                kind: Kind::Number,
                prompt: ask(
                    P::QMultiHead,
                    &[("h", &head), ("d", &s.d_model.to_string()), ("n", &s.n_heads.to_string())],
                ),
                choices: vec![],
                expected: Expected::Pair(a, b),
                facts: Facts { template: P::FbRange, values },
            }
        }
    }
}

/// The stage's questions: its own first, then any follow-up (the softmax stage asks next how
/// large the largest weight is, set with a slider).
pub fn questions(s: &Shown, stage: Stage, lang: Lang) -> Vec<Question> {
    let mut all = vec![question(s, stage, lang)];
    if count(stage) > 1 {
        all.push(largest_weight(s, lang));
    }
    all
}

/// How many questions [`questions`] asks at `stage`.
pub fn count(stage: Stage) -> usize {
    if stage == Stage::Softmax {
        2
    } else {
        1
    }
}

/// How large the chosen query's largest weight is, with the scaling as it is now: with
/// scaling off and a large d_k the softmax saturates, and this is where a student sees it.
fn largest_weight(s: &Shown, lang: Lang) -> Question {
    let open: Vec<usize> = (0..s.kv_tokens.len()).filter(|j| !s.blocked[(s.query, *j)]).collect();
    let weight = open.iter().map(|j| s.weights[(s.query, *j)]).fold(0.0, f32::max);
    let logits: Vec<f32> = open.iter().map(|j| s.scaled_scores[(s.query, *j)]).collect();
    let (lo, hi) = logits.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), l| (a.min(*l), b.max(*l)));
    let scaling = t(lang, if s.scaled { P::ScalingOn } else { P::ScalingOff });
    let (head, dk) = ((s.head + 1).to_string(), s.d_k.to_string());
    let values = vec![
        ("v", show(weight)),
        ("lo", show(lo)),
        ("hi", show(hi)),
        ("sq", show(s.scale)),
        ("t", show(s.temperature)),
        ("gap", show((hi - lo) / s.temperature)),
    ];
    Question {
        stage: Stage::Softmax,
        kind: Kind::Slider,
        prompt: fill(t(lang, P::QLargest), &[("on", scaling), ("dk", &dk), ("q", &s.tokens[s.query]), ("h", &head)]),
        choices: vec![],
        expected: Expected::Near(weight),
        facts: Facts { template: P::FbLargest, values },
    }
}

/// The open keys with the largest value (within a hair, so ties all count).
fn best_keys(values: &[f32], blocked: &[bool]) -> Vec<usize> {
    let open = |j: &usize| !blocked.get(*j).copied().unwrap_or(false);
    let top = (0..values.len()).filter(open).map(|j| values[j]).fold(f32::NEG_INFINITY, f32::max);
    let near = |j: &usize| values[*j] >= top - 1e-6 * top.abs().max(1.0);
    (0..values.len()).filter(open).filter(near).collect()
}

/// The whole numbers in `text` ("6 × 4", "5-8", "5–8", "(6, 4)").
fn whole_numbers(text: &str) -> Vec<usize> {
    text.split(|c: char| !c.is_ascii_digit()).filter(|p| !p.is_empty()).filter_map(|p| p.parse().ok()).collect()
}

/// A decimal number typed in `text` (a comma as the decimal mark is accepted).
pub(crate) fn decimal(text: &str) -> Option<f32> {
    text.trim().replace(',', ".").parse::<f32>().ok().filter(|v| v.is_finite())
}

impl Question {
    /// Judge `given`; `Err` with what to type when it cannot be read (the question stays).
    pub fn judge(&self, given: &Given, lang: Lang) -> Result<Verdict, String> {
        let tr = |m: P| t(lang, m);
        let (correct, yours) = match (&self.expected, given) {
            (Expected::Key { values, blocked }, Given::Key(j)) => {
                let v = values.get(*j).ok_or_else(|| tr(P::PickOne).to_string())?;
                let yours = if blocked.get(*j).copied().unwrap_or(false) {
                    fill(tr(P::YoursMasked), &[("k", &self.choices[*j])])
                } else {
                    fill(tr(P::Yours), &[("k", &self.choices[*j]), ("v", &show(*v))])
                };
                (best_keys(values, blocked).contains(j), yours)
            }
            (Expected::Rows(rows), Given::Rows(picked)) => {
                let mut picked = picked.clone();
                picked.sort_unstable();
                picked.dedup();
                (picked == *rows, String::new())
            }
            (Expected::Value(want), Given::Text(text)) => {
                let x = decimal(text).ok_or_else(|| tr(P::TypeNumber).to_string())?;
                let off = if *want == 0.0 { x.abs() } else { ((x - want) / want).abs() };
                let yours = fill(tr(P::YoursOff), &[("x", &show(x)), ("pct", &format!("{:.0}", off * 100.0))]);
                (off <= 0.1, yours)
            }
            (Expected::Near(want), Given::Text(text)) => {
                let x = decimal(text).ok_or_else(|| tr(P::TypeNumber).to_string())?;
                ((x - want).abs() <= 0.1, fill(tr(P::YoursSaid), &[("x", &show(x))]))
            }
            (Expected::Pair(a, b), Given::Text(text)) => match whole_numbers(text)[..] {
                [x, y] => ((x, y) == (*a, *b), String::new()),
                _ => return Err(tr(P::TypePair).to_string()),
            },
            _ => return Err(tr(P::PickOne).to_string()),
        };
        let values: Vec<(&str, &str)> = self.facts.values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let why = fill(tr(self.facts.template), &values);
        let verdict = tr(if correct { P::Right } else { P::Wrong });
        let feedback = [verdict, yours.as_str(), why.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        Ok(Verdict { correct, feedback })
    }

    /// The answer as the teacher reveals it: the reason, with no verdict.
    pub fn answer(&self, lang: Lang) -> String {
        let values: Vec<(&str, &str)> = self.facts.values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        fill(t(lang, self.facts.template), &values)
    }

    /// An answer this question accepts (for the tests and the property checks).
    #[cfg(test)]
    pub fn a_right_answer(&self) -> Given {
        match &self.expected {
            Expected::Key { values, blocked } => Given::Key(best_keys(values, blocked)[0]),
            Expected::Rows(rows) => Given::Rows(rows.clone()),
            Expected::Value(v) | Expected::Near(v) => Given::Text(format!("{v}")),
            Expected::Pair(a, b) => Given::Text(format!("{a} × {b}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::Models;
    use crate::predict::shown::from_outcome;
    use crate::reading::tests::outcome;
    use crate::settings::Settings;

    fn shown(change: impl FnOnce(&mut Settings, &Models), head: usize, query: usize) -> Shown {
        let o = outcome(Lang::En, change);
        from_outcome(&o, o.layer, head, query).expect("reads the outcome")
    }

    #[test]
    fn every_stage_accepts_its_answer_and_refuses_another_in_both_languages() {
        let s = shown(|_, _| {}, 1, 2);
        for lang in [Lang::En, Lang::Zh] {
            for q in Stage::ALL.into_iter().flat_map(|stage| questions(&s, stage, lang)) {
                let stage = q.stage;
                assert!(!q.prompt.contains('{'), "{stage:?}: every value filled in: {}", q.prompt);
                let right = q.judge(&q.a_right_answer(), lang).expect("readable");
                assert!(right.correct, "{stage:?}: {}", right.feedback);
                let wrong = match q.a_right_answer() {
                    Given::Key(j) => Given::Key((j + 1) % q.choices.len()),
                    Given::Rows(mut r) => {
                        r.push(0);
                        r.push(1);
                        Given::Rows(r)
                    }
                    Given::Text(_) if q.kind == Kind::Slider => Given::Text("-1".into()),
                    Given::Text(_) if stage == Stage::Scaling => Given::Text("1000".into()),
                    Given::Text(_) => Given::Text("1 × 999".into()),
                };
                let wrong = q.judge(&wrong, lang).expect("readable");
                assert!(!wrong.correct && !wrong.feedback.contains('{'), "{stage:?}: {}", wrong.feedback);
            }
        }
    }

    #[test]
    fn the_softmax_question_is_the_largest_weight_of_the_chosen_row() {
        let s = shown(|_, _| {}, 0, 3);
        let q = question(&s, Stage::Softmax, Lang::En);
        let row = s.weights.row(3);
        let best = (0..row.len()).max_by(|a, b| row[*a].total_cmp(&row[*b])).expect("keys");
        assert!(q.judge(&Given::Key(best), Lang::En).expect("judged").correct);
        let worst = (0..row.len()).min_by(|a, b| row[*a].total_cmp(&row[*b])).expect("keys");
        let v = q.judge(&Given::Key(worst), Lang::En).expect("judged");
        assert!(!v.correct && v.feedback.contains(&show(row[best])), "names the largest weight: {}", v.feedback);
    }

    #[test]
    fn unscaled_at_a_large_d_k_the_largest_weight_is_near_one_and_judged_so() {
        let s = shown(
            |s, c| {
                assert!(s.change_choice(c, |m| m.set_d_model(256)) && s.change_choice(c, |m| m.set_n_heads(1)));
                s.lesson_mut().set_scaled(false);
            },
            0,
            5,
        );
        let q = &questions(&s, Stage::Softmax, Lang::En)[1];
        assert_eq!(q.kind, Kind::Slider);
        let top = s.weights.row(5).iter().fold(0.0f32, |a, w| a.max(*w));
        assert!(top > 0.9, "saturated: {top}");
        assert!(q.judge(&Given::Text(format!("{}", top - 0.05)), Lang::En).expect("judged").correct);
        let uniform = q.judge(&Given::Text("0.09".into()), Lang::En).expect("judged");
        assert!(!uniform.correct && uniform.feedback.contains(&show(top)), "{}", uniform.feedback);
    }

    #[test]
    fn without_positions_repeated_tokens_are_the_identical_rows() {
        let s = shown(
            |s, c| {
                assert!(s.set_text("the cat saw the dog", c).is_ok());
                assert!(s.change_choice(c, |m| m.set_positional(false)));
            },
            0,
            0,
        );
        let q = question(&s, Stage::Input, Lang::En);
        assert!(q.judge(&Given::Rows(vec![3, 0]), Lang::En).expect("judged").correct);
        assert!(!q.judge(&Given::Rows(vec![]), Lang::En).expect("judged").correct);
        let with = shown(|s, c| assert!(s.set_text("the cat saw the dog", c).is_ok()), 0, 0);
        let q = question(&with, Stage::Input, Lang::En);
        let v = q.judge(&Given::Rows(vec![]), Lang::En).expect("judged");
        assert!(v.correct && v.feedback.contains("the"), "{}", v.feedback);
    }

    #[test]
    fn the_spread_is_judged_within_ten_percent_and_bad_text_is_named() {
        let s = shown(|_, _| {}, 0, 0);
        let q = question(&s, Stage::Scaling, Lang::En);
        let Given::Text(right) = q.a_right_answer() else { panic!("a number") };
        let x: f32 = right.parse().expect("a number");
        assert!(q.judge(&Given::Text(format!("{}", x * 1.08)), Lang::En).expect("judged").correct);
        assert!(!q.judge(&Given::Text(format!("{}", x * 1.2)), Lang::En).expect("judged").correct);
        assert!(q.judge(&Given::Text("lots".into()), Lang::En).is_err());
        let p = question(&s, Stage::MultiHead, Lang::En);
        assert!(p.judge(&Given::Text("five".into()), Lang::En).is_err());
    }
}
