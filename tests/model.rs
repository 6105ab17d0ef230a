//! The trained model against its references: the tokenizer against Hugging Face's on 74
//! strings, and the int8 forward pass against ONNX Runtime running the fp32 model
//! (`tests/reference/make_model_fixtures.py`), with the drift that int8 weights cause
//! measured and bounded, plus the three published sentence similarities.
//!
//! Needs the model file that `scripts/model.sh` makes (the test command's set-up runs it).

mod common;
use attention_lab::core::bert::{Asset, Bert, BertFrame, Tokenizer, MINILM};
use attention_lab::core::model::{similarity, Encoding, Input, Model, RunOptions};
use serde::Deserialize;
use std::sync::OnceLock;

fn asset() -> Asset {
    let bytes = common::model_file("minilm-l6.bin");
    Asset::decode(&bytes).expect("a model file")
}

fn model() -> &'static Bert {
    static MODEL: OnceLock<Bert> = OnceLock::new();
    MODEL.get_or_init(|| Bert::from_asset(asset(), &MINILM).expect("a whole model"))
}

#[test]
fn the_pages_frame_shows_the_very_weights_and_tokens_the_worker_computes_with() {
    // The page keeps only a frame (shape, tokenizer, projections; feature `frames`) and the
    // forward worker the whole model, int8 weights kept as int8: the heatmaps of W_Q … W_O and
    // the tokens the page shows must be the worker's, number for number.
    // The page reads only the frame's entries of the file, the rest stepped over unread.
    let bytes = common::model_file("minilm-l6.bin");
    let part = Asset::decode_from(bytes.as_slice(), BertFrame::reads).expect("the frame's entries");
    let whole = asset().entries.len();
    assert!(part.entries.len() < whole / 2, "{} of {whole} entries", part.entries.len());
    let frame = BertFrame::from_asset(part, &MINILM).expect("a frame");
    assert_eq!(frame.shape(), model().shape());
    for (f, m) in frame.layer_projections().iter().zip(model().layer_projections()) {
        assert_eq!(f.matrices(), m.matrices());
        assert_eq!(f.biases, m.biases);
    }
    assert_eq!(frame.layer_projections().len(), 6);
    let text = "The animal didn't cross the street because it was too tired 小猫";
    assert_eq!(frame.tokenize(text).ok(), model().tokenize(text).ok());
    let input = Input { text: text.into(), kv_text: None };
    assert!(frame.forward(&input, &RunOptions::default()).is_err(), "the frame computes nothing");
}

/// The model on `text`, as trained (no mask, ÷√d_k, T = 1).
fn forward(text: &str) -> Encoding {
    model().forward(&Input { text: text.into(), kv_text: None }, &RunOptions::default()).expect("forward")
}

fn fixture<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    let path = format!("{}/tests/fixtures/model/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("the fixture")).expect("fixture JSON")
}

#[derive(Deserialize)]
struct TokenCase {
    text: String,
    tokens: Vec<String>,
    ids: Vec<u32>,
}

#[test]
fn the_tokenizer_equals_the_reference_on_every_fixture_string() {
    let cases: Vec<TokenCase> = fixture("wordpiece.json");
    assert!(cases.len() >= 60, "at least 60 strings");
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let Tokenizer::WordPiece(vocab) = &model().tokenizer else { panic!("WordPiece") };
            let pieces = vocab.encode(&case.text);
            let tokens: Vec<&str> = pieces.iter().map(|p| p.text.as_str()).collect();
            let ids: Vec<u32> = pieces.iter().map(|p| p.id).collect();
            (tokens != case.tokens || ids != case.ids)
                .then(|| format!("{:?}: got {tokens:?}, reference {:?}", case.text, case.tokens))
        })
        .collect();
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

#[derive(Deserialize)]
struct Sentence {
    text: String,
    tokens: Vec<String>,
    /// [layer][head][row][col]
    attention: Vec<Vec<Vec<Vec<f32>>>>,
    pooled: Vec<f32>,
}

#[derive(Deserialize)]
struct Reference {
    sentences: Vec<Sentence>,
}

