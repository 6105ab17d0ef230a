//! The "it → animal" case study: how much one word attends to two others in every layer ×
//! head, in two sentences, and what can honestly be said about it; words are found among the
//! tokens by [`super::words`]. Any [`Model`] will do.

use super::model::{Encoding, Input, Model, ModelError, RunOptions};
use super::order::largest_first;
use super::words::{spelled, word_span};
use ndarray::Array2;
use std::ops::Range;

/// The weights from the query token to the two targets in one head, in both sentences.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeadWeights {
    /// 0-based.
    pub layer: usize,
    /// 0-based.
    pub head: usize,
    /// Sentence 1: weight on target a, on target b.
    pub first: (f32, f32),
    /// Sentence 2: weight on target a, on target b.
    pub second: (f32, f32),
}

impl HeadWeights {
    /// How far the two weights move between the sentences, together.
    pub fn movement(&self) -> f32 {
        (self.second.0 - self.first.0).abs() + (self.second.1 - self.first.1).abs()
    }

    /// The weight on target a in the sentence where it is smaller.
    pub fn steady_a(&self) -> f32 {
        self.first.0.min(self.second.0)
    }

    /// Target a ahead in sentence 1 and b ahead in sentence 2.
    pub fn flips(&self) -> bool {
        self.first.0 > self.first.1 && self.second.1 > self.second.0
    }
}

/// The tokens of each word in one sentence (`words::word_span`): the query and the two
/// targets, each a run of one or more pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Positions {
    pub query: Range<usize>,
    pub a: Range<usize>,
    pub b: Range<usize>,
}

/// The weight from word `from` to word `to` in one head's weights (n_q, n_kv): a word of
/// several pieces gets the sum of its pieces' columns, and a query of several pieces the mean
/// of its rows (still a share of one row's weight, between 0 and 1).
pub fn word_weight(weights: &Array2<f32>, from: &Range<usize>, to: &Range<usize>) -> f32 {
    let rows = from.clone().filter(|&i| i < weights.nrows()).map(|i| weights.row(i));
    let sums: Vec<f32> = rows.map(|row| to.clone().filter_map(|j| row.get(j)).sum()).collect();
    sums.iter().sum::<f32>() / (sums.len().max(1) as f32)
}

/// Every layer × head's weights, layer by layer.
pub fn head_weights(first: &Encoding, p1: &Positions, second: &Encoding, p2: &Positions) -> Vec<HeadWeights> {
    let pick = |e: &Encoding, p: &Positions, layer: usize, head: usize| {
        let w = &e.layers[layer].trace.head_traces[head].weights;
        (word_weight(w, &p.query, &p.a), word_weight(w, &p.query, &p.b))
    };
    let layers = first.layers.len().min(second.layers.len());
    (0..layers)
        .flat_map(|layer| {
            let heads = first.layers[layer].trace.n_heads().min(second.layers[layer].trace.n_heads());
            (0..heads).map(move |head| (layer, head))
        })
        .map(|(layer, head)| HeadWeights {
            layer,
            head,
            first: pick(first, p1, layer, head),
            second: pick(second, p2, layer, head),
        })
        .collect()
}

/// What the numbers say.
#[derive(Debug, Clone, PartialEq)]
pub struct Findings {
    /// Heads giving target a more weight than b in sentence 1.
    pub prefer_a: usize,
    /// Among the heads that prefer a in sentence 1, the one with the largest weight on a (none
    /// when no head prefers a).
    pub strongest_a: Option<HeadWeights>,
    /// Heads whose preference flips from a to b, most movement first.
    pub flips: Vec<HeadWeights>,
    /// The heads that move most between the sentences (up to `top`), most first.
    pub movers: Vec<HeadWeights>,
    /// The head that maximises min(weight on a in sentence 1, in sentence 2): a head that
    /// points at a whatever the changed word says.
    pub steadiest_a: Option<HeadWeights>,
}

/// Summarise `weights` from [`head_weights`]; `top` movers are kept.
pub fn findings(weights: &[HeadWeights], top: usize) -> Findings {
    // Most movement first, through the crate's one sort routine.
    let by_movement = |heads: Vec<HeadWeights>| -> Vec<HeadWeights> {
        let keys: Vec<f32> = heads.iter().map(HeadWeights::movement).collect();
        largest_first(&keys).into_iter().map(|i| heads[i]).collect()
    };
    let flips = by_movement(weights.iter().copied().filter(HeadWeights::flips).collect());
    let mut movers = by_movement(weights.to_vec());
    movers.truncate(top);
    Findings {
        prefer_a: weights.iter().filter(|w| w.first.0 > w.first.1).count(),
        strongest_a: weights
            .iter()
            .copied()
            .filter(|w| w.first.0 > w.first.1)
            .max_by(|a, b| a.first.0.total_cmp(&b.first.0)),
        flips,
        movers,
        steadiest_a: weights.iter().copied().max_by(|a, b| a.steady_a().total_cmp(&b.steady_a())),
    }
}

/// The whole case study for two sentences.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseStudy {
    /// Both sentences through the model, as trained (scaled, no mask, T = 1).
    pub encodings: [Encoding; 2],
    pub positions: [Positions; 2],
    pub weights: Vec<HeadWeights>,
    pub findings: Findings,
    /// The sentences have the same tokens but one, with the query at the same place: then
    /// layer 1 provably keeps the order of every shared token's weight.
    pub one_word_apart: bool,
}

/// Why the case study cannot be made.
#[derive(Debug, Clone, PartialEq)]
pub enum StudyProblem {
    /// Sentence 0 or 1 cannot be encoded.
    Sentence(usize, ModelError),
    /// Word `word` (0 = query, 1, 2 = targets) is not a token of sentence `sentence`.
    Missing { word: usize, sentence: usize },
}

