//! Why a model cannot read a sentence, or could not run on it.

use crate::error::AttnError;

/// Why a sentence cannot be drawn with a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SentenceProblem {
    /// No tokens at all (empty or only spaces).
    NoTokens,
    /// More tokens than the model reads: how many, and the most it reads.
    TooMany { n: usize, max: usize },
    /// A token the model has no embedding for.
    Unknown(String),
}

impl SentenceProblem {
    /// `n` tokens if 1 ≤ n ≤ `max`.
    pub fn within(n: usize, max: usize) -> Result<usize, SentenceProblem> {
        match n {
            0 => Err(SentenceProblem::NoTokens),
            n if n > max => Err(SentenceProblem::TooMany { n, max }),
            n => Ok(n),
        }
    }

    /// The problem as the forward pass reports it; `which` names the sentence.
    pub fn of(self, which: &'static str) -> ModelError {
        match self {
            SentenceProblem::NoTokens => ModelError::NoTokens { which },
            SentenceProblem::TooMany { n, max } => ModelError::TooManyTokens { which, max, given: n },
            SentenceProblem::Unknown(t) => ModelError::UnknownToken(t),
        }
    }
}

/// Why a forward pass did not run.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelError {
    /// The sentence has no tokens (empty or only spaces).
    NoTokens { which: &'static str },
    /// The sentence has more tokens than the model reads.
    TooManyTokens { which: &'static str, max: usize, given: usize },
    /// The attention core refused the sizes or values.
    Attention(AttnError),
    /// A token the model has no embedding for.
    UnknownToken(String),
    /// The learner's own model was asked for, and this browser keeps none.
    NotKept,
    /// Cross-attention was asked of a model that reads one sentence.
    OneSentence,
    /// It is being computed elsewhere (a forward worker): a computation that asked for it
    /// runs again when the answer arrives. An error rather than a state of its own because the
    /// views ask a model synchronously, as they ask one that computes in place, and this is
    /// what such a model answers meanwhile.
    Computing,
    /// The worker computing it failed (a panic, out of memory, the model would not load), in
    /// the words the worker or the browser gave.
    Worker(String),
}

impl ModelError {
    /// The error as it concerns the sentence `which` (a forward pass names its sentence "query").
    pub fn for_sentence(self, which: &'static str) -> Self {
        match self {
            Self::NoTokens { .. } => Self::NoTokens { which },
            Self::TooManyTokens { max, given, .. } => Self::TooManyTokens { which, max, given },
            other => other,
        }
    }
}

impl From<AttnError> for ModelError {
    fn from(e: AttnError) -> Self {
        ModelError::Attention(e)
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoTokens { which } => write!(f, "the {which} sentence has no tokens: type at least one word"),
            Self::TooManyTokens { which, max, given } => {
                write!(f, "the {which} sentence has {given} tokens; at most {max} can be shown")
            }
            Self::Attention(e) => e.fmt(f),
            Self::UnknownToken(t) => write!(f, "your model has no token \"{t}\""),
            Self::NotKept => write!(f, "no model of yours is kept in this browser"),
            Self::OneSentence => write!(f, "this model reads one sentence: cross-attention needs a second"),
            Self::Worker(why) => write!(f, "the worker computing it failed: {why}"),
            Self::Computing => write!(f, "it is being computed in a worker"),
        }
    }
}

impl std::error::Error for ModelError {}
