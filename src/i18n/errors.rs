//! The core's refusals in words, in both languages: the core returns values
//! ([`ModelError`], [`AttnError`]), and only this module turns them into sentences.

use super::{fill, t, Lang};
use crate::core::error::AttnError;
use crate::core::model::ModelError;

super::catalogue! {
    /// A message for one kind of refusal. Placeholders are filled by [`model_error`].
    pub enum ErrMsg {
        NoTokens => ("The {which} has no tokens: type at least one word.", "{which}没有词元：请至少输入一个词。"),
        TooManyTokens => (
            "The {which} has {given} tokens; at most {max} can be shown.",
            "{which}有 {given} 个词元，最多只能显示 {max} 个。",
        ),
        ZeroWidth => ("d_model must be at least 1.", "d_model 至少为 1。"),
        HeadsDoNotDivide => (
            "d_model = {d_model} cannot be split evenly among {heads} heads: each head needs the same whole number of columns.",
            "d_model = {d_model} 无法平均分给 {heads} 个头：每个头必须分到同样多的列。",
        ),
        Empty => ("The {which} is empty.", "{which}为空。"),
        Shape => ("{what} should be {expected}, but is {rows} × {cols}.", "{what} 应为 {expected}，实际为 {rows} × {cols}。"),
        Padding => (
            "The padding mask needs one entry per key: {expected} expected, {given} given.",
            "填充掩码需要每个键一项：应为 {expected} 项，实际为 {given} 项。",
        ),
        NonFinite => (
            "{what} holds a number that is not finite at row {row}, column {col}.",
            "{what} 第 {row} 行第 {col} 列的值不是有限数。",
        ),
        Temperature => ("The temperature must be a positive number, not {t}.", "温度必须是正数，而不是 {t}。"),
        UnknownToken => (
            "Your model has no token “{token}”: it reads only the tokens of the task it learned (its digits, and | if the task uses a separator).",
            "你的模型没有“{token}”这个词元：它只认识所学任务里的词元（数字，以及该任务用到的分隔符 |）。",
        ),
        NotKept => (
            "No model of yours that this page can read is kept in this browser: train one in the training view, then press “Open in the lesson”.",
            "这个浏览器里没有本页能读取的、你训练的模型：先在训练视图里训练一个，再点“在本课中打开”。",
        ),
        OneSentence => (
            "These weights read one sentence, and this view needs a second one for cross-attention: switch to the random weights to see all three variants.",
            "这种权重只读一个句子，而本视图的交叉注意力需要第二个句子：切换到随机权重才能看到全部三种变体。",
        ),
        Worker => (
            "The background computation stopped ({why}). The last result stays on screen; change the sentence or a setting of the run (mask, scaling, temperature) to try again.",
            "后台计算中断了（{why}）。屏幕上保留上一次的结果；改动句子或运行设置（掩码、缩放、温度）即可重试。",
        ),
        Computing => ("Computing in the background…", "正在后台计算……"),
        WhichQuery => ("sentence", "句子"),
        WhichKeyValue => ("second sentence", "第二个句子"),
        WhichLayer => ("chosen layer", "所选的层"),
    }
}

/// The name of the sequence the core calls `which`.
fn which(lang: Lang, which: &str) -> &'static str {
    t(
        lang,
        match which {
            "key/value" => ErrMsg::WhichKeyValue,
            "layer" => ErrMsg::WhichLayer,
            _ => ErrMsg::WhichQuery,
        },
    )
}

/// `e` as a sentence in `lang`.
pub fn model_error(lang: Lang, e: &ModelError) -> String {
    match e {
        ModelError::NoTokens { which: w } => fill(t(lang, ErrMsg::NoTokens), &[("which", which(lang, w))]),
        ModelError::TooManyTokens { which: w, max, given } => fill(
            t(lang, ErrMsg::TooManyTokens),
            &[("which", which(lang, w)), ("max", &max.to_string()), ("given", &given.to_string())],
        ),
        ModelError::Attention(e) => attention_error(lang, e),
        ModelError::UnknownToken(token) => unknown_token(lang, token),
        ModelError::NotKept => t(lang, ErrMsg::NotKept).to_string(),
        ModelError::OneSentence => t(lang, ErrMsg::OneSentence).to_string(),
        ModelError::Worker(why) => fill(t(lang, ErrMsg::Worker), &[("why", why)]),
        ModelError::Computing => t(lang, ErrMsg::Computing).to_string(),
    }
}

/// Why the learner's trained model cannot read `token`, in `lang` (said beside the sentence,
/// the weights switch, or the stages).
pub fn unknown_token(lang: Lang, token: &str) -> String {
    fill(t(lang, ErrMsg::UnknownToken), &[("token", token)])
}

/// `e` as a sentence in `lang`.
pub fn attention_error(lang: Lang, e: &AttnError) -> String {
    let say = |msg, pairs: &[(&str, &str)]| fill(t(lang, msg), pairs);
    match e {
        AttnError::ZeroModelWidth => say(ErrMsg::ZeroWidth, &[]),
        AttnError::HeadsDoNotDivide { d_model, n_heads } => {
            say(ErrMsg::HeadsDoNotDivide, &[("heads", &n_heads.to_string()), ("d_model", &d_model.to_string())])
        }
        AttnError::EmptySequence { which: w } => say(ErrMsg::Empty, &[("which", which(lang, w))]),
        AttnError::Shape { what, expected, given } => say(
            ErrMsg::Shape,
            &[("what", what), ("expected", expected), ("rows", &given.0.to_string()), ("cols", &given.1.to_string())],
        ),
        AttnError::PaddingLength { expected, given } => {
            say(ErrMsg::Padding, &[("expected", &expected.to_string()), ("given", &given.to_string())])
        }
        AttnError::NonFinite { what, row, col } => {
            say(ErrMsg::NonFinite, &[("what", what), ("row", &(row + 1).to_string()), ("col", &(col + 1).to_string())])
        }
        AttnError::BadTemperature(v) => say(ErrMsg::Temperature, &[("t", &v.to_string())]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_read_as_sentences_in_both_languages() {
        let e = ModelError::Attention(AttnError::HeadsDoNotDivide { d_model: 64, n_heads: 3 });
        assert_eq!(
            model_error(Lang::En, &e),
            "d_model = 64 cannot be split evenly among 3 heads: each head needs the same whole number of columns."
        );
        assert_eq!(model_error(Lang::Zh, &e), "d_model = 64 无法平均分给 3 个头：每个头必须分到同样多的列。");
        let e = ModelError::TooManyTokens { which: "key/value", max: 64, given: 70 };
        assert_eq!(model_error(Lang::Zh, &e), "第二个句子有 70 个词元，最多只能显示 64 个。");
    }
}
