//! What each stage says beside its numbers, chosen and filled from the outcome on screen: the
//! formula of the model shown, and an explanation and a "what to notice" line that hold in the
//! state they are shown in (learned positions, one token, one head, d_k = 1, scaling off, a
//! repeated word or none). Pure, so the state-grid test (`tests/true_texts.rs`) reads exactly
//! what the page shows; the rule it checks: a text that can be false in some state takes that
//! state as input.

use crate::core::ablate::{Ablation, Replacement};
use crate::core::bert::chars::is_cjk;
use crate::core::model::{Cutting, InputRule, Origin, Outcome, Quantised, Shape};
use crate::core::saturation::SweepPoint;
use crate::core::trace::{HeadTrace, Trace};
use crate::i18n::{fill, t, AblateMsg, Formula, Lang, LessonMsg, ModelMsg, Msg, ViewMsg};
use crate::settings::{format_temperature, Stage};
use ndarray::Array2;

/// The fixed frame of one stage: formula, explanation, notice.
#[derive(Debug, Clone, PartialEq)]
pub struct StageTexts {
    pub formula: Formula,
    pub explain: String,
    pub notice: String,
}

/// Which fixed "what to notice" line the scores, scaling and softmax stages show for `o`: the
/// variant whose claims hold for its d_k, its keys and its scaling (the state-grid test checks
/// each variant's claims against the state, so a reworded sentence cannot pass unchecked).
pub fn notice_variant(o: &Outcome, stage: Stage) -> Option<Msg> {
    let trace = o.trace();
    let single_column = trace.d_k == 1;
    match stage {
        Stage::Scores if single_column => Some(Msg::NoticeScoresDk1),
        Stage::Scores => Some(Msg::NoticeScores),
        Stage::Scaling => Some(match (trace.scaled, single_column) {
            (false, _) => Msg::NoticeScalingOff,
            (true, true) => Msg::NoticeScalingDk1,
            (true, false) => Msg::NoticeScaling,
        }),
        Stage::Softmax if trace.n().1 == 1 => Some(Msg::NoticeSoftmaxOneKey),
        Stage::Softmax if single_column => Some(Msg::NoticeSoftmaxDk1),
        Stage::Softmax if trace.scaled => Some(Msg::NoticeSoftmax),
        Stage::Softmax => Some(Msg::NoticeSoftmaxUnscaled),
        _ => None,
    }
}

/// The texts of `stage` for the outcome `o`, in `lang`.
pub fn stage_texts(o: &Outcome, stage: Stage, lang: Lang) -> StageTexts {
    let tr = |m: Msg| t(lang, m).to_string();
    let trace = o.trace();
    let input = o.shape().input;
    let notice = |stage| notice_variant(o, stage).map(tr).unwrap_or_default();
    let (formula, explain, notice) = match stage {
        Stage::Input => (input_formula(input, o.layer), tr(input_explanation(input)), input_notice(o, lang)),
        Stage::Projection => (Formula::Projection, tr(Msg::ExplainProjection), tr(Msg::NoticeProjection)),
        Stage::Scores => (Formula::Scores, tr(Msg::ExplainScores), notice(stage)),
        Stage::Scaling => {
            let why = if input == (InputRule::Sinusoidal { on: true }) { t(lang, Msg::ScalingWhyPe) } else { "" };
            let explain = fill(t(lang, Msg::ExplainScaling), &[("why", why)]);
            let formula = if trace.scaled { Formula::Scaling } else { Formula::ScalingOff };
            (formula, explain, notice(stage))
        }
        Stage::Softmax => (Formula::Softmax, tr(Msg::ExplainSoftmax), notice(stage)),
        Stage::Output => (Formula::Output, tr(Msg::ExplainOutput), tr(Msg::NoticeOutput)),
        Stage::MultiHead => {
            let notice = match (trace.n_heads(), &o.shape().origin) {
                (1, _) => tr(Msg::NoticeMultiHeadOne),
                (_, Origin::Seeded { .. }) => tr(Msg::NoticeMultiHead),
                (_, Origin::Pretrained { .. }) => {
                    // The model's own frame: [CLS] … [SEP], or <s> … </s>.
                    let end = |t: Option<&String>| t.cloned().unwrap_or_default();
                    let ends = [("first", end(o.tokens.first())), ("last", end(o.tokens.last()))];
                    fill(t(lang, Msg::NoticeMultiHeadPretrained), &ends.each_ref().map(|(k, v)| (*k, v.as_str())))
                }
                (_, Origin::Yours) => tr(Msg::NoticeMultiHeadYours),
            };
            (Formula::Multihead, tr(Msg::ExplainMultiHead), notice)
        }
    };
    StageTexts { formula, explain, notice }
}

