//! The lesson as a student and an instructor use it: stepping, typing, the saturation lab,
//! the language switch, bad input, and a reload that keeps everything.

use crate::browser::Browser;
use crate::server::Site;
use serde_json::json;

/// (stage, expected heatmap captions' shapes) for the default English sentence: 11 tokens,
/// d_model 64, 4 heads (d_k 16).
const STAGES: [(&str, &[&str]); 7] = [
    ("input", &["11 × 64", "11 × 64", "11 × 64"]),
    ("projection", &["11 × 64", "11 × 64", "11 × 64"]),
    ("scores", &["11 × 11"]),
    ("scaling", &["11 × 11", "11 × 11"]),
    ("softmax", &["11 × 11", ""]),
    ("output", &["11 × 16", "11 × 16"]),
    ("multihead", &["11 × 11", "11 × 11", "11 × 11", "11 × 11", "11 × 64", "11 × 64"]),
];

async fn open(site: &Site, query: &str) -> Browser {
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url(&format!("/?{query}"))).await;
    b.wait_for("[data-testid^='stage-']").await;
    b
}

async fn assert_stage(b: &Browser, slug: &str, shapes: &[&str]) {
    let id = format!("stage-{slug}");
    b.wait_for(&format!("[data-testid='{id}']")).await;
    let captions = b.captions_in(&id).await;
    assert_eq!(captions.len(), shapes.len(), "{slug}: captions {captions:?}");
    for (c, shape) in captions.iter().zip(shapes) {
        assert!(c.ends_with(shape), "{slug}: caption {c:?} should end with {shape:?}");
    }
    let (drawn, total) = b.drawn_canvases(&id).await;
    assert_eq!(drawn, total, "{slug}: only {drawn} of {total} canvases are painted");
}

pub async fn stepping_through_every_stage_shows_drawn_heatmaps_with_their_shapes() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en").await;
    for (i, (slug, shapes)) in STAGES.iter().enumerate() {
        assert_stage(&b, slug, shapes).await;
        assert_eq!(b.text_of("stage-count").await, format!("Step {} of 7", i + 1));
        if i + 1 < STAGES.len() {
            b.click("next-stage").await;
        }
    }
    // Back with the button, then with the keyboard.
    b.click("prev-stage").await;
    assert_stage(&b, "output", STAGES[5].1).await;
    b.press("\u{E012}").await; // ArrowLeft
    assert_stage(&b, "softmax", STAGES[4].1).await;
    b.press("\u{E014}").await; // ArrowRight
    assert_stage(&b, "output", STAGES[5].1).await;
    // Clicking a stage name jumps there.
    b.click("goto-scaling").await;
    assert_stage(&b, "scaling", STAGES[3].1).await;
    b.assert_no_panic().await;
    b.close().await;
}

pub async fn typing_a_sentence_changes_the_tokens_and_every_shape() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=scores").await;
    b.type_into("token-input", "猫喜欢鱼, a lot").await;
    // 猫 喜 欢 鱼 , a lot → 7 tokens
    assert_eq!(b.text_of("token-input-count").await, "7 tokens");
    let chips = b.js("return document.querySelectorAll(`[data-testid='token-input-chips'] li`).length;", vec![]).await;
    assert_eq!(chips, 7);
    assert_stage(&b, "scores", &["7 × 7"]).await;
    b.click("goto-output").await;
    assert_stage(&b, "output", &["7 × 16", "7 × 16"]).await;
    // Hovering an output cell explains it by the value rows that made it.
    b.hover_canvas("heatmap-output").await;
    let detail = b.text_of("heatmap-output-detail").await;
    assert!(detail.contains("Σ A·V") && detail.contains("largest contributions"), "{detail:?}");
    b.close().await;
}

pub async fn hovering_a_score_shows_the_dot_product_behind_it() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=scores").await;
    b.hover_canvas("heatmap-scores").await;
    let detail = b.text_of("heatmap-scores-detail").await;
    assert!(
        detail.starts_with("q[") && detail.contains("Σ (m = 1…16) q_m·k_m") && detail.contains("largest terms"),
        "{detail:?}"
    );
    b.close().await;
}

