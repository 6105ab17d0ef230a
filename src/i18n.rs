//! Every user-visible string, in English and Chinese, in one catalogue. Each message is one
//! match arm holding both languages, so a message cannot exist in only one of them.

/// The two languages of the site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// The language for a BCP 47 tag such as the browser's `navigator.language`: zh* → Chinese.
    pub fn from_tag(tag: &str) -> Self {
        if tag.trim().to_ascii_lowercase().starts_with("zh") {
            Self::Zh
        } else {
            Self::En
        }
    }

    /// The tag for `<html lang>` and the URL.
    pub fn code(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Zh => "zh",
        }
    }
}

/// A message of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Msg {
    AppTitle,
    Tagline,
    WeightsTitle,
    WeightsExplain,
    HeadLabel,
    ComputeError,
    PanicNotice,
}

/// `msg` in `lang`.
pub fn t(lang: Lang, msg: Msg) -> &'static str {
    let (en, zh) = match msg {
        Msg::AppTitle => ("Attention Lab", "自注意力实验室"),
        Msg::Tagline => (
            "Run self-attention step by step and watch every number it computes.",
            "一步一步运行自注意力，看清它算出的每一个数。",
        ),
        Msg::WeightsTitle => ("Attention weights A", "注意力权重 A"),
        Msg::WeightsExplain => (
            "Row i shows how token i spreads its attention over all tokens: each row is a softmax, so it adds up to 1. Brighter means more attention.",
            "第 i 行表示第 i 个词把注意力如何分给所有词：每一行都经过 softmax，加起来等于 1。颜色越亮，关注越多。",
        ),
        Msg::HeadLabel => ("head", "头"),
        Msg::ComputeError => ("Could not compute attention", "无法计算注意力"),
        Msg::PanicNotice => (
            "Something went wrong inside the page and it stopped. Please reload. Details:",
            "页面内部出错并已停止，请刷新。详情：",
        ),
    };
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_tags_pick_the_language() {
        assert_eq!(Lang::from_tag("zh-CN"), Lang::Zh);
        assert_eq!(Lang::from_tag("ZH-hant-tw"), Lang::Zh);
        assert_eq!(Lang::from_tag("en-GB"), Lang::En);
        assert_eq!(Lang::from_tag(""), Lang::En);
    }

    #[test]
    fn both_languages_differ_for_words() {
        assert_ne!(t(Lang::En, Msg::WeightsTitle), t(Lang::Zh, Msg::WeightsTitle));
    }
}