/// The projection stage's aside: splitting Q into heads as a reshape, on the live shapes.
pub fn reshape_text(o: &Outcome, lang: Lang) -> String {
    let trace = o.trace();
    let (n, n_kv) = trace.n();
    let values = [n, n_kv, trace.d_model(), trace.n_heads(), trace.d_k].map(|v| v.to_string());
    let names = ["n", "n_kv", "d", "h", "dk"];
    let pairs: Vec<(&str, &str)> = names.iter().copied().zip(values.iter().map(String::as_str)).collect();
    fill(t(lang, LessonMsg::ReshapeText), &pairs)
}

/// How X is made for layer `layer` (0-based) of a model whose first input follows `rule`.
fn input_formula(rule: InputRule, layer: usize) -> Formula {
    match (rule, layer) {
        (_, 1..) => Formula::InputLater,
        (InputRule::Sinusoidal { on: true } | InputRule::SinusoidalTrained, _) => Formula::Input,
        (InputRule::Sinusoidal { on: false } | InputRule::Rotary, _) => Formula::InputNoPosition,
        (InputRule::Learned, _) => Formula::InputLearned,
        (InputRule::LearnedNormed, _) => Formula::InputPretrained,
    }
}

fn input_explanation(rule: InputRule) -> Msg {
    match rule {
        InputRule::Sinusoidal { on: true } | InputRule::SinusoidalTrained => Msg::ExplainInput,
        InputRule::Rotary => Msg::ExplainInputRotary,
        InputRule::Sinusoidal { on: false } => Msg::ExplainInputOff,
        InputRule::Learned => Msg::ExplainInputLearned,
        InputRule::LearnedNormed => Msg::ExplainInputPretrained,
    }
}

/// The input's notice: what switching the positions off does to the first repeated token of
/// this sentence (or that none repeats), or, for learned positions, why there is no switch.
fn input_notice(o: &Outcome, lang: Lang) -> String {
    let on = match o.shape().input {
        InputRule::Sinusoidal { on } => on,
        InputRule::Learned | InputRule::LearnedNormed => return t(lang, Msg::NoticeInputLearned).into(),
        InputRule::SinusoidalTrained => return t(lang, Msg::NoticeInputTrained).into(),
        InputRule::Rotary => return t(lang, Msg::NoticeInputRotary).into(),
    };
    let repeated = o.tokens.iter().find(|tok| o.tokens.iter().filter(|u| u == tok).count() > 1);
    let Some(tok) = repeated else {
        return t(lang, if on { Msg::NoticeInputNoRepeat } else { Msg::NoticeInputOffNoRepeat }).into();
    };
    let sep = enumeration_comma(lang);
    let rows: Vec<String> =
        o.tokens.iter().enumerate().filter(|(_, u)| *u == tok).map(|(i, _)| (i + 1).to_string()).collect();
    let msg = if on { Msg::NoticeInput } else { Msg::NoticeInputOff };
    fill(t(lang, msg), &[("tok", tok), ("rows", &rows.join(sep))])
}

