//! The classroom's state: the language, the theme, presentation mode and "Predict first". The teacher's, not
//! the lesson's: a link for students leaves the last two behind.

use super::Theme;
use crate::i18n::Lang;

/// Language, theme, presentation mode, predict first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classroom {
    lang: Lang,
    theme: Theme,
    /// Projector layout: big type, one stage per screen, settings folded away.
    present: bool,
    /// "Predict first": each stage asks before it shows its figure (kept in the link for
    /// students, so they answer on their own phones).
    predict: bool,
}

impl Classroom {
    /// Defaults, in `lang`.
    pub fn new(lang: Lang) -> Self {
        Self { lang, theme: Theme::Auto, present: false, predict: false }
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    pub fn theme(&self) -> Theme {
        self.theme
    }

    pub fn present(&self) -> bool {
        self.present
    }

    pub fn set_theme(&mut self, theme: Theme) {
        self.theme = theme;
    }

    pub fn set_present(&mut self, on: bool) {
        self.present = on;
    }

    pub fn predict(&self) -> bool {
        self.predict
    }

    pub fn set_predict(&mut self, on: bool) {
        self.predict = on;
    }

    /// Changed only with the sentences that follow it (`Settings::switch_language`), or when
    /// a link is first read.
    pub(super) fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
    }

    /// This classroom as a student's phone should open it: the normal layout, the default
    /// theme (presentation mode and high contrast are the teacher's choice).
    pub fn for_students(self) -> Self {
        Self { present: false, theme: Theme::default(), ..self }
    }
}
