//! In-browser tests (wasm-bindgen-test in headless Chromium): components mounted into a real
//! DOM, and the heatmap's pixels read back from the canvas.
#![cfg(target_arch = "wasm32")]

mod common;

use attention_lab::app::App;
use attention_lab::chart::colormap::{Maps, Scale};
use attention_lab::chart::heatmap::{draw, DrawOptions, HeatmapSpec, Sizing};
use attention_lab::chart::ink::Ink;
use attention_lab::figures::Heatmap;
use attention_lab::i18n::Lang;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh `<div>` in the body for one test to mount into.
fn host() -> HtmlElement {
    let document = document();
    let div = document.create_element("div").unwrap().unchecked_into::<HtmlElement>();
    div.style().set_property("width", "900px").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div
}

/// Tests share one page: start each App from the same URL (the app reads its state from it).
fn reset_url() {
    window().history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("?lang=en")).unwrap();
}

fn small_spec() -> HeatmapSpec {
    HeatmapSpec {
        values: ndarray::arr2(&[[0.0, 0.5, 1.0], [1.0, 0.25, 0.0]]),
        row_labels: vec!["a".into(), "b".into()],
        col_labels: vec!["x".into(), "y".into(), "z".into()],
        scale: Scale::Sequential { min: 0.0, max: 1.0 },
        blocked: Some(ndarray::arr2(&[[false, false, true], [false, false, false]])),
    }
}

/// The RGB of canvas device pixel (x, y).
fn pixel(canvas: &HtmlCanvasElement, x: f64, y: f64) -> [u8; 3] {
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().unchecked_into();
    let d = ctx.get_image_data(x, y, 1.0, 1.0).unwrap().data();
    [d[0], d[1], d[2]]
}

#[wasm_bindgen_test]
fn every_cell_is_drawn_in_its_own_colour() {
    let canvas: HtmlCanvasElement = document().create_element("canvas").unwrap().unchecked_into();
    document().body().unwrap().append_child(&canvas).unwrap();
    let spec = small_spec();
    let ink = Ink {
        text: [0, 0, 0],
        frame: [0, 0, 0],
        accent: [255, 0, 0],
        series: [[0, 0, 0], [0, 0, 0]],
        maps: Maps::Standard,
    };
    let layout =
        draw(&canvas, &spec, 600.0, DrawOptions { ink, sizing: Sizing::DESK, highlight: (None, None) }).expect("draws");
    let dpr = window().device_pixel_ratio().max(1.0);
    for ((r, c), v) in spec.values.indexed_iter() {
        let x = (layout.grid_x + (c as f64 + 0.5) * layout.cell_w) * dpr;
        let y = (layout.grid_y + (r as f64 + 0.5) * layout.cell_h) * dpr;
        let want = if (r, c) == (0, 2) {
            attention_lab::chart::colormap::BLOCKED
        } else {
            spec.scale.color(*v, Maps::Standard)
        };
        assert_eq!(pixel(&canvas, x, y), want, "cell ({r},{c}) value {v}");
    }
}

#[wasm_bindgen_test]
async fn heatmap_component_shows_its_caption_and_draws() {
    let host = host();
    let _mounted = leptos::mount::mount_to(host.clone(), || {
        view! {
            <Heatmap spec=Signal::stored(Some(small_spec())) name=Signal::stored("A".to_string()) testid="t"
                ink=Ink::PLAIN lang=Lang::En />
        }
    });
    leptos::task::tick().await;
    let figure = host.query_selector("[data-testid='t']").unwrap().expect("figure mounted");
    assert_eq!(figure.query_selector("[data-caption]").unwrap().unwrap().text_content().unwrap(), "A: 2 × 3");
    let canvas: HtmlCanvasElement = figure.query_selector("canvas").unwrap().unwrap().unchecked_into();
    assert_eq!(canvas.get_attribute("data-drawn").as_deref(), Some("true"));
    assert!(canvas.width() > 100 && canvas.height() > 80, "canvas {}×{}", canvas.width(), canvas.height());
    host.remove();
}

#[wasm_bindgen_test]
async fn app_mounts_at_the_input_stage_with_the_default_sentence() {
    reset_url();
    let host = host();
    let _mounted = leptos::mount::mount_to(host.clone(), || view! { <App /> });
    leptos::task::tick().await;
    let stage = host.query_selector("[data-testid='stage-input']").unwrap().expect("the input stage is shown first");
    let captions: Vec<String> = (0..3)
        .map(|i| stage.query_selector_all("[data-caption]").unwrap().item(i).unwrap().text_content().unwrap())
        .collect();
    assert!(captions.iter().all(|c| c.ends_with(": 11 × 64")), "{captions:?}");
    assert!(host.query_selector("[data-testid='compute-error']").unwrap().is_none());
    // The saturation lab is a view of its own, not below the lesson's stages.
    assert!(host.query_selector("[data-testid='saturation-lab']").unwrap().is_none());
    host.remove();
}

#[wasm_bindgen_test]
async fn the_saturation_lab_opens_at_the_lessons_d_k_with_numeric_readouts() {
    window()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("?lang=en&view=lab"))
        .unwrap();
    let host = host();
    let _mounted = leptos::mount::mount_to(host.clone(), || view! { <App /> });
    leptos::task::tick().await;
    let text =
        |id: &str| host.query_selector(&format!("[data-testid='{id}']")).unwrap().expect(id).text_content().unwrap();
    // d_model 64 over 4 heads: the lab opens at d_k = 16.
    assert_eq!(text("dk-value"), "16");
    // The typical top weight is the core's, on the lab's own sample: the lesson's 11 tokens at
    // d_k 16, scaled (the default).
    let computed = attention_lab::core::saturation::saturation(11, 16, true, attention_lab::core::saturation::LAB_SEED)
        .expect("the lab's sample");
    assert_eq!(text("readout-max-weight"), format!("{:.3}", computed.summary.median_max_weight));
    assert_eq!(text("readout-score-std"), format!("{:.2}", computed.summary.score_std));
    host.remove();
    reset_url();
}

