//! Indices into the sentence that a link asked for while its model was still on its way. The
//! model's stand-in reads the sentence by a rough rule that counts no more tokens than the
//! model will, so a query row, spotlight or anchor beyond its count may still be one the model
//! has: it waits here, is written back into the link as it was asked, and is checked once the
//! model has arrived (then it applies, or is dropped if the model has no such token).

/// Which index into the sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Index {
    Query,
    Spot,
    Anchor,
}

/// The indices waiting for the model (0-based), at most one of each.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Waiting {
    asked: Vec<(Index, usize)>,
}

impl Waiting {
    /// What a link asked for `index`, if it waits.
    pub fn get(&self, index: Index) -> Option<usize> {
        self.asked.iter().find(|(i, _)| *i == index).map(|(_, at)| *at)
    }

    /// `at` waits for `index`, in place of what waited before.
    pub fn put(&mut self, index: Index, at: usize) {
        self.forget(index);
        self.asked.push((index, at));
    }

    /// `index` no longer waits (the learner chose it, or the sentence changed).
    pub fn forget(&mut self, index: Index) {
        self.asked.retain(|(i, _)| *i != index);
    }

    /// Everything that waited, in the order it was asked; nothing waits after.
    pub fn take(&mut self) -> Vec<(Index, usize)> {
        std::mem::take(&mut self.asked)
    }
}
