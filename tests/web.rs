//! In-browser tests (wasm-bindgen-test in headless Chromium): components mounted into a real
//! DOM, and the heatmap's pixels read back from the canvas.
#![cfg(target_arch = "wasm32")]

use attention_lab::app::{App, Heatmap};
use attention_lab::chart::colormap::Scale;
use attention_lab::chart::heatmap::{draw, DrawOptions, HeatmapSpec};
use attention_lab::chart::ink::Ink;
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
    let ink = Ink { text: [0, 0, 0], frame: [0, 0, 0], accent: [255, 0, 0], series: [[0, 0, 0], [0, 0, 0]] };
    let layout =
        draw(&canvas, &spec, 600.0, DrawOptions { ink, max_cell: 40.0, highlight: (None, None) }).expect("draws");
    let dpr = window().device_pixel_ratio().max(1.0);
    for ((r, c), v) in spec.values.indexed_iter() {
        let x = (layout.grid_x + (c as f64 + 0.5) * layout.cell_w) * dpr;
        let y = (layout.grid_y + (r as f64 + 0.5) * layout.cell_h) * dpr;
        let want = if (r, c) == (0, 2) { attention_lab::chart::colormap::BLOCKED } else { spec.scale.color(*v) };
        assert_eq!(pixel(&canvas, x, y), want, "cell ({r},{c}) value {v}");
    }
}

#[wasm_bindgen_test]
async fn heatmap_component_shows_its_caption_and_draws() {
    let host = host();
    let _mounted = leptos::mount::mount_to(host.clone(), || {
        view! { <Heatmap spec=Signal::stored(Some(small_spec())) name=Signal::stored("A".to_string()) testid="t" /> }
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
    let _mounted = leptos::mount::mount_to(host.clone(), App);
    leptos::task::tick().await;
    let stage = host.query_selector("[data-testid='stage-input']").unwrap().expect("the input stage is shown first");
    let captions: Vec<String> = (0..3)
        .map(|i| stage.query_selector_all("[data-caption]").unwrap().item(i).unwrap().text_content().unwrap())
        .collect();
    assert!(captions.iter().all(|c| c.ends_with(": 11 × 64")), "{captions:?}");
    assert!(host.query_selector("[data-testid='compute-error']").unwrap().is_none());
    // The lab's readouts are numbers.
    let max_weight =
        host.query_selector("[data-testid='readout-max-weight']").unwrap().unwrap().text_content().unwrap();
    assert!(max_weight.parse::<f32>().is_ok_and(|v| (0.0..=1.0).contains(&v)), "{max_weight:?}");
    host.remove();
}

#[wasm_bindgen_test]
async fn next_button_advances_the_stage() {
    reset_url();
    let host = host();
    let _mounted = leptos::mount::mount_to(host.clone(), App);
    leptos::task::tick().await;
    let next: HtmlElement = host.query_selector("[data-testid='next-stage']").unwrap().unwrap().unchecked_into();
    next.click();
    leptos::task::tick().await;
    assert!(host.query_selector("[data-testid='stage-projection']").unwrap().is_some());
    assert!(host.query_selector("[data-testid='stage-input']").unwrap().is_none(), "only the active stage is mounted");
    host.remove();
}
