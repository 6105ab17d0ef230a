//! The classroom's state: the language, the theme and presentation mode. The teacher's, not
//! the lesson's: a link for students leaves the last two behind.

use super::Theme;
use crate::i18n::Lang;

/// Language, theme, presentation mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classroom {
    lang: Lang,
    theme: Theme,
    /// Projector layout: big type, one stage per screen, settings folded away.
    present: bool,
}

impl Classroom {
    /// Defaults, in `lang`.
    pub fn new(lang: Lang) -> Self {
        Self { lang, theme: Theme::Auto, present: false }
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