/// The tolerances chosen from the measured int8 drift (see the README): the largest
/// difference of any attention weight, their mean difference, and the pooled embedding's
/// cosine to the fp32 one.
const MAX_WEIGHT_DRIFT: f32 = 0.08;
const MEAN_WEIGHT_DRIFT: f32 = 0.003;
const MIN_POOLED_COSINE: f32 = 0.995;

#[test]
fn the_int8_forward_pass_stays_within_the_stated_drift_of_onnx_runtime_fp32() {
    let reference: Reference = fixture("minilm.json");
    let (mut worst, mut total, mut count) = (0.0f32, 0.0f64, 0usize);
    for s in &reference.sentences {
        let enc = forward(&s.text);
        let tokens: Vec<&str> = enc.tokens.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(tokens, s.tokens, "tokens of {:?}", s.text);
        assert_eq!(enc.layers.len(), 6);
        for (layer, want) in enc.layers.iter().zip(&s.attention) {
            assert_eq!(layer.trace.n_heads(), 12);
            for (head, want) in layer.trace.head_traces.iter().zip(want) {
                for (row, want) in head.weights.rows().into_iter().zip(want) {
                    for (got, want) in row.iter().zip(want) {
                        let d = (got - want).abs();
                        worst = worst.max(d);
                        total += f64::from(d);
                        count += 1;
                    }
                }
            }
        }
        let cosine: f32 = enc.pooled().iter().zip(&s.pooled).map(|(a, b)| a * b).sum();
        assert!(cosine >= MIN_POOLED_COSINE, "{:?}: pooled cosine to fp32 {cosine}", s.text);
    }
    let mean = (total / count as f64) as f32;
    println!("int8 drift of the attention weights: max {worst:.4}, mean {mean:.5} over {count} weights");
    assert!(worst <= MAX_WEIGHT_DRIFT, "max drift {worst}");
    assert!(mean <= MEAN_WEIGHT_DRIFT, "mean drift {mean}");
}

#[test]
fn the_published_sentence_similarities_come_out_within_a_hundredth() {
    let [a, b, c] = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."].map(forward);
    for (got, want) in [(similarity(&a, &b), 0.6660), (similarity(&a, &c), 0.1046), (similarity(&b, &c), 0.1411)] {
        assert!((got - want).abs() <= 0.01, "similarity {got:.4}, published {want}");
    }
}

#[test]
fn the_case_study_measures_every_head_and_layer_one_keeps_the_order() {
    use attention_lab::core::study::case_study;
    let sentences = [
        "The animal didn't cross the street because it was too tired",
        "The animal didn't cross the street because it was too wide",
    ];
    let study = case_study(model(), sentences, ["it", "animal", "street"], 5).expect("the study");
    assert_eq!(study.weights.len(), 72);
    assert!(study.one_word_apart);
    // In layer 1 the scores from "it" to the shared tokens are equal in both sentences: the
    // ratio of the two weights must be the same (only the softmax's denominator changed).
    for w in study.weights.iter().filter(|w| w.layer == 0 && w.first.1 > 1e-4) {
        let (r1, r2) = (w.first.0 / w.first.1, w.second.0 / w.second.1);
        assert!((r1 - r2).abs() <= 1e-3 * r1.max(1.0), "layer 1 head {}: {r1} vs {r2}", w.head + 1);
        assert!(!w.flips());
    }
    let reference: Reference = fixture("minilm.json");
    // The same weights as ONNX Runtime reports for sentence 1, to the int8 drift.
    // "it", "animal" and "street" are one piece each in this vocabulary.
    let it = &study.positions[0];
    assert!([&it.query, &it.a, &it.b].iter().all(|r| r.len() == 1), "one piece per word: {it:?}");
    for w in &study.weights {
        let row = &reference.sentences[0].attention[w.layer][w.head][it.query.start];
        assert!(
            (w.first.0 - row[it.a.start]).abs() <= MAX_WEIGHT_DRIFT
                && (w.first.1 - row[it.b.start]).abs() <= MAX_WEIGHT_DRIFT
        );
    }
    assert!(study.findings.movers.len() == 5);
}

