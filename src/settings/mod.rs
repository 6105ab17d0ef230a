//! Everything a learner controls, as one value, with the rules each part keeps. The controls
//! and the URL parser both change the settings only through the setters here, so a rule (the
//! token limit, heads dividing d_model, the temperature's rounding, an index within range)
//! lives in one place. Pure: no web APIs, so it is tested natively.

mod limits;
mod nav;
pub mod url;

pub use limits::*;
pub use nav::{Chapter, Stage, Theme, View};

use crate::core::attention::Mask;
use crate::core::bert::{wordpiece::rough_words, Vocab, MINILM};
use crate::core::saturation::snap_dk;
use crate::core::scenario::{Scenario, Source, MAX_MODEL_TOKENS};
use crate::core::tokenize::tokenize;
use crate::core::train::session::Setup;
use crate::i18n::Lang;
use std::sync::Arc;

/// The whole state of the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The query-side sentence (1 to [`MAX_TOKENS`] tokens: see [`Settings::set_text`]).
    pub text: String,
    /// The second sentence (keys/values), used when `cross` is on.
    pub kv_text: String,
    pub cross: bool,
    pub d_model: usize,
    /// Always one of [`HEAD_CHOICES`] dividing `d_model`.
    pub heads: usize,
    pub seed: u64,
    pub positional: bool,
    pub mask: Mask,
    pub scaled: bool,
    /// Within [`TEMPERATURE_RANGE`], in steps of 0.01.
    pub temperature: f32,
    /// The saturation lab's d_k (a power of two, 1–1024) once the learner moves its slider;
    /// until then the lab shows the lesson's own d_k (see [`Settings::lab_dk`]). Its scaling
    /// switch is the lesson's `scaled`: one state, whichever screen shows it.
    pub lab_dk: Option<usize>,
    pub view: View,
    pub stage: Stage,
    /// The variance experiment's d_k (a power of two) and number of sampled pairs.
    pub var_dk: usize,
    pub var_samples: usize,
    /// The token index the sparse pattern head looks for.
    pub anchor: usize,
    /// The cost view's sequence length, as log₂ n.
    pub cost_log_n: u32,
    /// The FlashAttention view's tile size (queries × keys per tile).
    pub tile: usize,
    /// Projector layout: big type, one stage per screen, settings folded away.
    pub present: bool,
    pub theme: Theme,
    /// The spotlighted token (0-based): its row and column are outlined in every heatmap.
    pub spot: Option<usize>,
    /// The head shown in the per-head stages, 0-based, below `heads`.
    pub head: usize,
    /// The query row highlighted in the softmax stage, 0-based, below the token count.
    pub query: usize,
    pub lang: Lang,
    /// Random or trained weights.
    pub source: Source,
    /// The trained model's layer shown, 0-based, below its layer count.
    pub layer: usize,
    /// The trained model's vocabulary once loaded (not part of a link): with trained weights,
    /// sentences are counted in its tokens.
    pub vocab: Option<Arc<Vocab>>,
    /// The shape of the learner's own trained model once the page has read it (not part of
    /// a link).
    pub yours: Option<YoursShape>,
    /// The case study's two sentences and its three words.
    pub study: Study,
}

/// What the page needs to know of the learner's trained model before running it: its heads
/// and layers bound the pickers, its tokens and the most it reads bound the sentence, and its
/// example is the sentence it opens with.
#[derive(Debug, Clone, PartialEq)]
pub struct YoursShape {
    pub heads: usize,
    pub layers: usize,
    pub context: usize,
    pub tokens: Arc<[String]>,
    pub example: String,
}

/// The "it → animal" case study: two sentences, the token read from and two tokens it may
/// read (as typed; matched against the trained model's tokens).
#[derive(Debug, Clone, PartialEq)]
pub struct Study {
    pub sentences: [String; 2],
    /// The query word, then the two targets.
    pub words: [String; 3],
}

