//! "Predict first" is judged by the picture it reveals: for every stage's questions, over seeds,
//! masks, scaling, positions (none, sinusoidal, learned, rotary), heads, queries and the four
//! kinds of weights (random, all-MiniLM-L6-v2, multilingual-e5-small, the learner's own), the
//! answer a student reads off the revealed figure (built by the page's own figure code,
//! `ui::specs`, and its reading in words: the largest cell of the row shown among the keys not
//! greyed, the spread the figure prints, the identical rows of X, the shape of Q_h, the largest
//! share the output stage's reading names first) is judged right, and the feedback names the
//! figure's numbers.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use attention_lab::core::bert::{Asset, Bert, E5, MINILM};
use attention_lab::core::model::{Model, Outcome};
use attention_lab::core::train::model::Positions;
use attention_lab::core::train::session::{Session, Setup};
use attention_lab::core::train::yours::YourModel;
use attention_lab::core::Mask;
use attention_lab::i18n::Lang;
use attention_lab::models::{Arrival, ModelId, Models};
use attention_lab::predict::questions::{questions, show, Given, Kind};
use attention_lab::predict::shown::{from_outcome, Shown};
use attention_lab::protocol::ShownLayer;
use attention_lab::reading::stage_reading;
use attention_lab::settings::{Settings, Stage};
use attention_lab::ui::specs::{scores_on, spread_text, weights};
use common::outcome_of;
use proptest::prelude::*;
use std::sync::{Arc, OnceLock};

/// The models a lesson can show: the two pretrained ones, and the learner's in each kind of
/// positions (one registry each, since a registry keeps one model of yours).
fn registries() -> &'static [Models; 3] {
    static MODELS: OnceLock<[Models; 3]> = OnceLock::new();
    MODELS.get_or_init(|| {
        let minilm: Arc<dyn Model> = Arc::new(
            Bert::from_asset(Asset::decode(&common::model_file("minilm-l6.bin")).expect("a file"), &MINILM)
                .expect("a model"),
        );
        let e5: Arc<dyn Model> = Arc::new(
            Bert::from_asset(Asset::decode(&common::model_file("e5-small.bin")).expect("a file"), &E5)
                .expect("a model"),
        );
        [Positions::Learned, Positions::Sinusoidal, Positions::Rotary].map(|positions| {
            let setup = Setup { n_layers: 2, n_heads: 4, kv_heads: Some(2), positions, ..Setup::default() };
            let mut session = Session::new(setup).expect("a setup");
            for _ in 0..20 {
                let _ = session.step();
            }
            let mut models = Models::default();
            models.arrive(ModelId::Minilm, Arrival::Ready(minilm.clone()));
            models.arrive(ModelId::E5, Arrival::Ready(e5.clone()));
            let yours = YourModel::of(&session, &session.example()).expect("a model");
            models.arrive(ModelId::Yours, Arrival::Ready(Arc::new(yours)));
            models
        })
    })
}

/// One state of the lesson, drawn.
#[derive(Debug, Clone)]
struct Drawn {
    /// 0 random, 1 MiniLM, 2 e5, 3 yours; `positions` picks the registry (and, for the
    /// random weights, whether they add positions).
    model: usize,
    positions: usize,
    seed: u64,
    causal: bool,
    scaled: bool,
    layer: usize,
    head: usize,
    query: usize,
    text: usize,
}

const TEXTS: [&str; 4] = [
    "the cat saw the dog and the cat ran",
    "the animal didn't cross the street because it was too tired",
    "小猫没有过马路，因为它太累了。",
    "a b a b",
];

fn drawn() -> impl Strategy<Value = Drawn> {
    (0..4usize, 0..3usize, 0..1000u64, any::<bool>(), any::<bool>(), 0..12usize, 0..12usize, 0..20usize, 0..4usize)
        .prop_map(|(model, positions, seed, causal, scaled, layer, head, query, text)| Drawn {
            model,
            positions,
            seed,
            causal,
            scaled,
            layer,
            head,
            query,
            text,
        })
}