#[test]
fn the_same_word_enters_two_sentences_identically_and_leaves_them_different() {
    // The model view's default pair: "bank" at the same position in both.
    let (a, b) = (forward("he sat by the river bank"), forward("he put cash in the bank"));
    let w = attention_lab::core::depth::same_word(&a, &b, "bank").expect("bank in both");
    assert_eq!(w.positions, (6, 6));
    assert!((w.input - 1.0).abs() < 1e-5, "same token, position and segment: {}", w.input);
    let last = *w.layers.last().expect("six layers");
    assert!(last < 0.9, "the contexts pull the two rows apart: {last}");
}

/// The sweep's readouts measure what they name: a cell is the effect of that head off alone;
/// the weight readout is the fall of the layer's mean weight from one token to another (zero
/// for every head of that layer and later ones, which are switched off after their softmax);
/// the similarity readout is the fall of the two sentences' cosine.
#[test]
fn the_sweeps_readouts_measure_what_they_name() {
    use attention_lab::core::ablate::{Ablation, Replacement};
    use attention_lab::core::intervene::{change, Experiment, Readout};
    let m = model();
    let (text, other) = ("the animal didn't cross the street because it was too tired", "a dog walked home");
    let options = RunOptions::default();
    let final_change = Experiment::for_readout(m, text, &options, None, Readout::Final).expect("runs");
    let at = |word: &str| final_change.intact.tokens.iter().position(|t| t.text == word).expect("the word");
    let (it, animal) = (at("it"), at("animal"));
    let weight = Readout::Weight { layer: 4, from: it, to: animal };
    let grid = final_change.sweep(m, Replacement::Zero, weight, |_, _, _| ()).expect("a sweep");
    for (l, h) in [(0, 2), (3, 5), (5, 11)] {
        let off = final_change.off(m, &Ablation::one(l, h, Replacement::Zero)).expect("runs");
        let mean =
            |e: &Encoding| e.layers[4].trace.head_traces.iter().map(|h| h.weights[[it, animal]]).sum::<f32>() / 12.0;
        assert_eq!(grid[l][h], mean(&final_change.intact) - mean(&off.run), "{l}.{h}");
        assert_eq!(
            final_change.effect(&off, Readout::Final),
            change(&final_change.intact, &off.run).mean_final_change()
        );
    }
    assert!(grid[4..].iter().flatten().all(|&e| e == 0.0), "heads of layer 5 and later leave layer 5's weights alone");
    assert!(grid[..4].iter().flatten().any(|&e| e.abs() > 1e-3), "earlier heads move it");
    let pair = Experiment::for_readout(m, text, &options, Some(other), Readout::Similarity).expect("runs");
    let intact = pair.similarity().expect("a second sentence");
    assert_eq!(intact, similarity(&forward(text), &forward(other)));
    let off = pair.off(m, &Ablation::one(0, 0, Replacement::Mean)).expect("runs");
    assert_eq!(pair.effect(&off, Readout::Similarity), intact - off.similarity().expect("a second sentence"));
    assert!(final_change.effect(&off, Readout::Similarity).is_nan(), "no second sentence, no similarity");
}

/// The head a lesson on this model opens on is the one that sends "it" the most to "animal"
/// in the default sentence: something to talk about from the first screen.
#[test]
fn the_talking_head_sends_it_to_animal_the_most() {
    let enc = forward("the animal didn't cross the street because it was too tired");
    let at = |word: &str| enc.tokens.iter().position(|t| t.text == word).expect("the word");
    let (it, animal) = (at("it"), at("animal"));
    let weight = |(l, h): (usize, usize)| enc.layers[l].trace.head_traces[h].weights[[it, animal]];
    let best =
        (0..6)
            .flat_map(|l| (0..12).map(move |h| (l, h)))
            .fold((0, 0), |b, lh| if weight(lh) > weight(b) { lh } else { b });
    assert_eq!(best, MINILM.talking_head, "{}", weight(best));
    assert!(weight(best) > 0.6);
}
