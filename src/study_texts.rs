//! What the "it → animal" case study's numbers say, in words (`pretrained::case_study` shows
//! them): which heads prefer which word, flips, the steadiest head and whether it finds the
//! subject or the meaning, and how words of several pieces are counted. Every sentence is
//! chosen by the numbers, so it is true of the sentences the learner typed.

use crate::core::bert::chars::is_cjk;
use crate::core::model::Token;
use crate::core::study::{CaseStudy, HeadWeights};
use crate::i18n::{fill, t, Lang, ModelMsg};
use std::ops::Range;

/// A flip that moves the two weights by at least this much in total counts as clear.
const CLEAR_FLIP: f32 = 0.3;

/// Two decimals.
pub fn w2(v: f32) -> String {
    format!("{v:.2}")
}

/// The case study's conclusions in `lang`, from its numbers and the words the learner typed
/// (`words`: the query and the two targets).
pub fn case_study_findings(study: &CaseStudy, words: &[String; 3], lang: Lang) -> Vec<String> {
    let f = &study.findings;
    let (q, a, b) = (words[0].as_str(), words[1].as_str(), words[2].as_str());
    let mut lines = Vec::new();
    let total = study.weights.len().to_string();
    match f.strongest_a {
        None => lines.push(fill(t(lang, ModelMsg::CorefFindingPreferNone), &[("total", &total), ("a", a), ("b", b)])),
        Some(best) => {
            let msg = if f.prefer_a == 1 { ModelMsg::CorefFindingPreferOne } else { ModelMsg::CorefFindingPrefer };
            let (n, best_weight) = (f.prefer_a.to_string(), w2(best.first.0));
            let (layer, head) = ((best.layer + 1).to_string(), (best.head + 1).to_string());
            let pairs = [("n", n.as_str()), ("total", &total), ("a", a), ("b", b), ("best", &best_weight)];
            lines.push(fill(t(lang, msg), &[&pairs[..], &[("layer", &layer), ("head", &head)]].concat()));
        }
    }
    let name = |w: &HeadWeights| format!("L{} H{}", w.layer + 1, w.head + 1);
    match f.flips.first() {
        None => lines.push(t(lang, ModelMsg::CorefNoFlip).to_string()),
        Some(top) => {
            let heads: Vec<String> = f.flips.iter().map(name).collect();
            let size = w2(top.movement());
            let msg = if heads.len() == 1 { ModelMsg::CorefFindingFlipOne } else { ModelMsg::CorefFindingFlip };
            lines.push(fill(t(lang, msg), &[("a", a), ("b", b), ("heads", &heads.join(", ")), ("size", &size)]));
            if top.movement() >= CLEAR_FLIP {
                let (layer, head) = ((top.layer + 1).to_string(), (top.head + 1).to_string());
                lines.push(fill(
                    t(lang, ModelMsg::CorefStrongFlip),
                    &[("layer", &layer), ("head", &head), ("a", a), ("b", b), ("size", &size)],
                ));
            }
        }
    }
    if study.one_word_apart {
        lines.push(fill(t(lang, ModelMsg::CorefLayerOne), &[("query", q)]));
    }
    if let Some(top) = f.movers.first().filter(|_| f.flips.iter().all(|w| w.movement() < CLEAR_FLIP)) {
        let (layer, head, size) = ((top.layer + 1).to_string(), (top.head + 1).to_string(), w2(top.movement()));
        let pairs = [("query", q), ("a", a), ("b", b), ("size", &size), ("layer", &layer), ("head", &head)];
        lines.push(fill(t(lang, ModelMsg::CorefConclusion), &pairs));
    }
    lines
}

/// A head giving a word at least this much of the query's weight in both sentences points at
/// it steadily.
pub const STEADY: f32 = 0.3;

/// A sentence in which the subject is the wrong antecedent: its text, the pronoun, then the
/// subject and the one the pronoun means. English, then Chinese.
pub const WRONG_ANTECEDENT: [(&str, [&str; 3]); 2] = [
    ("The trophy did not fit in the suitcase because it was too small", ["it", "trophy", "suitcase"]),
    ("小明把书给了小红，因为她想看。", ["她", "小明", "小红"]),
];