impl Default for Study {
    fn default() -> Self {
        Self {
            sentences: [
                "The animal didn't cross the street because it was too tired".into(),
                "The animal didn't cross the street because it was too wide".into(),
            ],
            words: ["it".into(), "animal".into(), "street".into()],
        }
    }
}

impl Study {
    /// Sentence `which` (0 or 1), if it has words and at most as many as the model reads.
    pub fn set_sentence(&mut self, which: usize, text: &str) -> bool {
        let fits = (1..=MAX_MODEL_TOKENS - 2).contains(&rough_words(text).len());
        let slot = self.sentences.get_mut(which).filter(|_| fits);
        slot.map(|s| *s = text.to_string()).is_some()
    }

    /// Word `which` (0 = query, 1 and 2 = targets), if it is one word.
    pub fn set_word(&mut self, which: usize, word: &str) -> bool {
        let one = rough_words(word).len() == 1;
        let slot = self.words.get_mut(which).filter(|_| one);
        slot.map(|w| *w = word.trim().to_string()).is_some()
    }
}

/// Why a sentence cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SentenceProblem {
    /// No tokens at all (empty or only spaces).
    NoTokens,
    /// More tokens than the weights in use can show: how many, and the most allowed.
    TooMany { n: usize, max: usize },
    /// A token the learner's trained model has no embedding for.
    Unknown(String),
}

/// The number of tokens of `text`, if the site can draw it: 1 to [`MAX_TOKENS`].
pub fn check_sentence(text: &str) -> Result<usize, SentenceProblem> {
    within(tokenize(text).len(), MAX_TOKENS)
}

/// `n` tokens if 1 ≤ n ≤ `max`.
fn within(n: usize, max: usize) -> Result<usize, SentenceProblem> {
    match n {
        0 => Err(SentenceProblem::NoTokens),
        n if n > max => Err(SentenceProblem::TooMany { n, max }),
        n => Ok(n),
    }
}

/// Does `heads` divide `d_model`, and is it offered?
pub fn heads_allowed(d_model: usize, heads: usize) -> bool {
    HEAD_CHOICES.contains(&heads) && heads <= d_model && d_model.is_multiple_of(heads)
}

/// The largest offered head count ≤ `wish` that divides `d_model` (1 always does).
fn fit_heads(d_model: usize, wish: usize) -> usize {
    HEAD_CHOICES.iter().rev().copied().find(|h| *h <= wish && heads_allowed(d_model, *h)).unwrap_or(1)
}

/// A d_k written as any number from 1 to 1024, snapped to the power of two nearest in log scale.
fn snapped_dk(d: f64) -> Option<usize> {
    (1.0..=1024.0).contains(&d).then(|| snap_dk(d))
}

