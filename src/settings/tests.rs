//! The settings' rules, with the real registry and a small framed model standing in for the
//! pretrained one (its vocabulary of a few words).

use super::*;
use crate::core::bert::{minilm_shape, Vocab};
use crate::core::model::{Encoding, ModelError, Shape};
use crate::core::train::session::{Session, Setup};
use crate::core::train::yours::YourModel;
use crate::models::{Arrival, Models};

/// A framed WordPiece model of a tiny vocabulary, shaped like the pretrained one.
#[derive(Debug)]
struct Framed {
    vocab: Vocab,
    shape: Shape,
}

impl Model for Framed {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn tokenize(&self, text: &str) -> Result<Vec<Token>, SentenceProblem> {
        self.vocab.sentence(text, self.shape.max_tokens)
    }

    fn forward(&self, _: &Input, _: &RunOptions) -> Result<Encoding, ModelError> {
        Err(ModelError::NotKept)
    }

    fn layer_projections(&self) -> Vec<Arc<crate::core::projections::Projections>> {
        vec![]
    }
}

fn with_framed() -> Models {
    let mut models = Models::default();
    let framed = Framed { vocab: Vocab::from_lines("[PAD]\n[UNK]\n[CLS]\n[SEP]\na\n##a\nit\n"), shape: minilm_shape() };
    models.arrive(ModelId::Minilm, Arrival::Ready(Arc::new(framed)));
    models
}

fn yours(layers: usize) -> YourModel {
    let session = Session::new(Setup { n_layers: layers, ..Setup::default() }).expect("the default setup");
    YourModel::of(&session, &session.example()).expect("a model")
}

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
    let c = Models::default();
    let mut s = Settings::new(Lang::En);
    assert!(s.set_query(9, &c) && s.set_anchor(10, &c) && s.set_spot(Some(8), &c));
    assert_eq!(s.set_text("only three words", &c), Ok(()));
    assert_eq!((s.lesson().query(), s.patterns().anchor(), s.lesson().spot()), (2, 2, None));
    assert_eq!(s.set_text("", &c), Err(SentenceProblem::NoTokens));
    assert_eq!(s.lesson().text(), "only three words", "a refused sentence changes nothing");
}

#[test]
fn the_head_follows_the_heads() {
    let c = Models::default();
    let mut s = Settings::new(Lang::En);
    assert!(s.set_head(3, &c));
    assert!(!s.change_choice(&c, |m| m.set_n_heads(3)), "3 does not divide 64");
    assert!(s.change_choice(&c, |m| m.set_d_model(8)) && s.choice().random().n_heads == 4);
    assert!(s.change_choice(&c, |m| m.set_n_heads(2)) && s.lesson().head() == 1, "head 4 of 4 becomes head 2 of 2");
}

#[test]
fn indices_must_exist() {
    let c = Models::default();
    let mut s = Settings::new(Lang::En);
    assert!(s.set_head(3, &c) && !s.set_head(4, &c));
    assert!(s.set_query(10, &c) && !s.set_query(11, &c));
    assert!(s.set_spot(Some(10), &c) && !s.set_spot(Some(11), &c) && s.set_spot(None, &c));
    assert!(s.set_anchor(0, &c) && !s.set_anchor(11, &c));
    assert!(s.set_layer(0, &c) && !s.set_layer(1, &c), "random weights are one layer");
}

#[test]
fn temperature_is_rounded_to_what_is_shown() {
    let mut s = Settings::new(Lang::En);
    let l = s.lesson_mut();
    assert!(l.set_temperature(0.1234));
    assert_eq!((l.temperature(), l.temperature_text().as_str()), (0.12, "0.12"));
    assert!(!l.set_temperature(0.04) && !l.set_temperature(20.5) && !l.set_temperature(f64::NAN));
    assert!(l.set_temperature(20.004) && l.temperature() == 20.0);
}

#[test]
fn switching_language_swaps_only_untouched_sentences_and_keeps_what_was_chosen() {
    let c = Models::default();
    let mut s = Settings::new(Lang::En);
    let pronoun_of = |s: &Settings| s.tokens(s.lesson().text(), &c)[s.lesson().query()].clone();
    assert_eq!(pronoun_of(&s), "it", "the default query is the pronoun");
    assert!(!s.to_query().contains("q="), "and a link leaves it to the sentence");
    // The untouched default follows the language, and its query follows to the pronoun there.
    assert!(s.set_query(1, &c) && s.set_head(1, &c));
    s.switch_language(&c);
    assert_eq!((s.lang(), s.lesson().text()), (Lang::Zh, default_sentences(Lang::Zh).0));
    assert_eq!((pronoun_of(&s).as_str(), s.lesson().head()), ("它", 1), "它, and the head chosen");
    // A sentence of the teacher's own stays, with the query, layer and head chosen on it.
    assert!(s.set_text("my own words here", &c).is_ok() && s.set_query(2, &c));
    s.switch_language(&c);
    assert_eq!(
        (s.lang(), s.lesson().text(), s.lesson().query(), s.lesson().head()),
        (Lang::En, "my own words here", 2, 1)
    );
}

