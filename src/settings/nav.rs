//! Where the learner is: the lesson's stages, the views, and the colour themes. Each has a
//! stable slug for the URL and the `data-testid`s.

crate::slugged! {
    /// The seven stages of the lesson, in order.
    #[derive(Default)]
    pub enum Stage {
        #[default]
        Input = "input",
        Projection = "projection",
        Scores = "scores",
        Scaling = "scaling",
        Softmax = "softmax",
        Output = "output",
        MultiHead = "multihead",
    }
}

impl View {
    /// The chapter of the navigation the view belongs to.
    pub fn chapter(self) -> Chapter {
        match self {
            View::Lesson => Chapter::Lesson,
            View::Saturation | View::Variance | View::ScalingChoices | View::Convex | View::Position => Chapter::Why,
            View::Variants | View::Patterns | View::Graph | View::Block | View::RnnCnn => Chapter::Variants,
            View::Model | View::Coref | View::Learn => Chapter::Models,
            View::Complexity => Chapter::Efficiency,
        }
    }

    /// It shows the lesson's forward pass (or numbers from it): every view but the models'
    /// own, which bring or train their model themselves.
    pub fn reads_lesson(self) -> bool {
        self.chapter() != Chapter::Models
    }
}

crate::slugged! {
    /// The groups of views in the navigation, in order.
    pub enum Chapter {
        Lesson = "lesson",
        Why = "why",
        Variants = "variants",
        Models = "models",
        Efficiency = "efficiency",
    }
}

impl Chapter {
    /// Its views, in the order of [`View::ALL`].
    pub fn views(self) -> impl Iterator<Item = View> {
        View::ALL.into_iter().filter(move |v| v.chapter() == self)
    }
}

impl Stage {
    /// The next stage, or `None` at the last.
    pub fn next(self) -> Option<Self> {
        Self::ALL.get(self.index() + 1).copied()
    }

    /// The previous stage, or `None` at the first.
    pub fn prev(self) -> Option<Self> {
        self.index().checked_sub(1).and_then(|i| Self::ALL.get(i).copied())
    }
}

crate::slugged! {
    /// The views reachable from the navigation: the lesson, and the deeper lessons.
    #[derive(Default)]
    pub enum View {
        #[default]
        Lesson = "lesson",
        /// The saturation lab: softmax saturating as d_k grows, with and without ÷√d_k.
        Saturation = "lab",
        Variance = "variance",
        Variants = "variants",
        Patterns = "patterns",
        Graph = "graph",
        Complexity = "complexity",
        /// √d_k, d_k or no division, side by side.
        ScalingChoices = "scaling-choices",
        /// Outputs as convex combinations of the values.
        Convex = "convex",
        /// Positional encoding's rotation property.
        Position = "position",
        /// Path lengths of attention, recurrence and convolution.
        RnnCnn = "rnn-cnn",
        /// One Transformer block, attention highlighted.
        Block = "block",
        /// Every head of every layer of the pretrained model at once.
        Model = "model",
        /// The "it → animal" case study on the pretrained model.
        Coref = "coref",
        /// Training a small Transformer in the page (its own module: `crate::learn`).
        Learn = "learn",
    }
}

crate::slugged! {
    /// The colour themes. `Auto` follows the system's light/dark preference.
    #[derive(Default)]
    pub enum Theme {
        #[default]
        Auto = "auto",
        Light = "light",
        Dark = "dark",
        /// Black on white, heavier lines and type: for projectors in bright rooms.
        Contrast = "contrast",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_step_in_order() {
        assert_eq!(Stage::Input.prev(), None);
        assert_eq!(Stage::Input.next(), Some(Stage::Projection));
        assert_eq!(Stage::MultiHead.next(), None);
        assert_eq!(Stage::MultiHead.prev(), Some(Stage::Output));
        assert!(Stage::ALL.iter().all(|s| Stage::from_slug(s.slug()) == Some(*s)));
        assert_eq!(Stage::ALL.map(Stage::index), [0, 1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn slugs_are_unique_within_each_enum() {
        let unique = |slugs: Vec<&str>| slugs.iter().all(|s| slugs.iter().filter(|t| t == &s).count() == 1);
        assert!(unique(Stage::ALL.map(Stage::slug).to_vec()));
        assert!(unique(View::ALL.map(View::slug).to_vec()));
        assert!(unique(Theme::ALL.map(Theme::slug).to_vec()));
    }
}
