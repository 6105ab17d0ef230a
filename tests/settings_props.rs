//! Every link the page writes reloads to itself, for every model: any sequence of changes
//! through the settings' setters (each accepted or refused as a control would find it) gives
//! settings whose link, read again by a page whose models have not arrived yet (stand-ins),
//! then fitted to the models as they arrive, is the same link; and the same when the models
//! are already there (the browser kept them). Found by the end-to-end random walk once: a
//! link naming your 2-layer model at layer 4 reloaded as layer 2.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use attention_lab::core::bert::{Asset, Bert, MINILM};
use attention_lab::core::train::session::{Session, Setup};
use attention_lab::core::train::yours::YourModel;
use attention_lab::core::Mask;
use attention_lab::i18n::Lang;
use attention_lab::models::{Arrival, ModelId, Models};
use attention_lab::settings::{Settings, Stage, Theme, View};
use common::toy::{Toy, SENTENCE};
use proptest::prelude::*;
use std::sync::{Arc, OnceLock};

/// The pretrained model from its file (`scripts/model.sh` makes it).
fn pretrained() -> Arc<Bert> {
    static MODEL: OnceLock<Arc<Bert>> = OnceLock::new();
    Arc::clone(MODEL.get_or_init(|| {
        let bytes = common::model_file("minilm-l6.bin");
        Arc::new(Bert::from_asset(Asset::decode(&bytes).expect("a model file"), &MINILM).expect("a whole model"))
    }))
}

/// A model of yours: `layers` layers, with or without MLPs, after a few steps.
fn yours(layers: usize, mlp: bool) -> Arc<YourModel> {
    let mut session = Session::new(Setup { n_layers: layers, mlp, ..Setup::default() }).expect("a setup");
    for _ in 0..3 {
        let _ = session.step();
    }
    Arc::new(YourModel::of(&session, &session.example()).expect("a model"))
}

/// Every model arrived: the pretrained one (the real one, or the toy in its place) and yours.
fn arrived(toy: bool, yours: Arc<YourModel>) -> Models {
    let mut models = Models::default();
    let viewed: Arc<dyn attention_lab::core::model::Model> = if toy { Arc::new(Toy::new()) } else { pretrained() };
    models.arrive(ModelId::Minilm, Arrival::Ready(viewed));
    models.arrive(ModelId::Yours, Arrival::Ready(yours));
    models
}

/// One change a learner (or a link) can make, with what it asks for.
#[derive(Debug, Clone)]
enum Change {
    Model(usize),
    Text(usize),
    KvText(usize),
    Cross(bool),
    DModel(usize),
    Heads(usize),
    Seed(u64),
    Positional(bool),
    Causal(bool),
    Scaled(bool),
    Temperature(f64),
    Stage(usize),
    View(usize),
    Layer(usize),
    Head(usize),
    Query(usize),
    Spot(Option<usize>),
    Anchor(usize),
    LabDk(f64),
    VarDk(f64),
    VarSamples(usize),
    CostN(u32),
    Tile(usize),
    Present(bool),
    Theme(usize),
    Language,
}

/// Sentences for every model: its own tokens, others', too long, empty.
const TEXTS: [&str; 9] = [
    "the animal didn't cross the street because it was too tired",
    "1 2 | 2 1",
    "3 1 4 1 5 9 2 6 | 6 2 9",
    SENTENCE,
    "小猫没有过马路，因为它太累了。",
    "",
    "a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m",
    "Le chat est fatigué",
    "one",
];

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        3 => (0usize..3).prop_map(Change::Model),
        4 => (0..TEXTS.len()).prop_map(Change::Text),
        1 => (0..TEXTS.len()).prop_map(Change::KvText),
        1 => any::<bool>().prop_map(Change::Cross),
        1 => prop::sample::select(vec![0usize, 8, 16, 32, 48, 64, 128, 256, 512]).prop_map(Change::DModel),
        1 => (0usize..20).prop_map(Change::Heads),
        1 => prop_oneof![0u64..100, Just(999_999_999), Just(1_000_000_000)].prop_map(Change::Seed),
        1 => any::<bool>().prop_map(Change::Positional),
        1 => any::<bool>().prop_map(Change::Causal),
        1 => any::<bool>().prop_map(Change::Scaled),
        1 => (-1.0f64..25.0).prop_map(Change::Temperature),
        1 => (0usize..9).prop_map(Change::Stage),
        1 => (0usize..16).prop_map(Change::View),
        3 => (0usize..8).prop_map(Change::Layer),
        3 => (0usize..16).prop_map(Change::Head),
        2 => (0usize..70).prop_map(Change::Query),
        1 => prop::option::of(0usize..70).prop_map(Change::Spot),
        1 => (0usize..70).prop_map(Change::Anchor),
        1 => (0.5f64..2000.0).prop_map(Change::LabDk),
        1 => (0.5f64..2000.0).prop_map(Change::VarDk),
        1 => prop::sample::select(vec![7usize, 100, 3000, 10_000]).prop_map(Change::VarSamples),
        1 => (0u32..20).prop_map(Change::CostN),
        1 => (0usize..20).prop_map(Change::Tile),
        1 => any::<bool>().prop_map(Change::Present),
        1 => (0usize..4).prop_map(Change::Theme),
        1 => Just(Change::Language),
    ]
}