#[test]
fn a_pretrained_model_opens_on_its_talking_head_and_the_pronoun_as_it_reads_it() {
    let framed = with_framed();
    let mut s = Settings::new(Lang::En);
    assert!(s.set_text("a aa it a", &framed).is_ok() && s.set_model(ModelId::Minilm, &framed));
    // [CLS] a a ##a it a [SEP]: "it" is the fifth token; the head is MiniLM's own.
    assert_eq!(s.lesson().query(), 4);
    assert_eq!((s.lesson().layer(), s.lesson().head()), crate::core::bert::MINILM.talking_head);
    assert!(!s.to_short_query().contains("layer=") && !s.to_short_query().contains("head="));
    // Chosen, they stay through the model switch and are written in the link.
    assert!(s.set_layer(0, &framed) && s.set_head(0, &framed) && s.set_query(1, &framed));
    assert!(s.set_model(ModelId::Random, &framed) && s.set_model(ModelId::Minilm, &framed));
    assert_eq!((s.lesson().layer(), s.lesson().head(), s.lesson().query()), (0, 0, 1));
    assert!(s.to_short_query().contains("layer=1&") && s.to_short_query().contains("q=2"));
}

#[test]
fn the_pretrained_model_has_its_own_heads_layers_and_token_count() {
    let waiting = Models::default();
    let mut s = Settings::new(Lang::En);
    assert!(!s.set_head(11, &waiting), "random weights have 4 heads");
    assert!(s.set_model(ModelId::Minilm, &waiting));
    assert!(s.set_head(11, &waiting) && !s.set_head(12, &waiting));
    assert!(s.set_layer(5, &waiting) && !s.set_layer(6, &waiting));
    // Before the vocabulary arrives: the words between [CLS] and [SEP].
    assert_eq!(s.token_count(&waiting), 15);
    let model = s.model(&waiting);
    assert_eq!(model.tokenize("   "), Err(SentenceProblem::NoTokens));
    assert_eq!(model.tokenize(&"a ".repeat(127)), Err(SentenceProblem::TooMany { n: 129, max: 128 }));
    assert!(s.set_text(&"a ".repeat(100), &waiting).is_ok(), "100 words: more than the 64 random weights allow");
    let arrived = with_framed();
    assert_eq!(s.tokens("a b", &arrived), ["[CLS]", "a", "[UNK]", "[SEP]"]);
    assert!(!s.set_model(ModelId::Random, &arrived), "100 words do not fit random weights");
    assert!(
        s.set_text("a b c", &arrived).is_ok() && s.set_model(ModelId::Random, &arrived) && s.lesson().head() == 3,
        "back to 4 heads: head 12 becomes head 4"
    );
    assert_eq!(s.lesson().layer(), 0, "and one layer");
}

#[test]
fn your_model_reads_only_its_tokens_and_opens_on_its_example() {
    let waiting = Models::default();
    let mut s = Settings::new(Lang::En);
    assert!(s.set_model(ModelId::Yours, &waiting), "until the model is read, the sentence waits for it");
    assert!(s.set_head(7, &waiting) && s.set_layer(1, &waiting), "a link may name any head a trained model can have");
    let mut read = Models::default();
    let model = yours(1);
    let example = model.example().expect("an example");
    read.arrive(ModelId::Yours, Arrival::Ready(Arc::new(model)));
    s.fit(&read);
    let got = (s.lesson().text(), s.lesson().head(), s.lesson().layer());
    assert_eq!(got, (example.as_str(), 1, 0), "the example, head 2 of 2, its one layer");
    assert_eq!(s.set_text("1 x 2", &read), Err(SentenceProblem::Unknown("x".into())));
    assert_eq!(s.set_text(&"1 ".repeat(17), &read), Err(SentenceProblem::TooMany { n: 17, max: 16 }));
    assert!(
        s.set_text("2 1", &read).is_ok() && s.set_model(ModelId::Random, &read) && s.set_text("the cat", &read).is_ok()
    );
    assert!(s.set_model(ModelId::Yours, &read) && s.lesson().text() == example, "back to it: its example again");
}

/// The link the random walk found rewritten on reload: your 2-layer model at layer 4, which
/// the layer's setter accepted because it checked the pretrained model's six.
#[test]
fn a_layer_your_model_does_not_have_is_refused() {
    let mut read = Models::default();
    read.arrive(ModelId::Yours, Arrival::Ready(Arc::new(yours(2))));
    let mut s = Settings::new(Lang::En);
    assert!(s.set_model(ModelId::Yours, &read));
    assert!(s.set_layer(1, &read) && !s.set_layer(3, &read));
    assert_eq!(s.lesson().layer(), 1);
}