/// The sentences of the note for `o` in `lang` (with the one saying that a trained model runs
/// off its training settings, when it does); `head` is the head the stage shows (0-based),
/// `text` the sentence asked for.
pub fn weights_note(o: &Outcome, lang: Lang, head: usize, text: &str) -> Vec<String> {
    let mut lines = origin_note(o, lang, head, text);
    lines.extend(off_training(o.shape(), o.trace(), lang));
    let pretrained = matches!(o.shape().origin, Origin::Pretrained { .. });
    lines.extend(ablated_note(&o.encoding.options.ablation, pretrained, lang));
    lines
}

/// What a switched-off head passes on, in a few words ("zeros").
pub fn replacement_name(replacement: Replacement, lang: Lang) -> &'static str {
    t(lang, if replacement == Replacement::Zero { AblateMsg::ModeZeroShort } else { AblateMsg::ModeMeanShort })
}

/// The heads switched off as a sentence lists them: "2.3, 4.1" (layer.head from 1).
pub fn heads_listed(ablation: &Ablation) -> String {
    ablation.written().replace(',', ", ")
}

/// Which heads the numbers were computed with switched off, if any.
/// A pretrained model's note adds that the model view shows what changed (it shows that model).
pub fn ablated_note(ablation: &Ablation, pretrained: bool, lang: Lang) -> Option<String> {
    let (heads, mode) = (heads_listed(ablation), replacement_name(ablation.replacement, lang));
    let note = fill(t(lang, AblateMsg::LessonOff), &[("heads", &heads), ("mode", mode)]);
    let joiner = if lang == Lang::Zh { "" } else { " " };
    let more = if pretrained { format!("{joiner}{}", t(lang, AblateMsg::StageNoteModelView)) } else { String::new() };
    (!ablation.is_empty()).then(|| format!("{note}{more}"))
}

fn origin_note(o: &Outcome, lang: Lang, head: usize, text: &str) -> Vec<String> {
    let (n_layers, n_heads) = (o.encoding.layers.len(), o.trace().n_heads());
    let (layer, head) = (o.layer + 1, head.min(n_heads.saturating_sub(1)) + 1);
    match o.shape().origin {
        Origin::Seeded { seed } => vec![fill(t(lang, ModelMsg::NoteRandom), &[("seed", &seed.to_string())])],
        Origin::Yours => {
            let [layer, layers, head, heads] = [layer, n_layers, head, n_heads].map(|v| v.to_string());
            let pairs = [("layer", layer.as_str()), ("layers", &layers), ("head", &head), ("heads", &heads)];
            vec![fill(t(lang, ModelMsg::NoteYours), &pairs)]
        }
        Origin::Pretrained { name, cutting, quantised, .. } => {
            let [layer, layers, head, heads] = [layer, n_layers, head, n_heads].map(|v| v.to_string());
            let pairs =
                [("name", name), ("layer", layer.as_str()), ("layers", &layers), ("head", &head), ("heads", &heads)];
            let tokens = match cutting {
                Cutting::WordPiece => ModelMsg::TokensWordPiece,
                Cutting::Unigram => ModelMsg::TokensUnigram,
            };
            let mut lines = vec![fill(t(lang, ModelMsg::NotePretrained), &pairs), t(lang, tokens).to_string()];
            match quantised {
                Quantised::Int8 => lines.push(t(lang, ModelMsg::NoteInt8).to_string()),
                Quantised::Q4Pruned { kept, of } => {
                    let (kept, of) = (thousands(kept), thousands(of));
                    lines.push(fill(t(lang, ModelMsg::NoteQ4), &[("kept", &kept), ("of", &of)]));
                }
                Quantised::Exact => {}
            }
            let unk = o.shape().unknown.unwrap_or_default();
            let unknown = o.shape().unknown.map_or(0, |u| o.tokens.iter().filter(|t| *t == u).count());
            let chinese = o.tokens.iter().any(|t| t.chars().any(is_cjk)) || (unknown > 0 && text.chars().any(is_cjk));
            if chinese {
                lines.push(
                    t(
                        lang,
                        if cutting == Cutting::WordPiece { ModelMsg::ChineseSplit } else { ModelMsg::ChinesePieces },
                    )
                    .to_string(),
                );
            }
            if cutting == Cutting::Unigram {
                lines.extend(swallowed(&o.tokens).map(|(piece, word, instead)| {
                    fill(t(lang, ModelMsg::PieceSwallows), &[("piece", piece), ("word", word), ("instead", instead)])
                }));
            }
            if unknown > 0 {
                let n = [("n", unknown.to_string()), ("total", o.tokens.len().to_string()), ("unk", unk.to_string())];
                // WordPiece's few Chinese characters explain an [UNK] only in Chinese text.
                let msg = match (cutting == Cutting::WordPiece && text.chars().any(is_cjk), unknown == 1) {
                    (true, false) => ModelMsg::UnkNote,
                    (true, true) => ModelMsg::UnkNoteOne,
                    (false, false) => ModelMsg::UnkNoteOther,
                    (false, true) => ModelMsg::UnkNoteOtherOne,
                };
                lines.push(fill(t(lang, msg), &n.each_ref().map(|(k, v)| (*k, v.as_str()))));
            }
            lines
        }
    }
}