/// Make `change` through the setters, as the page would with `models`.
fn apply(s: &mut Settings, change: &Change, models: &Models) {
    match *change {
        Change::Model(i) => drop(s.set_model(ModelId::ALL[i], models)),
        Change::Text(i) => drop(s.set_text(TEXTS[i], models)),
        Change::KvText(i) => drop(s.set_kv_text(TEXTS[i], models)),
        Change::Cross(on) => s.lesson_mut().set_cross(on),
        Change::DModel(d) => drop(s.change_choice(models, |m| m.set_d_model(d))),
        Change::Heads(h) => drop(s.change_choice(models, |m| m.set_n_heads(h))),
        Change::Seed(x) => drop(s.change_choice(models, |m| m.set_seed(x))),
        Change::Positional(on) => drop(s.change_choice(models, |m| m.set_positional(on))),
        Change::Causal(on) => s.lesson_mut().set_mask(if on { Mask::Causal } else { Mask::None }),
        Change::Scaled(on) => s.lesson_mut().set_scaled(on),
        Change::Temperature(t) => drop(s.lesson_mut().set_temperature(t)),
        Change::Stage(i) => {
            if let Some(st) = Stage::ALL.get(i) {
                s.lesson_mut().set_stage(*st);
            }
        }
        Change::View(i) => {
            if let Some(v) = View::ALL.get(i) {
                s.set_view(*v);
            }
        }
        Change::Layer(l) => drop(s.set_layer(l, models)),
        Change::Head(h) => drop(s.set_head(h, models)),
        Change::Query(q) => drop(s.set_query(q, models)),
        Change::Spot(x) => drop(s.set_spot(x, models)),
        Change::Anchor(a) => drop(s.set_anchor(a, models)),
        Change::LabDk(d) => drop(s.lab_mut().set_dk(d)),
        Change::VarDk(d) => drop(s.variance_mut().set_dk(d)),
        Change::VarSamples(n) => drop(s.variance_mut().set_samples(n)),
        Change::CostN(e) => drop(s.cost_mut().set_log_n(e)),
        Change::Tile(t) => drop(s.cost_mut().set_tile(t)),
        Change::Present(on) => s.classroom_mut().set_present(on),
        Change::Theme(i) => s.classroom_mut().set_theme(Theme::ALL[i]),
        Change::Language => s.switch_language(models),
    }
}

/// The link `s` writes reloads to itself: before the models arrive, once they do, and when
/// they are there already.
fn reloads_to_itself(s: &Settings, models: &Models) -> Result<(), TestCaseError> {
    let link = s.to_query();
    let (mut waiting, ignored) = Settings::from_query(&link, Lang::En, &Models::default());
    prop_assert!(ignored.is_empty(), "{link}: a page whose models are on their way ignored {ignored:?}");
    waiting.fit(models);
    prop_assert_eq!(waiting.to_query(), link.clone(), "once the models arrived");
    let (kept, ignored) = Settings::from_query(&link, Lang::En, models);
    prop_assert!(ignored.is_empty(), "{link}: with the models kept, {ignored:?} ignored");
    prop_assert_eq!(kept.to_query(), link);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn any_accepted_changes_give_a_link_that_reloads_to_itself(
        changes in prop::collection::vec(change(), 0..40),
        toy in any::<bool>(),
        (layers, mlp) in ((1usize..=2), any::<bool>()),
    ) {
        let models = arrived(toy, yours(layers, mlp));
        let mut s = Settings::new(Lang::En);
        for c in &changes {
            apply(&mut s, c, &models);
            reloads_to_itself(&s, &models)?;
        }
    }
}