pub async fn unscaled_softmax_saturates_at_large_dk_and_scaling_keeps_it_soft() {
    let site = Site::start("").await;
    // The lab opens where the lesson is: d_model 128 over 2 heads is d_k = 64.
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en&view=lab&d=128&h=2")).await;
    b.wait_for("[data-testid='saturation-lab'] canvas[data-drawn='true']").await;
    assert_eq!(b.text_of("dk-value").await, "64");
    let read = |id: &'static str| {
        let b = &b;
        async move {
            let text = b.text_of(id).await;
            text.parse::<f32>().unwrap_or_else(|_| panic!("{id} shows {text:?}, not a number"))
        }
    };
    // One scaling state: the lab's badge is the lesson's switch.
    assert_eq!(b.text_of("scaling-badge").await, "Scaling ÷√d_k: ON");
    b.click("scaling-badge").await;
    assert_eq!(b.text_of("scaling-badge").await, "Scaling ÷√d_k: OFF");
    // The slider is logarithmic: step k is d_k = 2^k.
    b.set_value("lab-dk", "0").await;
    assert_eq!(b.text_of("dk-value").await, "1");
    let (soft_max, soft_grad) = (read("readout-max-weight").await, read("readout-grad").await);
    b.set_value("lab-dk", "10").await;
    assert_eq!(b.text_of("dk-value").await, "1024");
    let (max_w, grad, std) =
        (read("readout-max-weight").await, read("readout-grad").await, read("readout-score-std").await);
    assert!(max_w > 0.99, "unscaled at d_k = 1024 the typical row should be one-hot: {max_w}");
    assert!(grad < 0.01 && grad < soft_grad, "gradient should die: {grad} (was {soft_grad} at d_k = 1)");
    assert!(max_w > soft_max);
    assert!((std / 32.0 - 1.0).abs() < 0.25, "score std should be near √1024 = 32: {std}");

    // S switches the same state back on, from the lab's screen.
    b.press("s").await;
    assert_eq!(b.text_of("scaling-badge").await, "Scaling ÷√d_k: ON");
    let (max_w, std) = (read("readout-max-weight").await, read("readout-score-std").await);
    assert!(max_w < 0.8, "scaled rows stay soft: {max_w}");
    assert!((std - 1.0).abs() < 0.3, "scaled score std should be near 1: {std}");
    b.set_value("lab-dk", "9").await;
    assert_eq!(b.text_of("dk-value").await, "512");
    let search = b.address().await;
    assert!(search.as_str().is_some_and(|s| s.contains("dk=512") && s.contains("scale=1")), "{search}");
    // … and the lesson's settings show it too.
    b.click("nav-lesson").await;
    let ticked = b.js("return document.querySelector(`[data-testid='scaling-toggle']`).checked;", vec![]).await;
    assert_eq!(ticked, json!(true));
    b.assert_no_panic().await;
    b.close().await;
}