/// Short, exact enough: 0.05, 1, 12.5.
pub fn format_temperature(t: f32) -> String {
    let s = format!("{t:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The default sentences (query side, key/value side) in `lang`.
pub fn default_sentences(lang: Lang) -> (&'static str, &'static str) {
    match lang {
        // Each holds a repeated token (“the”, 它), so switching positional encoding off shows
        // two identical rows; the English is in lower case for that (“The” ≠ “the”).
        Lang::En => ("the animal didn't cross the street because it was too tired", "Le chat est fatigué"),
        Lang::Zh => ("小猫没有过马路，因为它太累了，它想睡觉。", "The cat was too tired"),
    }
}

impl Settings {
    /// Defaults, with the sentences in `lang`.
    pub fn new(lang: Lang) -> Self {
        let (text, kv_text) = default_sentences(lang);
        Self {
            text: text.into(),
            kv_text: kv_text.into(),
            cross: false,
            d_model: 64,
            heads: 4,
            seed: 42,
            positional: true,
            mask: Mask::None,
            scaled: true,
            temperature: 1.0,
            lab_dk: None,
            view: View::Lesson,
            stage: Stage::Input,
            var_dk: 64,
            var_samples: 3000,
            anchor: 0,
            cost_log_n: 10,
            tile: 4,
            present: false,
            theme: Theme::Auto,
            spot: None,
            head: 0,
            query: 0,
            lang,
            source: Source::Random,
            layer: 0,
            vocab: None,
            yours: None,
            study: Study::default(),
        }
    }

    /// Whether the causal mask can apply: not between two sentences (their positions are not one
    /// timeline, and real decoders never mask cross-attention).
    pub fn mask_applies(&self) -> bool {
        !self.cross
    }

    /// The mask attention runs with: the chosen one, or none in cross-attention (the choice is
    /// kept, and comes back with self-attention).
    pub fn effective_mask(&self) -> Mask {
        if self.mask_applies() {
            self.mask
        } else {
            Mask::None
        }
    }

    /// What the attention core needs (a `Memo` of this skips recomputing on other changes).
    pub fn scenario(&self) -> Scenario {
        Scenario {
            text: self.text.clone(),
            kv_text: self.cross.then(|| self.kv_text.clone()),
            d_model: self.d_model,
            heads: self.heads,
            seed: self.seed,
            positional: self.positional,
            mask: self.effective_mask(),
            scaled: self.scaled,
            temperature: self.temperature,
            source: self.source,
            layer: self.layer,
        }
    }

    /// The number of tokens of `text` with the weights in use: the trained model's WordPiece
    /// tokens with [CLS] and [SEP] (before its vocabulary arrives, its words and those two, a
    /// lower bound), else the site's own tokens.
    pub fn count_tokens(&self, text: &str) -> usize {
        self.count_tokens_with(self.source, text)
    }

    /// [`Settings::count_tokens`] as `source`'s weights would count.
    fn count_tokens_with(&self, source: Source, text: &str) -> usize {
        match (source, &self.vocab) {
            (Source::Random | Source::Yours, _) => tokenize(text).len(),
            (Source::Minilm, Some(vocab)) => vocab.encode(text).len(),
            (Source::Minilm, None) => rough_words(text).len() + 2,
        }
    }

    /// The tokens of `text` as [`Settings::count_tokens`] counts them (before the trained
    /// model's vocabulary arrives: its words, between [CLS] and [SEP]).
    pub fn tokens(&self, text: &str) -> Vec<String> {
        match (self.source, &self.vocab) {
            (Source::Random | Source::Yours, _) => tokenize(text),
            (Source::Minilm, Some(vocab)) => vocab.encode(text).into_iter().map(|p| p.text).collect(),
            (Source::Minilm, None) => {
                let inner = rough_words(text).into_iter();
                std::iter::once("[CLS]".to_string()).chain(inner).chain(std::iter::once("[SEP]".to_string())).collect()
            }
        }
    }

    /// The number of tokens of `text` if it can be drawn with the weights in use.
    pub fn check(&self, text: &str) -> Result<usize, SentenceProblem> {
        self.check_with(self.source, text)
    }

    /// [`Settings::check`] for `source`'s weights.
    fn check_with(&self, source: Source, text: &str) -> Result<usize, SentenceProblem> {
        match source {
            Source::Random => check_sentence(text),
            Source::Yours => {
                let tokens = tokenize(text);
                let Some(y) = &self.yours else { return within(tokens.len(), MAX_TOKENS) };
                match tokens.into_iter().find(|t| !y.tokens.contains(t)) {
                    Some(t) => Err(SentenceProblem::Unknown(t)),
                    None => within(self.count_tokens_with(source, text), y.context),
                }
            }
            // [CLS] and [SEP] alone are not a sentence.
            Source::Minilm => match self.count_tokens_with(source, text) {
                n if n <= 2 => Err(SentenceProblem::NoTokens),
                n => within(n, MAX_MODEL_TOKENS),
            },
        }
    }

    /// The number of tokens of the query sentence.
    pub fn token_count(&self) -> usize {
        self.count_tokens(&self.text)
    }

    /// The number of heads of the weights in use.
    pub fn head_count(&self) -> usize {
        match self.source {
            Source::Random => self.heads,
            Source::Minilm => MINILM.heads,
            // Until the model is read, a link may name any head a trained model can have.
            Source::Yours => self.yours.as_ref().map_or(Setup::HEADS.1, |y| y.heads),
        }
    }

    /// The number of layers of the weights in use (random weights are one layer).
    pub fn layer_count(&self) -> usize {
        match self.source {
            Source::Random => 1,
            Source::Minilm => MINILM.layers,
            Source::Yours => self.yours.as_ref().map_or(Setup::LAYERS.1, |y| y.layers),
        }
    }

    /// Why the sentence could not be shown with `source`'s weights (their tokens differ, and
    /// so do their limits), if it could not.
    pub fn source_problem(&self, source: Source) -> Option<SentenceProblem> {
        self.check_with(source, &self.text).err()
    }

    /// Random or trained weights, if the sentence fits them (a reload must find the same
    /// sentence valid); the head, query, spotlight and anchor stay within range. The learner's
    /// own model reads only its task's tokens: a sentence it cannot read gives way to its
    /// example.
    pub fn set_source(&mut self, source: Source) -> bool {
        if self.source_problem(source).is_some() {
            let example = self.yours.as_ref().filter(|_| source == Source::Yours).map(|y| y.example.clone());
            match example {
                Some(e) if self.check_with(source, &e).is_ok() => self.text = e,
                _ => return false,
            }
        }
        self.source = source;
        self.head = self.head.min(self.head_count() - 1);
        self.clamp_indices();
        true
    }

    /// The trained model's layer shown (0-based), if it has it.
    pub fn set_layer(&mut self, layer: usize) -> bool {
        (layer < MINILM.layers).then(|| self.layer = layer).is_some()
    }

    /// Once the learner's trained model has been read (or found missing): its heads and
    /// layers bound the pickers, and the head shown stays within them.
    pub fn set_yours(&mut self, shape: Option<YoursShape>) -> bool {
        self.yours = shape;
        if self.source == Source::Yours {
            self.layer = self.layer.min(self.layer_count() - 1);
            if self.source_problem(Source::Yours).is_some() {
                self.set_source(Source::Yours);
            }
        }
        self.head = self.head.min(self.head_count() - 1);
        self.clamp_indices();
        true
    }

    /// Once the trained model has loaded: count its tokens exactly from now on.
    pub fn set_vocab(&mut self, vocab: Arc<Vocab>) -> bool {
        self.vocab = Some(vocab);
        self.clamp_indices();
        true
    }

    /// The query, anchor and spotlight within the sentence's tokens.
    fn clamp_indices(&mut self) {
        let n = self.token_count().max(1);
        self.query = self.query.min(n - 1);
        self.anchor = self.anchor.min(n - 1);
        self.spot = self.spot.filter(|s| *s < n);
    }

    /// Use `text` as the sentence if it can be drawn; the chosen query, spotlight and anchor
    /// stay within its tokens.
    pub fn set_text(&mut self, text: &str) -> Result<(), SentenceProblem> {
        let n = self.check(text)?;
        self.text = text.to_string();
        self.query = self.query.min(n - 1);
        self.anchor = self.anchor.min(n - 1);
        self.spot = self.spot.filter(|s| *s < n);
        Ok(())
    }

    /// Use `text` as the second sentence if it can be drawn.
    pub fn set_kv_text(&mut self, text: &str) -> Result<(), SentenceProblem> {
        check_sentence(text)?;
        self.kv_text = text.to_string();
        Ok(())
    }

    /// A new model width, if offered; the head count becomes the largest offered one that
    /// divides it and is not above the current one.
    pub fn set_d_model(&mut self, d_model: usize) -> bool {
        if !D_MODEL_CHOICES.contains(&d_model) {
            return false;
        }
        self.d_model = d_model;
        let heads = fit_heads(d_model, self.heads);
        self.set_heads(heads)
    }

    /// A new head count, if it is offered and divides d_model; the chosen head stays below it.
    pub fn set_heads(&mut self, heads: usize) -> bool {
        if !heads_allowed(self.d_model, heads) {
            return false;
        }
        self.heads = heads;
        self.head = self.head.min(self.head_count() - 1);
        true
    }

    /// The head counts offered for the current d_model.
    pub fn heads_offered(&self) -> impl Iterator<Item = usize> + '_ {
        HEAD_CHOICES.into_iter().filter(|h| heads_allowed(self.d_model, *h))
    }

    /// A new seed, if it is at most [`MAX_SEED`].
    pub fn set_seed(&mut self, seed: u64) -> bool {
        (seed <= MAX_SEED).then(|| self.seed = seed).is_some()
    }

    /// A new softmax temperature, rounded to two decimals (as shown and as written in links),
    /// if it lies in [`TEMPERATURE_RANGE`].
    pub fn set_temperature(&mut self, t: f64) -> bool {
        let t = ((t * 100.0).round() / 100.0) as f32;
        let ok = (TEMPERATURE_RANGE.0..=TEMPERATURE_RANGE.1).contains(&t);
        ok.then(|| self.temperature = t).is_some()
    }

    /// The saturation lab's d_k, snapped to a power of two, if within 1–1024.
    pub fn set_lab_dk(&mut self, d: f64) -> bool {
        snapped_dk(d).map(|d| self.lab_dk = Some(d)).is_some()
    }

    /// The d_k the saturation lab shows: the learner's choice, else the lesson's head width
    /// d_model / h (snapped to a power of two), so the lab opens where the lesson is.
    pub fn lab_dk(&self) -> usize {
        self.lab_dk.unwrap_or_else(|| snap_dk((self.d_model / self.heads.max(1)) as f64))
    }

    /// The variance experiment's d_k, snapped to a power of two, if within 1–1024.
    pub fn set_var_dk(&mut self, d: f64) -> bool {
        snapped_dk(d).map(|d| self.var_dk = d).is_some()
    }

    /// The variance experiment's sample count, if offered.
    pub fn set_var_samples(&mut self, n: usize) -> bool {
        SAMPLE_CHOICES.contains(&n).then(|| self.var_samples = n).is_some()
    }

    /// The cost view's log₂ n, if within [`COST_N_RANGE`].
    pub fn set_cost_log_n(&mut self, e: u32) -> bool {
        (COST_N_RANGE.0..=COST_N_RANGE.1).contains(&e).then(|| self.cost_log_n = e).is_some()
    }

    /// The FlashAttention tile size, if offered.
    pub fn set_tile(&mut self, tile: usize) -> bool {
        TILE_CHOICES.contains(&tile).then(|| self.tile = tile).is_some()
    }

    /// The head shown (0-based), if the weights in use have it.
    pub fn set_head(&mut self, head: usize) -> bool {
        (head < self.head_count()).then(|| self.head = head).is_some()
    }

    /// The query row (0-based), if the sentence has it.
    pub fn set_query(&mut self, query: usize) -> bool {
        (query < self.token_count()).then(|| self.query = query).is_some()
    }

    /// The spotlighted token (0-based), if the sentence has it; `None` clears it.
    pub fn set_spot(&mut self, spot: Option<usize>) -> bool {
        let ok = spot.is_none_or(|s| s < self.token_count());
        ok.then(|| self.spot = spot).is_some()
    }

    /// The sparse head's anchor token (0-based), if the sentence has it.
    pub fn set_anchor(&mut self, anchor: usize) -> bool {
        (anchor < self.token_count()).then(|| self.anchor = anchor).is_some()
    }

    /// The other language; an untouched default sentence follows it (and the indices into it
    /// go back to the start).
    pub fn switch_language(&mut self) {
        let next = if self.lang == Lang::En { Lang::Zh } else { Lang::En };
        let (old_text, old_kv) = default_sentences(self.lang);
        let (new_text, new_kv) = default_sentences(next);
        if self.text == old_text {
            self.text = new_text.into();
            self.query = 0;
            self.anchor = 0;
            self.spot = None;
        }
        if self.kv_text == old_kv {
            self.kv_text = new_kv.into();
        }
        self.lang = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_limit_is_one_to_max() {
        assert_eq!(check_sentence("  "), Err(SentenceProblem::NoTokens));
        assert_eq!(check_sentence(&"a ".repeat(MAX_TOKENS)), Ok(MAX_TOKENS));
        assert_eq!(
            check_sentence(&"a ".repeat(MAX_TOKENS + 1)),
            Err(SentenceProblem::TooMany { n: MAX_TOKENS + 1, max: MAX_TOKENS })
        );
    }

    #[test]
    fn a_shorter_sentence_pulls_the_indices_into_it() {
        let mut s = Settings::new(Lang::En);
        s.query = 9;
        s.anchor = 10;
        s.spot = Some(8);
        assert_eq!(s.set_text("only three words"), Ok(()));
        assert_eq!((s.query, s.anchor, s.spot), (2, 2, None));
        assert_eq!(s.set_text(""), Err(SentenceProblem::NoTokens));
        assert_eq!(s.text, "only three words", "a refused sentence changes nothing");
    }

    #[test]
    fn heads_follow_the_width_and_the_head_follows_the_heads() {
        let mut s = Settings::new(Lang::En);
        s.head = 3;
        assert!(!s.set_heads(3), "3 does not divide 64");
        assert!(s.set_d_model(8) && s.heads == 4);
        assert!(s.set_heads(2) && s.head == 1, "head 4 of 4 becomes head 2 of 2");
        assert!(s.set_d_model(16) && s.heads == 2, "a wider model keeps the head count");
        assert_eq!(s.heads_offered().collect::<Vec<_>>(), [1, 2, 4, 8, 16]);
        assert!(!s.set_d_model(48));
        assert_eq!(fit_heads(8, 16), 8);
        assert_eq!(fit_heads(16, 3), 2);
    }

    #[test]
    fn temperature_is_rounded_to_what_is_shown() {
        let mut s = Settings::new(Lang::En);
        assert!(s.set_temperature(0.1234));
        assert_eq!((s.temperature, format_temperature(s.temperature).as_str()), (0.12, "0.12"));
        assert!(!s.set_temperature(0.04) && !s.set_temperature(20.5) && !s.set_temperature(f64::NAN));
        assert!(s.set_temperature(20.004) && s.temperature == 20.0);
    }

    #[test]
    fn indices_must_exist() {
        let mut s = Settings::new(Lang::En);
        assert!(s.set_head(3) && !s.set_head(4));
        assert!(s.set_query(10) && !s.set_query(11));
        assert!(s.set_spot(Some(10)) && !s.set_spot(Some(11)) && s.set_spot(None));
        assert!(s.set_anchor(0) && !s.set_anchor(11));
    }

    #[test]
    fn switching_language_swaps_only_untouched_sentences() {
        let mut s = Settings::new(Lang::En);
        s.query = 5;
        s.switch_language();
        assert_eq!((s.lang, s.text.as_str(), s.query), (Lang::Zh, default_sentences(Lang::Zh).0, 0));
        assert!(s.set_text("my own words").is_ok());
        s.switch_language();
        assert_eq!((s.lang, s.text.as_str()), (Lang::En, "my own words"));
    }

    #[test]
    fn trained_weights_have_their_own_heads_layers_and_token_count() {
        let mut s = Settings::new(Lang::En);
        assert!(!s.set_head(11), "random weights have 4 heads");
        assert!(s.set_source(Source::Minilm));
        assert!(s.set_head(11) && !s.set_head(12));
        assert!(s.set_layer(5) && !s.set_layer(6));
        // Before the vocabulary arrives: the words between [CLS] and [SEP].
        assert_eq!(s.token_count(), 15);
        assert_eq!(s.check("   "), Err(SentenceProblem::NoTokens));
        assert_eq!(s.check(&"a ".repeat(127)), Err(SentenceProblem::TooMany { n: 129, max: MAX_MODEL_TOKENS }));
        assert!(s.set_text(&"a ".repeat(100)).is_ok(), "100 words: more than the 64 random weights allow");
        s.set_vocab(Arc::new(Vocab::from_lines("[PAD]\n[UNK]\n[CLS]\n[SEP]\na\n")));
        assert_eq!(s.tokens("a b"), ["[CLS]", "a", "[UNK]", "[SEP]"]);
        assert!(!s.set_source(Source::Random), "100 words do not fit random weights");
        assert!(
            s.set_text("a b c").is_ok() && s.set_source(Source::Random) && s.head == 3,
            "back to 4 heads: head 12 becomes head 4"
        );
    }

    #[test]
    fn your_model_reads_only_its_tokens_and_opens_on_its_example() {
        let mut s = Settings::new(Lang::En);
        assert!(s.set_source(Source::Yours), "until the model is read, the sentence waits for it");
        assert!(s.set_head(7) && s.layer_count() == 2, "a link may name any head a trained model can have");
        let tokens: Vec<String> = ["1", "2", "|"].map(String::from).to_vec();
        let shape = YoursShape { heads: 2, layers: 1, context: 16, tokens: tokens.into(), example: "1 2 | 2".into() };
        assert!(s.set_yours(Some(shape)));
        assert_eq!((s.text.as_str(), s.head, s.layer_count()), ("1 2 | 2", 1, 1), "the example, head 2 of 2");
        assert_eq!(s.set_text("1 x 2"), Err(SentenceProblem::Unknown("x".into())));
        assert_eq!(s.set_text(&"1 ".repeat(17)), Err(SentenceProblem::TooMany { n: 17, max: 16 }));
        assert!(s.set_text("2 1").is_ok() && s.set_source(Source::Random) && s.set_text("the cat").is_ok());
        assert!(s.set_source(Source::Yours) && s.text == "1 2 | 2", "back to it: its example again");
    }

    #[test]
    fn cross_attention_runs_without_the_causal_mask_and_keeps_the_choice() {
        let mut s = Settings { mask: Mask::Causal, ..Settings::new(Lang::En) };
        assert_eq!(s.scenario().mask, Mask::Causal);
        s.cross = true;
        assert!(!s.mask_applies());
        assert_eq!(s.scenario().mask, Mask::None);
        s.cross = false;
        assert_eq!(s.scenario().mask, Mask::Causal, "self-attention gets the causal mask back");
    }

    #[test]
    fn weights_whose_tokens_cannot_show_the_sentence_are_refused() {
        let mut s = Settings::new(Lang::En);
        assert!(s.set_source(Source::Minilm));
        let long = vec!["word"; 70].join(" ");
        assert_eq!(s.set_text(&long), Ok(()), "the trained model shows up to 128 tokens");
        assert_eq!(s.source_problem(Source::Random), Some(SentenceProblem::TooMany { n: 70, max: MAX_TOKENS }));
        assert!(!s.set_source(Source::Random), "random weights show 64 at most");
        assert_eq!((s.source, s.text.as_str()), (Source::Minilm, long.as_str()), "nothing changed");
    }

    #[test]
    fn the_study_keeps_sentences_and_single_words() {
        let mut study = Study::default();
        assert!(study.set_word(1, " Animal ") && study.words[1] == "Animal");
        assert!(!study.set_word(2, "two words") && !study.set_word(3, "x"));
        assert!(!study.set_sentence(0, "  ") && !study.set_sentence(2, "fine"));
        assert!(study.set_sentence(1, "The cat sat."));
    }

    #[test]
    fn language_picks_the_default_sentence() {
        assert_eq!(Settings::new(Lang::En).scenario().text, Scenario::default().text);
    }

    /// Switching positional encoding off must show two identical rows in either language.
    #[test]
    fn each_default_sentence_repeats_a_token() {
        for lang in [Lang::En, Lang::Zh] {
            let tokens = tokenize(default_sentences(lang).0);
            let repeated = tokens.iter().enumerate().any(|(i, t)| tokens[i + 1..].contains(t));
            assert!(repeated, "{lang:?}: {tokens:?}");
        }
    }
}