#[wasm_bindgen_test]
async fn next_button_advances_the_stage() {
    reset_url();
    let host = host();
    let _mounted = leptos::mount::mount_to(host.clone(), || view! { <App /> });
    leptos::task::tick().await;
    let next: HtmlElement = host.query_selector("[data-testid='next-stage']").unwrap().unwrap().unchecked_into();
    next.click();
    leptos::task::tick().await;
    assert!(host.query_selector("[data-testid='stage-projection']").unwrap().is_some());
    assert!(host.query_selector("[data-testid='stage-input']").unwrap().is_none(), "only the active stage is mounted");
    host.remove();
}

/// Counts forward passes with the benchmark build's counter: `scripts/test.sh` runs these
/// tests with `--features bench`.
#[cfg(feature = "bench")]
#[wasm_bindgen_test]
async fn changes_that_do_not_touch_the_trace_compute_nothing() {
    use attention_lab::figures::probe::computations;
    // A sentence of the learner's own: switching the language keeps it (a default one would
    // follow the language, which is a new sentence).
    window()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("?lang=en&text=one%20two%20three"))
        .unwrap();
    let host = host();
    let _mounted = leptos::mount::mount_to(host.clone(), || view! { <App /> });
    leptos::task::tick().await;
    let click = |testid: &str| {
        let el: HtmlElement =
            host.query_selector(&format!("[data-testid='{testid}']")).unwrap().unwrap().unchecked_into();
        el.click();
    };
    let before = computations();
    // Stage, head, language, theme: the picture changes, the numbers do not.
    click("next-stage");
    leptos::task::tick().await;
    click("next-stage");
    leptos::task::tick().await;
    click("head-2");
    leptos::task::tick().await;
    click("lang-switch");
    leptos::task::tick().await;
    click("lang-switch");
    leptos::task::tick().await;
    let theme: web_sys::HtmlSelectElement =
        host.query_selector("[data-testid='theme-switch']").unwrap().unwrap().unchecked_into();
    theme.set_value("contrast");
    theme.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    leptos::task::tick().await;
    assert!(host.query_selector("[data-testid='stage-scores']").unwrap().is_some(), "the clicks took effect");
    assert_eq!(computations(), before, "a change outside the trace recomputed it");
    // A change to the trace computes once.
    let seed: web_sys::HtmlInputElement =
        host.query_selector("[data-testid='seed-input']").unwrap().unwrap().unchecked_into();
    seed.set_value("7");
    seed.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    leptos::task::tick().await;
    assert_eq!(computations(), before + 1);
    host.remove();
}

/// A model is one implementation: the toy model (`common::toy`, known to no file of `src/`),
/// arrived in the pretrained model's place, goes through the lesson's stages of the page and
/// the pretrained model's view of every head (its own module's) as they are.
#[wasm_bindgen_test]
async fn the_lesson_and_the_model_view_show_a_model_they_were_never_told_about() {
    use attention_lab::models::{Arrival, ModelId, Models};
    use attention_lab::pretrained::PretrainedViews;
    use common::toy::Toy;
    let query = "?lang=en&model=minilm&text=the%20cat%20sat%20on%20a%20mat%20.&stage=softmax&layer=2&head=2";
    window().history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(query)).unwrap();
    let toy = std::sync::Arc::new(Toy::new());
    let mut models = Models::default();
    models.arrive(ModelId::Minilm, Arrival::Ready(toy.clone()));
    let host = host();
    let mounted = leptos::mount::mount_to(host.clone(), move || view! { <App models=models /> });
    leptos::task::tick().await;
    let find = |selector: &str| host.query_selector(selector).unwrap();
    let text = |selector: &str| find(selector).unwrap_or_else(|| panic!("{selector}")).text_content().unwrap();
    assert!(find("[data-testid='compute-error']").is_none());
    assert_eq!(find("[data-testid='weights-note']").unwrap().get_attribute("data-weights").as_deref(), Some("toy"));
    // [CLS], seven words, [SEP]; two heads to pick from; the second layer shown.
    assert!(text("[data-testid='heatmap-weights'] [data-caption]").ends_with(": 9 × 9"));
    assert!(find("[data-testid='head-2']").is_some() && find("[data-testid='head-3']").is_none());
    assert!(text("[data-testid='weights-note']").contains("layer 2"), "{}", text("[data-testid='weights-note']"));
    drop(mounted);
    // The view of every head, as its module mounts it, on the same link.
    let query = "?lang=en&model=minilm&text=the%20cat%20sat%20on%20a%20mat%20.&view=model";
    attention_lab::hosted::embed(query);
    let _views = leptos::mount::mount_to(host.clone(), move || view! { <PretrainedViews model=toy /> });
    leptos::task::tick().await;
    let heads = host.query_selector_all("[data-testid^='model-head-']").unwrap().length();
    assert_eq!(heads, 4, "2 layers × 2 heads");
    assert!(find("[data-testid='special-share']").is_some(), "its sentences are framed");
    host.remove();
    reset_url();
}