/// Stage 4 says the right thing with scaling on and off, in both languages, and the lab is a
/// link from stages 4 and 5 only.
pub async fn stage_4_reads_correctly_with_scaling_on_and_off_in_both_languages() {
    let site = Site::start("").await;
    for (lang, on_title, off_title, on_notice, off_note, badge_off) in [
        (
            "en",
            "Scaled S/√d_k",
            "Not divided: S (scaling off)",
            "paler",
            "both maps are the same",
            "Scaling ÷√d_k: OFF",
        ),
        ("zh", "缩放后的分数 S/√d_k", "未做除法：S（缩放已关闭）", "更淡", "两张图完全相同", "缩放 ÷√d_k：关"),
    ] {
        let b = open(&site, &format!("lang={lang}&stage=scaling")).await;
        b.wait_for("[data-testid='stage-scaling'] canvas[data-drawn='true']").await;
        let captions = b.captions_in("stage-scaling").await;
        assert!(captions[1].starts_with(on_title), "{lang}: {captions:?}");
        let notice = b.js("return document.querySelector('.stage__notice').textContent;", vec![]).await;
        assert!(notice.as_str().is_some_and(|n| n.contains(on_notice)), "{lang}: {notice}");
        assert_eq!(b.text_of("scaling-note").await, "");
        let reading = b.text_of("stage-reading").await;
        assert!(reading.contains("÷ 4.00 ="), "{lang}: {reading}");
        assert!(b.js("return !!document.querySelector(`[data-testid='open-lab']`);", vec![]).await == json!(true));

        b.press("s").await;
        assert_eq!(b.text_of("scaling-badge").await, badge_off, "{lang}");
        b.wait_for("[data-testid='scaling-note']:not(:empty)").await;
        let captions = b.captions_in("stage-scaling").await;
        assert!(captions[1].starts_with(off_title), "{lang}: {captions:?}");
        assert!(b.text_of("scaling-note").await.contains(off_note), "{lang}");
        let notice = b.js("return document.querySelector('.stage__notice').textContent;", vec![]).await;
        assert!(notice.as_str().is_some_and(|n| !n.contains(on_notice)), "{lang}: {notice}");
        assert!(!b.text_of("stage-reading").await.contains("÷ 4.00 ="), "{lang}: the reading still divides");
        // The lab opens from here, on the same scaling state.
        b.click("open-lab").await;
        b.wait_for("[data-testid='saturation-lab']").await;
        assert_eq!(b.text_of("scaling-badge").await, badge_off, "{lang}");
        b.close().await;
    }
    // Stage 1 has neither the lab nor the badge.
    let b = open(&site, "lang=en&stage=input").await;
    let present = b
        .js("return ['open-lab', 'scaling-badge', 'saturation-lab'].map(t => !!document.querySelector(`[data-testid='${t}']`));", vec![])
        .await;
    assert_eq!(present, json!([false, false, false]));
    b.close().await;
}

/// Every stage says in words what its numbers mean, from the live numbers.
pub async fn every_stage_reads_its_numbers_in_words() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=softmax&q=8").await;
    b.wait_for("[data-testid='stage-softmax'] canvas[data-drawn='true']").await;
    let reading = b.text_of("stage-reading").await;
    assert!(reading.starts_with("In words: “it” takes ") && reading.contains("% from “"), "{reading}");
    for (stage, needle) in [
        ("input", "Row 8 of X is “it”"),
        ("projection", "d_k = d_model / h = 64 / 4 = 16"),
        ("scores", "Row “it”: its largest score is with"),
        ("output", "This head's output for “it” is 0."),
        ("multihead", "head 4 → “"),
    ] {
        b.click(&format!("goto-{stage}")).await;
        b.wait_for(&format!("[data-testid='stage-{stage}']")).await;
        let reading = b.text_of("stage-reading").await;
        assert!(reading.contains(needle), "{stage}: {reading}");
    }
    b.click("lang-switch").await;
    let reading = b.text_of("stage-reading").await;
    assert!(reading.starts_with("用文字说："), "{reading}");
    b.close().await;
}

pub async fn the_language_switch_changes_the_texts_and_survives_a_reload() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en").await;
    let title = || async { b.wait_for("h1").await.text().await.unwrap_or_default() };
    assert_eq!(title().await, "Attention Lab");
    b.click("lang-switch").await;
    assert_eq!(title().await, "自注意力实验室");
    assert_eq!(b.text_of("stage-count").await, "第 1 步，共 7 步");
    // The untouched default sentence follows the language.
    assert!(b.text_of("token-input-count").await.ends_with("个词元"));
    b.reload().await;
    b.wait_for("[data-testid^='stage-']").await;
    assert_eq!(title().await, "自注意力实验室");
    // A bare link remembers the last choice too.
    b.open_page(&site.url("/")).await;
    assert_eq!(title().await, "自注意力实验室");
    b.close().await;
}