/// The lesson for `d`: its settings as a learner could set them (a refused change is skipped,
/// as the control would refuse it), and what the page computes.
fn lesson(d: &Drawn) -> Option<(Settings, Outcome, &'static Models)> {
    let models = &registries()[d.positions];
    let mut s = Settings::new(Lang::En);
    match d.model {
        0 => {
            let _ = s.change_choice(models, |c| c.set_seed(d.seed));
            let _ = s.change_choice(models, |c| c.set_positional(d.positions != 0));
            let _ = s.set_text(TEXTS[d.text], models);
        }
        1 | 2 => {
            let id = if d.model == 1 { ModelId::Minilm } else { ModelId::E5 };
            if !s.set_model(id, models) {
                return None;
            }
            let _ = s.set_text(TEXTS[d.text], models);
        }
        _ => {
            if !s.set_model(ModelId::Yours, models) {
                return None;
            }
        }
    }
    s.lesson_mut().set_mask(if d.causal { Mask::Causal } else { Mask::None });
    s.lesson_mut().set_scaled(d.scaled);
    let _ = s.set_layer(d.layer, models);
    let _ = s.set_head(d.head, models);
    let _ = s.set_query(d.query, models);
    let o = outcome_of(&s, models).ok()?;
    Some((s, o, models))
}

/// The largest value of `row` among the cells not `blocked` (the figure's grey cells), and where.
fn largest_open(row: &[f32], blocked: &[bool]) -> (usize, f32) {
    (0..row.len()).filter(|j| !blocked[*j]).map(|j| (j, row[j])).fold((0, f32::NEG_INFINITY), |best, (j, v)| {
        if v > best.1 {
            (j, v)
        } else {
            best
        }
    })
}

/// The answer a student reads off the figure `stage` reveals, for its question `index`, and the
/// numbers its feedback must name.
fn read_off(o: &Outcome, s: &Shown, stage: Stage, index: usize, kind: Kind) -> (Given, Vec<String>) {
    let t = o.trace();
    let h = &t.head_traces[s.head];
    let q = s.query;
    let blocked = t.blocked.row(q).to_vec();
    let (labels, kv) = (o.tokens.clone(), o.kv_tokens.clone());
    match (stage, index) {
        (Stage::Input, _) => {
            let x = &t.x;
            let rows: Vec<usize> =
                (0..x.nrows()).filter(|&i| (0..x.nrows()).any(|j| j != i && x.row(i) == x.row(j))).collect();
            let named = rows.iter().map(|r| (r + 1).to_string()).collect();
            (Given::Rows(rows), named)
        }
        (Stage::Projection, _) => {
            let (n, dk) = h.q.dim();
            (Given::Text(format!("{n} × {dk}")), vec![n.to_string(), dk.to_string()])
        }
        (Stage::Scores, _) => {
            let spec = scores_on(h.scores.clone(), &h.scores, &labels, kv, &t.blocked);
            let grey: Vec<bool> = spec.blocked.as_ref().map_or(vec![false; blocked.len()], |b| b.row(q).to_vec());
            let (j, v) = largest_open(&spec.values.row(q).to_vec(), &grey);
            (Given::Key(j), vec![show(v)])
        }
        (Stage::Scaling, _) => {
            let printed = spread_text(Lang::En, &h.scaled_scores, &t.blocked);
            let std = printed.split_whitespace().nth(1).unwrap_or_default().trim_end_matches(',').to_string();
            (Given::Text(std.clone()), vec![std])
        }
        (Stage::Softmax, 0) => {
            let spec = weights(h.weights.clone(), &labels, &kv, &t.blocked);
            let grey = spec.blocked.as_ref().map(|b| b.row(q).to_vec()).unwrap_or_default();
            let (j, v) = largest_open(&spec.values.row(q).to_vec(), &grey);
            (Given::Key(j), vec![show(v)])
        }
        (Stage::Output, _) => {
            // What the stage reveals in words: "the output is w × v[key] + …", the largest
            // share first.
            let (j, v) = largest_open(&h.weights.row(q).to_vec(), &blocked);
            let reading = stage_reading(o, Stage::Output, s.head, q, Lang::En).expect("a reading");
            assert!(
                reading.contains(&format!("is {v:.2} × v[")),
                "the reading leads with the largest share: {reading}"
            );
            (Given::Key(j), vec![show(v)])
        }
        (Stage::Softmax, _) => {
            assert_eq!(kind, Kind::Slider);
            let (_, v) = largest_open(&h.weights.row(q).to_vec(), &blocked);
            (Given::Text(format!("{v}")), vec![show(v)])
        }
        (Stage::MultiHead, _) => {
            let (a, b) = (s.head * t.d_k + 1, (s.head + 1) * t.d_k);
            (Given::Text(format!("{a}–{b}")), vec![a.to_string(), b.to_string()])
        }
    }
}

