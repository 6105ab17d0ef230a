//! Real attention in Chinese: multilingual-e5-small chosen in the Chinese interface (where it
//! is the pretrained model offered first), downloaded, its SentencePiece pieces on the axes,
//! every layer in the export, and the subject-finding head measured as the native tests do.

use crate::browser::Browser;
use crate::server::Site;
use serde_json::Value;
use std::time::{Duration, Instant};

/// Wait until the stages show model `tag` (the note says so), up to `secs`.
async fn shown(b: &Browser, tag: &str, secs: u64) {
    let started = Instant::now();
    loop {
        let note =
            "const n = document.querySelector(`[data-testid='weights-note']`); return n ? n.dataset.weights : '';";
        if b.js(note, vec![]).await == tag {
            return;
        }
        let error = "const e = document.querySelector(`[data-testid='model-error']`); return e ? e.textContent : '';";
        assert_eq!(b.js(error, vec![]).await, "", "the model failed to load");
        assert!(started.elapsed() < Duration::from_secs(secs), "{tag} not shown within {secs} s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn token_strip(b: &Browser) -> Vec<String> {
    let tokens =
        b.js("return [...document.querySelectorAll('.token-strip__token')].map(t => t.textContent);", vec![]).await;
    serde_json::from_value(tokens).unwrap_or_default()
}

pub async fn a_chinese_sentence_through_the_multilingual_model_layer_by_layer() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    let sentence = "动物没有穿过马路，原因是它太累了。";
    b.open_page(&site.url(&format!("?lang=zh&stage=softmax&text={}", urlencode(sentence)))).await;
    b.wait_for("[data-testid='stage-softmax']").await;
    let options = b.js("return [...document.querySelectorAll('#weights option')].map(o => o.value);", vec![]).await;
    assert_eq!(
        options,
        serde_json::json!(["random", "e5", "minilm", "yours"]),
        "in Chinese the model that reads it first"
    );
    b.choose("weights-switch", "e5").await;
    shown(&b, "e5", 90).await;
    let tokens = token_strip(&b).await;
    assert_eq!(tokens.first().map(String::as_str), Some("<s>"));
    assert_eq!(tokens.last().map(String::as_str), Some("</s>"));
    for piece in ["动物", "它", "马", "路"] {
        assert!(tokens.iter().any(|t| t == piece), "{piece} in {tokens:?}");
    }
    let note = b.text_of("weights-note").await;
    assert!(note.contains("SentencePiece") && note.contains("马 | 路") && !note.contains("[UNK]"), "{note}");
    // On the input stage, no word of "every Chinese character a token": this model's note says how it cuts them.
    b.click("goto-input").await;
    b.wait_for("[data-testid='stage-input']").await;
    assert_eq!(b.js("return document.querySelector(`[data-testid='tokens-cjk']`) === null;", vec![]).await, true);
    b.click("goto-softmax").await;
    b.wait_for("[data-testid='stage-softmax']").await;
    b.choose("layer-select", "9").await;
    b.click("head-9").await;
    let search = b.address().await;
    assert!(search.as_str().is_some_and(|s| s.contains("model=e5") && s.contains("layer=9")), "{search}");

    // The export: every layer; layer 9 head 9 gives 它 about half its weight on 动物.
    b.catch_downloads().await;
    b.click("export-json").await;
    let files = b.downloads().await;
    let trace: Value = serde_json::from_str(files[0]["text"].as_str().unwrap_or_default()).expect("the export is JSON");
    assert_eq!(trace["model"], "multilingual-e5-small");
    let exported: Vec<String> = serde_json::from_value(trace["tokens"].clone()).expect("tokens");
    assert_eq!(exported, tokens);
    let layers = trace["layers"].as_array().expect("layers");
    assert_eq!(layers.len(), 12);
    let head: Vec<Vec<f64>> = serde_json::from_value(layers[8]["weights"][8].clone()).expect("heads × n × n");
    let at = |piece: &str| tokens.iter().position(|t| t == piece).unwrap_or_default();
    let weight = head[at("它")][at("动物")];
    assert!((0.45..0.53).contains(&weight), "它 → 动物 {weight}");
    b.assert_no_panic().await;

    // A piece that joins 因为 and 它: the note says so and offers the phrasing that separates them.
    b.set_value("token-input", "动物没有穿过马路，因为它太累了。").await;
    let started = Instant::now();
    while !b.text_of("weights-note").await.contains("原因是它") {
        assert!(started.elapsed() < Duration::from_secs(10), "no word on 因为它: {}", b.text_of("weights-note").await);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(token_strip(&b).await.iter().any(|t| t == "因为它"));
    // In English the options come in another order; the switch still shows the model chosen.
    b.click("lang-switch").await;
    let started = Instant::now();
    while b.js("return document.querySelector('#weights option').parentElement.options[1].value;", vec![]).await
        != "minilm"
    {
        assert!(started.elapsed() < Duration::from_secs(5), "the options did not follow the language");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(b.js("return document.querySelector('#weights').value;", vec![]).await, "e5");
    b.assert_no_panic().await;
    b.close().await;
}

/// The numbers the page's elements carry under `selector`, attribute by attribute.
async fn numbers(b: &Browser, selector: &str, attributes: &[&str]) -> Vec<Vec<f64>> {
    let script = "return [...document.querySelectorAll(arguments[0])].map(c => arguments[1].map(a => Number(c.getAttribute(a))));";
    let found = b.js(script, vec![selector.into(), serde_json::json!(attributes)]).await;
    serde_json::from_value(found).unwrap_or_default()
}

pub async fn the_chinese_class_sees_all_144_heads_and_the_case_study_in_chinese() {
    let site = Site::start("").await;
    // On a projector: the grid of 12 × 12 heads fills the screen.
    let b = Browser::open(1920, 1080).await;
    // Random weights in the lesson: the pretrained views show the model that reads Chinese.
    b.open_page(&site.url("?lang=zh&view=model&present=1")).await;
    let started = Instant::now();
    while b.js("return document.querySelectorAll('.model-grid canvas[data-drawn]').length;", vec![]).await != 144 {
        assert!(started.elapsed() < Duration::from_secs(90), "the 144 heads were not drawn");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let loading = "return document.querySelector(`[data-testid='model-progress']`) !== null;";
    assert_eq!(b.js(loading, vec![]).await, false, "the load's progress is gone once the model is here");
    let intro = b.text_of("model-intro").await;
    assert!(intro.contains("multilingual-e5-small") && intro.contains("1–12"), "{intro}");
    let grid = "const r = document.querySelector(`[data-testid='model-grid']`).getBoundingClientRect();
                return [r.height, innerHeight];";
    let [height, screen]: [f64; 2] = serde_json::from_value(b.js(grid, vec![]).await).expect("the grid's box");
    assert!(height > 0.8 * screen && height <= screen, "the grid fills the screen's height: {height} of {screen}");
    let thumb =
        b.js("return document.querySelector('.model-grid canvas').getBoundingClientRect().width;", vec![]).await;
    assert!(thumb.as_f64().unwrap_or_default() > 56.0, "thumbnails grow on a projector: {thumb}");
    // The sinks, as measured: both ends named, and the layer from which they are one.
    let share = b.text_of("special-share").await;
    assert!(share.contains("<s> / </s>") && share.contains("L12"), "{share}");
    let merged = b.text_of("special-merged").await;
    assert!(merged.contains("第 8 层"), "{merged}");
    // A head opens in the lesson on this model.
    b.click("model-head-9-9").await;
    b.wait_for("[data-testid='stage-softmax']").await;
    shown(&b, "e5", 60).await;
    assert!(b.address().await.as_str().is_some_and(|s| s.contains("model=e5") && s.contains("layer=9")));

    // The case study starts from the Chinese pair, 马路 summed over its pieces.
    b.open_page(&site.url("?lang=zh&model=e5&view=coref")).await;
    b.wait_for("[data-testid='coref-cell']").await;
    let attributes = ["data-layer", "data-head", "data-animal", "data-street", "data-animal-2", "data-street-2"];
    let cells = numbers(&b, "[data-testid='coref-cell']", &attributes).await;
    assert_eq!(cells.len(), 144);
    let l9h9 = cells.iter().find(|c| c[0] == 9.0 && c[1] == 9.0).expect("layer 9, head 9");
    assert!((0.43..0.55).contains(&l9h9[2]) && (0.33..0.44).contains(&l9h9[4]), "它 → 动物 {l9h9:?}");
    assert!(l9h9[2] > l9h9[3] && l9h9[4] > l9h9[5], "no flip: {l9h9:?}");
    let findings = b.text_of("coref-findings").await;
    for said in ["马 | 路", "第 9 层第 9 个头", "小明", "主语"] {
        assert!(findings.contains(said), "{said} in {findings}");
    }
    assert!(b.text_of("coref-chinese").await.contains("原因是"));
    b.assert_no_panic().await;
    b.close().await;
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

/// On a device that reports 2 GB of memory (as a small Chromebook's Chromium does), choosing e5
/// warns before anything is downloaded and keeps the weights shown; the same choice again then
/// downloads it. A device that reports more is not asked.
pub async fn on_a_device_with_little_memory_e5_warns_before_it_downloads() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=zh&stage=softmax")).await;
    b.wait_for("[data-testid='stage-softmax']").await;
    let reports =
        |gb: u32| format!("Object.defineProperty(navigator, 'deviceMemory', {{ value: {gb}, configurable: true }});");
    b.js(&reports(2), vec![]).await;
    b.choose("weights-switch", "e5").await;
    let warning = b.text_of("weights-error").await;
    assert!(warning.contains("2 GB") && warning.contains("27 MB") && warning.contains("再选一次"), "{warning}");
    b.shot("low-memory-warning-zh").await;
    let state = "return [document.querySelector('#weights').value, document.querySelector(`[data-testid='weights-note']`)?.dataset.weights ?? '', document.querySelector('#model-status')?.textContent ?? ''];";
    let [weights, note, status] = serde_json::from_value::<[String; 3]>(b.js(state, vec![]).await).unwrap_or_default();
    assert!(weights == "random" && note != "e5", "nothing changes before the learner agrees: {weights}, {note}");
    assert!(status.trim().is_empty(), "nothing downloads before the learner agrees: {status}");
    b.choose("weights-switch", "e5").await;
    shown(&b, "e5", 90).await;
    assert_eq!(b.text_of("weights-error").await, "", "nothing left to say once it is chosen");

    // 8 GB: MiniLM downloads at once.
    b.js(&reports(8), vec![]).await;
    b.choose("weights-switch", "minilm").await;
    shown(&b, "minilm", 90).await;
    b.assert_no_panic().await;
    b.close().await;
}