/// What a teacher set up survives the language switch: a sentence of their own, the query
/// row and the head; the untouched default follows the language with its query on the
/// pronoun (it, 它), where the lesson's question is.
pub async fn a_language_switch_keeps_what_the_teacher_set_up() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=softmax").await;
    let query = "return document.querySelector(`[data-testid='query-select'] option:checked`)?.textContent ?? '';";
    let chosen = b.js(query, vec![]).await;
    assert!(chosen.as_str().is_some_and(|q| q.ends_with("it")), "the default query is the pronoun: {chosen}");
    b.click("lang-switch").await;
    let zh = "return (document.querySelector(`[data-testid='query-select'] option:checked`)?.textContent ?? '').endsWith('它');";
    b.until(zh, "the default query follows to 它", 10).await;
    b.shot("language-switch-default-zh").await;
    b.click("lang-switch").await;
    b.set_value("token-input", "the teacher wrote this sentence for the class").await;
    b.choose("query-select", "3").await;
    b.click("head-3").await;
    b.until(
        "return location.search.includes('head=3') && location.search.includes('q=4');",
        "the link holds the head and query",
        10,
    )
    .await;
    let state = "return [document.querySelector(`[data-testid='token-input']`).value, document.querySelector(`[data-testid='query-select']`).value, location.search.includes('head=3')];";
    let before = b.js(state, vec![]).await;
    assert_eq!(before, json!(["the teacher wrote this sentence for the class", "3", true]));
    b.click("lang-switch").await;
    b.until("return document.documentElement.lang.startsWith('zh');", "the page in Chinese", 10).await;
    b.frames(2).await;
    assert_eq!(b.js(state, vec![]).await, before, "the sentence, query and head stay");
    b.shot("language-switch-kept-zh").await;
    b.assert_no_panic().await;
    b.close().await;
}

pub async fn bad_input_shows_a_message_and_keeps_the_last_good_picture() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=softmax").await;
    b.type_into("token-input", "").await;
    let err = b.text_of("token-input-error").await;
    assert!(err.contains("at least one word"), "{err:?}");
    assert_stage(&b, "softmax", &["11 × 11", ""]).await;

    // Pasted at once (typed key by key it would pass through valid 64-word sentences).
    b.set_value("token-input", &"word ".repeat(500)).await;
    let err = b.text_of("token-input-error").await;
    assert!(err.contains("500 tokens") && err.contains("64"), "{err:?}");
    assert_stage(&b, "softmax", &["11 × 11", ""]).await;

    b.type_into("seed-input", "abc").await;
    assert!(b.text_of("seed-error").await.contains("whole number"));
    b.type_into("token-input", "<img src=x onerror=alert(1)>").await;
    let chips = b.js("return document.querySelectorAll('img').length;", vec![]).await;
    assert_eq!(chips, 0, "a token that looks like HTML must stay text");
    assert!(b.text_of("token-input-error").await.is_empty());
    b.assert_no_broken_numbers().await;
    b.assert_no_panic().await;
    b.close().await;
}

pub async fn a_reload_keeps_every_setting() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en").await;
    b.type_into("token-input", "one two three").await;
    b.click("goto-softmax").await;
    b.click("head-3").await;
    b.click("scaling-toggle").await;
    b.reload().await;
    b.wait_for("[data-testid='stage-softmax']").await;
    assert_eq!(b.text_of("token-input-count").await, "3 tokens");
    let pressed =
        b.js("return document.querySelector(`[data-testid='head-3']`).getAttribute('aria-pressed');", vec![]).await;
    assert_eq!(pressed, "true");
    let scaled = b.js("return document.querySelector(`[data-testid='scaling-toggle']`).checked;", vec![]).await;
    assert_eq!(scaled, false);
    b.close().await;
}