/// The wrong-antecedent sentence in the language of the study's sentence `text` (typed).
pub fn wrong_antecedent(text: &str) -> (&'static str, [&'static str; 3]) {
    WRONG_ANTECEDENT[usize::from(text.chars().any(is_cjk))]
}

/// A head read on a wrong-antecedent sentence: the sentence and its words (as
/// [`WRONG_ANTECEDENT`] has them), and the head's weight from the pronoun to the subject and to
/// the word the pronoun means.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Check {
    pub text: &'static str,
    pub words: [&'static str; 3],
    pub on_subject: f32,
    pub on_meant: f32,
}

/// The head whose weight on target a is largest in both sentences at once, if it points at a
/// steadily (at least [`STEADY`] in each).
pub fn steady_head(study: &CaseStudy) -> Option<HeadWeights> {
    study.findings.steadiest_a.filter(|h| h.steady_a() >= STEADY)
}

/// The steady head: what it gives target a in both sentences, then (with `check`, the same head
/// on a wrong-antecedent sentence) whether it prefers the subject or the word meant.
pub fn steady_findings(study: &CaseStudy, words: &[String; 3], check: Option<&Check>, lang: Lang) -> Vec<String> {
    let Some(head) = steady_head(study) else { return Vec::new() };
    let (layer, head_no) = ((head.layer + 1).to_string(), (head.head + 1).to_string());
    let (first, second) = (w2(head.first.0), w2(head.second.0));
    let pairs = [("layer", layer.as_str()), ("head", &head_no), ("a", &words[1]), ("w1", &first), ("w2", &second)];
    let mut lines = vec![fill(t(lang, ModelMsg::CorefSteady), &pairs)];
    if let Some(c) = check {
        let [cq, ca, cb] = c.words;
        let (wa, wb) = (w2(c.on_subject), w2(c.on_meant));
        let pairs = [
            ("query", words[0].as_str()),
            ("check", c.text),
            ("cq", cq),
            ("ca", ca),
            ("cb", cb),
            ("wa", &wa),
            ("wb", &wb),
        ];
        lines.push(fill(t(lang, ModelMsg::CorefWrongAntecedent), &pairs));
        lines.push(fill(t(lang, check_verdict(c.on_subject, c.on_meant)), &[("cb", cb)]));
    }
    lines
}

/// Below this weight on both words, the wrong-antecedent sentence says nothing of the head.
const CHECK_WEAK: f32 = 0.15;

/// What the head's weights on the wrong-antecedent sentence's subject (`wa`) and on the word
/// meant (`wb`) show: little weight on both tests nothing; one must have half as much again as
/// the other to count as preferred.
pub fn check_verdict(wa: f32, wb: f32) -> ModelMsg {
    match (wa.max(wb) < CHECK_WEAK, wa > 1.5 * wb, wb > 1.5 * wa) {
        (true, _, _) => ModelMsg::CorefCheckWeak,
        (false, true, _) => ModelMsg::CorefSubjectHead,
        (false, _, true) => ModelMsg::CorefMeaningHead,
        _ => ModelMsg::CorefCheckEven,
    }
}

/// For each word of several pieces (in sentence 1), how it is counted: a target's weight is
/// the sum of its pieces', a query's row the mean of theirs.
pub fn pieces_notes(study: &CaseStudy, words: &[String; 3], lang: Lang) -> Vec<String> {
    let p = &study.positions[0];
    let spans: [&Range<usize>; 3] = [&p.query, &p.a, &p.b];
    let tokens = &study.encodings[0].tokens;
    spans
        .iter()
        .zip(words)
        .enumerate()
        .filter(|(_, (span, _))| span.len() > 1)
        .map(|(i, (span, word))| {
            let pieces = Token::texts(&tokens[(*span).clone()]).join(" | ");
            let msg = if i == 0 { ModelMsg::CorefPiecesQuery } else { ModelMsg::CorefPiecesTarget };
            fill(t(lang, msg), &[("word", word), ("count", &span.len().to_string()), ("pieces", &pieces)])
        })
        .collect()
}
