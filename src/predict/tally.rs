//! The per-stage tally of answers (answered, right), kept on the device only: its text form
//! for the browser's local storage, which reads back whatever the storage holds without fail.

use crate::settings::Stage;

/// Answered and right, per stage in lesson order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally([(u32, u32); 7]);

/// The local-storage key.
pub const TALLY_KEY: &str = "attention-lab-predict";

impl Tally {
    /// Count one answer to `stage`'s question.
    pub fn record(&mut self, stage: Stage, correct: bool) {
        let (answered, right) = &mut self.0[stage.index()];
        *answered = answered.saturating_add(1);
        *right = right.saturating_add(u32::from(correct));
    }

    /// (answers, right answers), over every stage.
    pub fn totals(&self) -> (u32, u32) {
        self.0.iter().fold((0, 0), |(a, r), (x, y)| (a.saturating_add(*x), r.saturating_add(*y)))
    }

    /// The stages answered at least once.
    pub fn stages_answered(&self) -> usize {
        self.0.iter().filter(|(a, _)| *a > 0).count()
    }

    /// "answered/right" per stage, comma-separated.
    pub fn to_text(&self) -> String {
        self.0.iter().map(|(a, r)| format!("{a}/{r}")).collect::<Vec<_>>().join(",")
    }

    /// A stored tally; anything unreadable (or right above answered) counts as nothing.
    pub fn from_text(text: &str) -> Self {
        let mut tally = Self::default();
        for (slot, pair) in tally.0.iter_mut().zip(text.split(',')) {
            let read = pair.split_once('/').and_then(|(a, r)| Some((a.trim().parse().ok()?, r.trim().parse().ok()?)));
            if let Some((a, r)) = read.filter(|(a, r): &(u32, u32)| r <= a) {
                *slot = (a, r);
            }
        }
        tally
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tally_counts_and_survives_its_storage() {
        let mut t = Tally::default();
        t.record(Stage::Softmax, true);
        t.record(Stage::Softmax, false);
        t.record(Stage::Input, true);
        assert_eq!((t.totals(), t.stages_answered()), ((3, 2), 2));
        assert_eq!(Tally::from_text(&t.to_text()), t);
        assert_eq!(Tally::from_text("junk,3/9,-1/0"), Tally::default(), "nothing unreadable counts");
    }
}