/// The last stage says where to go next; each of its buttons opens its view at the top, where
/// the learner sees its title, however far down the stage they were.
pub async fn the_last_stage_says_where_next_and_each_view_opens_at_its_top() {
    let site = Site::start("").await;
    let b = open(&site, "lang=zh&stage=multihead").await;
    let next = b.text_of("where-next").await;
    b.js("document.querySelector(`[data-testid='where-next']`).scrollIntoView();", vec![]).await;
    b.shot("where-next-zh").await;
    assert!(next.starts_with("接下来去哪里") && next.contains("饱和实验") && next.contains("预训练模型"), "{next}");
    // Where it stands: its top within the upper half of the screen, not scrolled past.
    let top = "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight / 2 ? true : r.top;";
    b.click("next-lab").await;
    b.wait_for("[data-testid='saturation-lab']").await;
    b.frames(3).await;
    assert_eq!(b.js(top, vec![json!("#lab-title")]).await, true, "the lab opens at its title");
    b.shot("where-next-lab-at-top").await;
    // From the bottom of the lab, through the navigation, to the lesson's last stage and on.
    b.js("window.scrollTo(0, document.body.scrollHeight);", vec![]).await;
    b.click("nav-lesson").await;
    b.wait_for("[data-testid='where-next']").await;
    b.frames(3).await;
    assert_eq!(b.js(top, vec![json!(".page__main")]).await, true, "the lesson opens at its top");
    b.assert_no_panic().await;
    b.close().await;
}

/// The page writes the address bar at most every 100 ms while a setting keeps changing: after a
/// fast drag of a slider, the link still gets its last value by itself (nobody asks the page
/// to write), and reopens it.
pub async fn after_a_fast_drag_the_link_has_the_last_value() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=softmax").await;
    let shown = b
        .js_async(
            "const done = arguments[arguments.length - 1];
             (async () => {
               const s = document.querySelector(`[data-testid='temperature-slider']`);
               const to = (v) => { s.value = v; s.dispatchEvent(new Event('input', { bubbles: true })); };
               for (let i = 0; i < 60; i++) { to(i % 2 ? '-0.3' : '0.3'); await new Promise((r) => setTimeout(r, 5)); }
               to('0.2');
               // The page draws the step on its next frame.
               await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
               done(document.querySelector(`[data-testid='temperature-value']`).textContent);
             })();",
        )
        .await;
    assert_eq!(shown, json!("1.58"), "the slider's last step is shown");
    // The link follows once the drag has stopped (its writes are spaced out).
    b.until("return new URLSearchParams(location.search).get('t') === '1.58';", "the link has the last value", 10)
        .await;
    let link = b.js("return location.href;", vec![]).await;
    b.open_page(link.as_str().expect("a URL")).await;
    assert_eq!(b.text_of("temperature-value").await, "1.58", "the link reopens the last value ({link})");
    b.close().await;
}

pub async fn next_at_the_bottom_of_a_stage_lands_on_the_next_heading() {
    let site = Site::start("").await;
    let b = open(&site, "lang=en&stage=softmax").await;
    let heading_top = "return Math.round(document.querySelector('.stage__title').getBoundingClientRect().top);";
    for (id, expected) in [("next-stage-bottom", "6. Weighted sum"), ("prev-stage-bottom", "5. Softmax")] {
        // Read to the end of the stage, then step from the buttons found there.
        b.js("window.scrollTo(0, document.body.scrollHeight);", vec![]).await;
        b.click(id).await;
        b.wait_for("[data-testid='stage-count']").await;
        let titled = format!("return document.querySelector('.stage__title')?.textContent === '{expected}';");
        b.until(&titled, &format!("the stage titled {expected}"), 10).await;
        // The step's scroll to the heading happens in the frame after it is drawn.
        b.frames(3).await;
        let top = b.js(heading_top, vec![]).await.as_i64().unwrap_or(-1);
        assert!((0..120).contains(&top), "{id}: the heading is at {top} px, not at the top of the screen");
    }
    let said = b.js("return document.querySelector(`[data-testid='stage-announce']`).textContent;", vec![]).await;
    assert_eq!(said, "Step 5 of 7: Softmax", "the change is announced");
    b.close().await;
}