/// `word` as `model` normalises it (MiniLM lower-cases and strips accents, e5 maps full-width
/// forms to ASCII): its pieces' spellings run together, or the word itself if the model
/// cannot read it alone.
pub fn spelled_by(model: &dyn Model, word: &str) -> String {
    let Ok(tokens) = model.tokenize(word) else { return word.to_string() };
    let inner = if model.shape().framed { tokens.get(1..tokens.len().saturating_sub(1)) } else { Some(&tokens[..]) };
    let spelled: String = inner.unwrap_or_default().iter().map(|t| spelled(&t.text)).collect();
    if spelled.is_empty() {
        word.to_string()
    } else {
        spelled
    }
}

/// The sentence as `model` runs it for the case study (as trained: scaled, no mask, T = 1),
/// and where its three words are; `Err` names the word (0, 1, 2) not found.
fn encode_with_words(model: &dyn Model, text: &str, words: [&str; 3]) -> Result<(Encoding, Positions), Missing> {
    let input = Input { text: text.to_string(), kv_text: None };
    let encoding = model.forward(&input, &RunOptions::default()).map_err(Missing::Sentence)?;
    let at = |i: usize| word_span(&encoding.tokens, &spelled_by(model, words[i])).ok_or(Missing::Word(i));
    let positions = Positions { query: at(0)?, a: at(1)?, b: at(2)? };
    Ok((encoding, positions))
}

/// Why [`encode_with_words`] found no place for the words.
enum Missing {
    Sentence(ModelError),
    Word(usize),
}

/// One head's weight (layer and head 0-based) from the word `words[0]` to `words[1]` and to
/// `words[2]` in `text`, as the case study measures it; `None` if the model cannot read the
/// text or one of the words is not among its tokens.
pub fn head_reading(model: &dyn Model, text: &str, words: [&str; 3], layer: usize, head: usize) -> Option<(f32, f32)> {
    let (encoding, p) = encode_with_words(model, text, words).ok()?;
    let w = &encoding.layers.get(layer)?.trace.head_traces.get(head)?.weights;
    Some((word_weight(w, &p.query, &p.a), word_weight(w, &p.query, &p.b)))
}

/// Run the model on both sentences and measure the query's weights on the two targets.
pub fn case_study(
    model: &dyn Model,
    sentences: [&str; 2],
    words: [&str; 3],
    top: usize,
) -> Result<CaseStudy, StudyProblem> {
    let run = |sentence: usize| {
        encode_with_words(model, sentences[sentence], words).map_err(|m| match m {
            Missing::Sentence(e) => StudyProblem::Sentence(sentence, e),
            Missing::Word(word) => StudyProblem::Missing { word, sentence },
        })
    };
    // Sentence 1 is read whole before sentence 2 (its problem is named first).
    let ((first, p1), (second, p2)) = (run(0)?, run(1)?);
    let (encodings, positions) = ([first, second], [p1, p2]);
    let weights = head_weights(&encodings[0], &positions[0], &encodings[1], &positions[1]);
    let findings = findings(&weights, top);
    let (p, q) = (&encodings[0].tokens, &encodings[1].tokens);
    let differing = p.iter().zip(q).filter(|(a, b)| a.id != b.id).count();
    let one_word_apart = p.len() == q.len() && differing == 1 && positions[0].query == positions[1].query;
    Ok(CaseStudy { encodings, positions, weights, findings, one_word_apart })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hw(layer: usize, first: (f32, f32), second: (f32, f32)) -> HeadWeights {
        HeadWeights { layer, head: 0, first, second }
    }

    #[test]
    fn a_word_of_several_pieces_gets_the_sum_of_their_weights() {
        let w = ndarray::array![[0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1], [0.25, 0.25, 0.25, 0.25]];
        assert!((word_weight(&w, &(0..1), &(2..4)) - 0.7).abs() < 1e-6);
        assert!((word_weight(&w, &(0..2), &(2..4)) - 0.5).abs() < 1e-6, "the mean of rows 0 and 1");
        assert_eq!(word_weight(&w, &(5..6), &(0..1)), 0.0, "outside the map weighs nothing");
    }

    #[test]
    fn flips_and_movers_are_found() {
        let w = [hw(0, (0.5, 0.1), (0.5, 0.1)), hw(1, (0.3, 0.2), (0.1, 0.4)), hw(2, (0.6, 0.1), (0.2, 0.1))];
        let f = findings(&w, 2);
        assert_eq!(f.prefer_a, 3);
        assert_eq!(f.flips, vec![w[1]]);
        assert_eq!(f.movers, vec![w[1], w[2]], "movement 0.4 each; ties keep their order");
        assert_eq!(f.strongest_a, Some(w[2]));
        assert_eq!(f.steadiest_a, Some(w[0]), "0.5 on a in both sentences");
        assert!((w[1].movement() - 0.4).abs() < 1e-6);
    }

    #[test]
    fn the_strongest_head_on_a_is_one_that_prefers_a() {
        // Head 0 puts the most on a (0.6) but more on b (0.7): it is not among those preferring a.
        let w = [hw(0, (0.6, 0.7), (0.6, 0.7)), hw(1, (0.3, 0.2), (0.3, 0.2))];
        let f = findings(&w, 2);
        assert_eq!((f.prefer_a, f.strongest_a), (1, Some(w[1])));
        let none = findings(&[hw(0, (0.1, 0.2), (0.1, 0.2))], 1);
        assert_eq!((none.prefer_a, none.strongest_a), (0, None));
    }
}
