//! Every user-visible string, in English and Chinese. Each message is one match arm holding
//! both languages, so a message cannot exist in only one of them. Lesson messages live in
//! `lesson`, those of the deeper views in `views`.

mod classroom;
mod lesson;
mod views;

pub use classroom::ClassMsg;
pub use lesson::Msg;
pub use views::ViewMsg;

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

/// A message: its English and Chinese text.
pub trait Text: Copy {
    fn pair(self) -> (&'static str, &'static str);
}

/// `msg` in `lang`.
pub fn t(lang: Lang, msg: impl Text) -> &'static str {
    let (en, zh) = msg.pair();
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

/// `template` with each `{name}` replaced by its value.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values.iter().fold(template.to_string(), |s, (k, v)| s.replace(&format!("{{{k}}}"), v))
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
    fn placeholders_are_filled() {
        assert_eq!(fill(t(Lang::En, Msg::StepOf), &[("i", "2"), ("n", "7")]), "Step 2 of 7");
        assert_eq!(fill(t(Lang::Zh, Msg::TokenCount), &[("n", "11")]), "11 个词元");
    }

    #[test]
    fn both_languages_differ_for_words() {
        assert_ne!(t(Lang::En, Msg::MatWeights), t(Lang::Zh, Msg::MatWeights));
    }
}