/// On a phone the first screen says what the site does and starts the student: the title and
/// its description, then the formula with *Start* (in both languages); the teacher's tools fold
/// into one menu and the settings unfold on demand.
pub async fn on_a_phone_the_first_screen_says_what_this_is_and_starts_the_student() {
    let site = Site::start("").await;
    let b = Browser::open_phone(390, 844).await;
    // Whether an element is on the first screen, whole (its box within the window, shown).
    let on_screen = "const el = document.querySelector(arguments[0]); if (!el || !el.offsetParent) return false;
        const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;";
    for (lang, says, start) in [("en", "step by step", "Start"), ("zh", "一步一步", "开始")] {
        b.open_page(&site.url(&format!("/?lang={lang}"))).await;
        b.wait_for("[data-testid='stage-input'] canvas[data-drawn='true']").await;
        assert_eq!(b.js("return innerWidth;", vec![]).await, json!(390), "a 390 px phone screen");
        assert!(b.text_of("tagline").await.contains(says), "{lang}: what the site does");
        for (css, what) in [("[data-testid='tagline']", "the description"), ("[data-testid='start']", "Start")] {
            assert_eq!(b.js(on_screen, vec![json!(css)]).await, true, "{lang}: {what} on the first screen");
        }
        assert!(b.text_of("start").await.starts_with(start));
        b.shot(&format!("phone-first-screen-{lang}")).await;
        assert_eq!(
            b.js(on_screen, vec![json!("[data-testid='present-toggle']")]).await,
            false,
            "{lang}: the teacher's tools fold away"
        );
    }
    b.click("tools-toggle").await;
    assert_eq!(
        b.js(on_screen, vec![json!("[data-testid='present-toggle']")]).await,
        true,
        "one tap shows the teacher's tools"
    );
    b.shot("phone-teacher-tools").await;
    b.click("start").await;
    b.frames(2).await;
    let top =
        b.js("return Math.round(document.querySelector('.stage__title').getBoundingClientRect().top);", vec![]).await;
    assert!(top.as_i64().is_some_and(|t| (0..50).contains(&t)), "Start brings stage 1's heading to the top: {top}");

    let shown = "return getComputedStyle(document.querySelector(`[data-testid='token-input']`)).display !== 'none' && !!document.querySelector(`[data-testid='token-input']`).offsetParent;";
    assert_eq!(b.js(shown, vec![]).await, json!(false), "the settings start folded");
    b.click("settings-toggle").await;
    assert_eq!(b.js(shown, vec![]).await, json!(true), "one tap unfolds them");
    b.type_into("token-input", "one two three").await;
    b.wait_for("[data-testid='stage-input']").await;
    assert!(b.captions_in("stage-input").await.iter().any(|c| c.ends_with("3 × 64")));
    b.assert_no_panic().await;
    b.close().await;
}

/// Each setting explains itself when it has the focus (and on hover); a Chinese sentence says
/// why its characters are its tokens.
pub async fn settings_explain_themselves_and_chinese_tokens_are_explained() {
    let site = Site::start("").await;
    let b = open(&site, "lang=zh").await;
    let hint_after = |id: &'static str| {
        let b = &b;
        async move {
            let script = format!(
                "const el = document.querySelector(`[data-testid='{id}']`); el.focus();
                 const field = el.closest('.field, .switch'); const hint = field.nextElementSibling;
                 return hint && hint.classList.contains('control-hint') && getComputedStyle(hint).display !== 'none' ? hint.textContent : null;"
            );
            b.js(&script, vec![]).await
        }
    };
    let seed = hint_after("seed-input").await;
    assert!(seed.as_str().is_some_and(|t| t.contains("随机权重")), "{seed}");
    let temperature = hint_after("temperature-slider").await;
    assert!(temperature.as_str().is_some_and(|t| t.contains("softmax 之前分数会除以 T")), "{temperature}");
    for id in ["d-model", "heads", "scaling-toggle", "mask-select", "kind-select", "pe-toggle", "token-input"] {
        assert!(hint_after(id).await.is_string(), "{id} has no explanation");
    }
    assert!(b.text_of("tokens-cjk").await.contains("每个汉字"));
    b.close().await;
    let b = open(&site, "lang=en").await;
    let cjk = b.js("return !!document.querySelector(`[data-testid='tokens-cjk']`);", vec![]).await;
    assert_eq!(cjk, json!(false), "an English sentence needs no word about Chinese characters");
    b.close().await;
}