#[test]
fn cross_attention_runs_without_the_causal_mask_and_keeps_the_choice() {
    let c = Models::default();
    let mut s = Settings::new(Lang::En);
    s.lesson_mut().set_mask(Mask::Causal);
    let model = s.model(&c);
    assert_eq!(s.run_options(&*model).mask, Mask::Causal);
    s.lesson_mut().set_cross(true);
    assert!(!s.mask_applies(&*model));
    assert_eq!(s.run_options(&*model).mask, Mask::None);
    assert!(s.input(&*model).kv_text.is_some());
    s.lesson_mut().set_cross(false);
    assert_eq!(s.run_options(&*model).mask, Mask::Causal, "self-attention gets the causal mask back");
    s.lesson_mut().set_cross(true);
    assert!(s.set_model(ModelId::Minilm, &c));
    let one = s.model(&c);
    assert!(s.mask_applies(&*one) && s.input(&*one).kv_text.is_none(), "a model of one sentence ignores the second");
}

#[test]
fn a_model_whose_tokens_cannot_show_the_sentence_is_refused() {
    let c = Models::default();
    let mut s = Settings::new(Lang::En);
    assert!(s.set_model(ModelId::Minilm, &c));
    let long = vec!["word"; 70].join(" ");
    assert_eq!(s.set_text(&long, &c), Ok(()), "the pretrained model shows up to 128 tokens");
    assert_eq!(s.model_problem(ModelId::Random, &c), Some(SentenceProblem::TooMany { n: 70, max: MAX_TOKENS }));
    assert!(!s.set_model(ModelId::Random, &c), "random weights show 64 at most");
    assert_eq!((s.choice().id(), s.lesson().text()), (ModelId::Minilm, long.as_str()), "nothing changed");
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

#[test]
fn a_link_s_indices_into_the_sentence_wait_for_the_model_that_counts_its_tokens() {
    // Before its vocabulary arrives, MiniLM's stand-in reads "aaa" as one word; MiniLM reads
    // three pieces: [CLS] a ##a ##a [SEP].
    let link = "model=minilm&text=aaa&q=4&spot=4&anchor=3";
    let (s, ignored) = Settings::from_query(link, Lang::En, &Models::default());
    assert!(ignored.is_empty(), "nothing the model may have is called wrong: {ignored:?}");
    assert_eq!(
        (s.lesson().query(), s.lesson().spot()),
        (0, None),
        "meanwhile the stand-in shows its own first row, no spotlight"
    );
    let query = s.to_query();
    for pair in ["q=4", "spot=4", "anchor=3"] {
        assert!(query.split('&').any(|p| p == pair), "the link keeps {pair} while the model is on its way: {query}");
    }
    let (reread, _) = Settings::from_query(&query, Lang::En, &Models::default());
    assert_eq!(reread.to_query(), query, "a reload before the model arrives writes the same link");
    let mut arrived = s;
    arrived.fit(&with_framed());
    let shown = (arrived.lesson().query(), arrived.lesson().spot(), arrived.patterns().anchor());
    assert_eq!(shown, (3, Some(3), 2), "once the model is here the link's tokens are shown");
    assert_eq!(arrived.to_query(), query);
    // A token the model does not have either is dropped once it arrives.
    let (mut beyond, _) = Settings::from_query("model=minilm&text=aaa&spot=9", Lang::En, &Models::default());
    beyond.fit(&with_framed());
    assert_eq!(beyond.lesson().spot(), None);
    assert!(!beyond.to_query().contains("spot="));
    // The learner's own choice replaces what waited.
    let (mut chosen, _) = Settings::from_query(link, Lang::En, &Models::default());
    assert!(chosen.set_spot(None, &Models::default()));
    chosen.fit(&with_framed());
    assert_eq!(chosen.lesson().spot(), None);
}

#[test]
fn the_pronoun_is_a_token_of_its_own_not_a_piece_of_a_word() {
    let tokens = |texts: &[&str]| texts.iter().map(|t| Token { id: 0, text: t.to_string() }).collect::<Vec<_>>();
    assert_eq!(pronoun(&tokens(&["<s>", "▁we", "▁wa", "it", "▁because", "▁It", "</s>"])), Some(5));
    assert_eq!(pronoun(&tokens(&["[CLS]", "wa", "##it", "it", "[SEP]"])), Some(3));
    assert_eq!(pronoun(&tokens(&["<s>", "▁小", "猫", "原因是", "它", "</s>"])), Some(4));
    assert_eq!(pronoun(&tokens(&["<s>", "▁", "因为它", "</s>"])), None, "a piece that swallowed it");
}