/// `n` with its thousands grouped: 61,488.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Between the items of a short list inside a sentence: ", " or the Chinese enumeration comma.
fn enumeration_comma(lang: Lang) -> &'static str {
    match lang {
        Lang::En => ", ",
        Lang::Zh => "、",
    }
}

/// The sentence field's hint: how the model shown cuts a sentence into tokens.
pub fn sentence_hint(origin: &Origin) -> Msg {
    match origin {
        Origin::Seeded { .. } => Msg::HintSentence,
        Origin::Pretrained { cutting: Cutting::WordPiece, .. } => Msg::HintSentencePretrained,
        Origin::Pretrained { cutting: Cutting::Unigram, .. } => Msg::HintSentenceUnigram,
        Origin::Yours => Msg::HintSentenceYours,
    }
}

/// Pieces that join a connective and the pronoun after it, so the pronoun has no row of its
/// own: the piece, the pronoun, and a phrasing that the unigram vocabulary cuts apart
/// (checked in the tests on multilingual-e5-small).
pub const SWALLOWING: [(&str, &str, &str); 2] = [("因为它", "它", "原因是它"), ("因为他", "他", "原因是他")];

/// The swallowing pieces among `tokens` (a word start's ▁ aside), once each.
fn swallowed(tokens: &[String]) -> impl Iterator<Item = (&'static str, &'static str, &'static str)> + '_ {
    SWALLOWING.into_iter().filter(|(piece, ..)| tokens.iter().any(|t| t.trim_start_matches('▁') == *piece))
}

/// For a trained model run with other settings than it was trained with (scaling, mask,
/// temperature), the sentence that says so: its maps are then what its weights compute under
/// these settings, not what it learned to look at. `None` when it runs as trained, and for
/// random weights, which no training shaped.
pub fn off_training(shape: &Shape, trace: &Trace, lang: Lang) -> Option<String> {
    let trained = shape.trained_options()?;
    let mut changes = Vec::new();
    if trace.scaled != trained.scaled {
        changes.push(t(lang, if trace.scaled { ModelMsg::OffScalingOn } else { ModelMsg::OffScalingOff }).to_string());
    }
    if trace.mask != trained.mask {
        let msg = if trained.mask == crate::core::Mask::Causal { ModelMsg::OffNoMask } else { ModelMsg::OffCausal };
        changes.push(t(lang, msg).to_string());
    }
    if trace.temperature != trained.temperature {
        changes.push(fill(t(lang, ModelMsg::OffTemperature), &[("t", &format_temperature(trace.temperature))]));
    }
    let sep = enumeration_comma(lang);
    (!changes.is_empty()).then(|| fill(t(lang, ModelMsg::OffTraining), &[("changes", &changes.join(sep))]))
}

/// The saturation lab's explanation for its sample of `n` tokens, its claims read from the
/// sample's own curves `points`: the band the scaled top weight stays in, and whether (and
/// over which d_k) the unscaled gradient rises above the scaled one before it collapses.
pub fn saturation_texts(n: usize, points: &[SweepPoint], lang: Lang) -> Vec<String> {
    let tr = |m: Msg| t(lang, m).to_string();
    let mut lines = vec![tr(Msg::SaturationExplain)];
    if n <= 1 {
        lines.push(tr(Msg::SaturationOneToken));
        return lines;
    }
    let two = |v: f32| format!("{v:.2}");
    let tops = points.iter().map(|p| p.scaled.median_max_weight);
    let (lo, hi) = tops.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let top = points.iter().map(|p| p.unscaled.median_max_weight).fold(0.0, f32::max);
    if lo <= hi {
        lines.push(fill(t(lang, Msg::SaturationBand), &[("lo", &two(lo)), ("hi", &two(hi)), ("top", &two(top))]));
    }
    let above = |p: &&SweepPoint| p.unscaled.median_jacobian_norm > p.scaled.median_jacobian_norm;
    let run: Vec<usize> = points.iter().skip_while(|p| !above(p)).take_while(|p| above(p)).map(|p| p.d_k).collect();
    match (run.first(), run.last()) {
        (Some(from), Some(to)) => {
            lines.push(fill(t(lang, Msg::SaturationBump), &[("from", &from.to_string()), ("to", &to.to_string())]))
        }
        _ if n == 2 => lines.push(tr(Msg::SaturationNoBumpTwo)),
        _ => lines.push(tr(Msg::SaturationNoBump)),
    }
    lines.push(tr(Msg::SaturationNorm));
    lines
}

/// The linear-attention panel's explanation of head `head` of `trace`, whose linear-attention
/// weights are `linear` (n_q, n_kv): softmax's kernel as the trace computed it (with ÷√d_k
/// only when scaling is on), and which of the two maps is the flatter, by mean row entropy.
pub fn linear_texts(trace: &Trace, head: &HeadTrace, linear: &Array2<f32>, lang: Lang) -> [String; 2] {
    let kernel = if trace.scaled { "exp(q_i·k_j / (√d_k·T))" } else { "exp(q_i·k_j / T)" };
    let text = fill(t(lang, ViewMsg::LinearText), &[("kernel", kernel)]);
    let (soft, lin) = (mean_entropy(&head.weights, &trace.blocked), mean_entropy(linear, &trace.blocked));
    let uniform = mean_entropy(&trace.blocked.mapv(|_| 1.0), &trace.blocked);
    let msg = if lin >= soft { ViewMsg::LinearFlatter } else { ViewMsg::LinearSharper };
    let two = |v: f32| format!("{v:.2}");
    [text, fill(t(lang, msg), &[("lin", &two(lin)), ("soft", &two(soft)), ("uniform", &two(uniform))])]
}

/// The mean over rows of −Σ p ln p, each row's allowed entries of `m` renormalised to sum 1
/// (so a matrix of ones gives each row's uniform entropy, ln of its allowed keys).
fn mean_entropy(m: &Array2<f32>, blocked: &Array2<bool>) -> f32 {
    let rows: Vec<f32> = m
        .outer_iter()
        .zip(blocked.outer_iter())
        .map(|(row, blocked)| {
            let live: Vec<f32> = row.iter().zip(blocked).filter(|(_, b)| !**b).map(|(p, _)| *p).collect();
            let total: f32 = live.iter().sum();
            live.iter().filter(|p| **p > 0.0).map(|p| -(p / total) * (p / total).ln()).sum()
        })
        .collect();
    rows.iter().sum::<f32>() / rows.len().max(1) as f32
}