/// The numbers the questions' module asks from: `o`'s shown layer as it crosses to the module
/// (`protocol::ShownLayer`, its bytes and numbers) and is read back there.
fn handed(o: &Outcome, head: usize, query: usize) -> Shown {
    let (bytes, numbers) = ShownLayer::Outcome(Arc::new(o.clone())).encode();
    let back = ShownLayer::Received { bytes, numbers }.outcome().expect("the shown layer reads back");
    from_outcome(&back, o.layer, head, query).expect("numbers to ask from")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_question_is_judged_by_the_figure_it_reveals(d in drawn()) {
        let Some((settings, o, _)) = lesson(&d) else { return Ok(()) };
        let l = settings.lesson();
        let shown = handed(&o, l.head(), l.query());
        for lang in [Lang::En, Lang::Zh] {
            for stage in Stage::ALL {
                for (index, question) in questions(&shown, stage, lang).into_iter().enumerate() {
                    let (answer, named) = read_off(&o, &shown, stage, index, question.kind);
                    let verdict = question.judge(&answer, lang).expect("a readable answer");
                    prop_assert!(verdict.correct, "{d:?} {stage:?} {index}: {answer:?} read off the figure was judged wrong: {}", verdict.feedback);
                    for number in named {
                        prop_assert!(verdict.feedback.contains(&number), "{d:?} {stage:?} {index}: the feedback does not name {number}: {}", verdict.feedback);
                    }
                    // Under a mask that hides keys from this query, the question says so.
                    if question.kind == Kind::ClickKey && shown.blocked.row(shown.query).iter().any(|b| *b) {
                        let says = if lang == Lang::En { "keys it may see" } else { "能看到的键" };
                        prop_assert!(question.prompt.contains(says), "{d:?} {stage:?}: {}", question.prompt);
                    }
                }
            }
        }
    }
}

/// A rotary model's input question says that X holds no positions, and its feedback says why
/// repeated tokens share a row; the learner's own model, not a stand-in.
#[test]
fn a_rotary_model_is_asked_about_x_without_positions() {
    let models = &registries()[2];
    let mut s = Settings::new(Lang::En);
    assert!(s.set_model(ModelId::Yours, models));
    s.lesson_mut().set_mask(Mask::Causal);
    let o = outcome_of(&s, models).expect("an outcome");
    let shown = handed(&o, 0, 0);
    assert_eq!(shown.positions, attention_lab::predict::shown::Positions::Rotary);
    for lang in [Lang::En, Lang::Zh] {
        let q = &questions(&shown, Stage::Input, lang)[0];
        assert!(q.prompt.contains("RoPE"), "{}", q.prompt);
        let (answer, _) = read_off(&o, &shown, Stage::Input, 0, q.kind);
        let v = q.judge(&answer, lang).expect("judged");
        assert!(v.correct);
        let Given::Rows(rows) = answer else { panic!("rows") };
        if !rows.is_empty() {
            assert!(v.feedback.contains("RoPE") && !v.feedback.contains("no positional encoding"), "{}", v.feedback);
        }
    }
}
