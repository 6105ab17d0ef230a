//! The training view (issue 14): its module loads when the view opens, trains *reverse* to
//! 99 % held-out accuracy in a pool of workers while the page stays usable (issue 23), names a bad setting (typed,
//! or in a link) beside its control and keeps the last good run, keeps its setup in the link,
//! and follows the page's language.

use crate::browser::Browser;
use crate::server::Site;
use serde_json::json;

async fn number(b: &Browser, id: &str) -> f64 {
    b.text_of(id).await.trim().parse().unwrap_or(f64::NAN)
}

pub async fn a_student_trains_reverse_to_99_percent_and_every_head_is_drawn() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en&view=learn")).await;
    b.wait_for("[data-testid='learn-train']").await;
    let task = b.js("return document.querySelector(`[data-testid='learn-task']`).value;", vec![]).await;
    assert_eq!(task, json!("reverse"));
    assert_eq!(number(&b, "learn-steps").await, 0.0);
    let before = number(&b, "learn-accuracy").await;
    assert!(before < 0.5, "an untrained model is near chance: {before}");
    b.click("learn-train").await;
    // The run is bounded by steps, not time: reverse reaches 99 % within a few hundred.
    let reached = wait_until(&b, REACHED_99, json!(true), 60).await == json!(true);
    let steps = number(&b, "learn-steps").await;
    assert!(
        reached,
        "reverse did not reach 99 % (accuracy {} after {steps} steps)",
        number(&b, "learn-accuracy").await
    );
    // Learned, the run pauses itself once its held-out accuracy has held at its best for 300
    // steps, and says why; the steps stay put.
    let settled = "return document.querySelector(`[data-testid='learn-settled']`).textContent.trim() !== ''
        && (() => { {AT_REST} })();"
        .replace("{AT_REST}", AT_REST);
    b.until(&settled, "the run pauses where it settled", 60).await;
    let note = b.text_of("learn-settled").await;
    let at = number(&b, "learn-steps").await;
    let since = b
        .js("return Number(/since step (\\d+)/.exec(document.querySelector(`[data-testid='learn-settled']`).textContent)?.[1]);", vec![])
        .await
        .as_f64()
        .unwrap_or(f64::NAN);
    assert!(
        note.contains(&format!("Paused at step {at}"))
            && note.contains(&format!("stayed at {:.0} %", number(&b, "learn-accuracy").await * 100.0))
            && at - since >= 300.0,
        "{note}"
    );
    b.frames(10).await;
    assert_eq!(number(&b, "learn-steps").await, at, "the pause holds");
    assert!(number(&b, "learn-speed").await > 0.0, "the speed of the run before the pause is shown");
    b.shot("learn-settled-en").await;
    // In Chinese too, and back.
    for (starts, shot) in [("已在第", Some("learn-settled-zh")), ("Paused", None)] {
        b.click("lang-switch").await;
        let note = format!(
            "const n = document.querySelector(`[data-testid='learn-settled']`);
             n.scrollIntoView({{ block: 'center' }}); return n.textContent.startsWith('{starts}');"
        );
        b.until(&note, "the note in the language chosen", 10).await;
        if let Some(name) = shot {
            b.shot(name).await;
        }
    }
    // Train goes on past it (the page pauses a run there once), and the note goes.
    b.click("learn-train").await;
    let moved = format!("return Number(document.querySelector(`[data-testid='learn-steps']`).textContent) > {at};");
    b.until(&moved, "training runs on", 10).await;
    assert_eq!(b.text_of("learn-settled").await, "", "the note goes once the learner trains on");
    pause(&b).await;
    let paused = number(&b, "learn-steps").await;
    b.frames(10).await;
    assert_eq!(number(&b, "learn-steps").await, paused, "Pause stops it");
    b.click("learn-step").await;
    let one_more = format!(
        "return Number(document.querySelector(`[data-testid='learn-steps']`).textContent) > {paused} && (() => {{ {AT_REST} }})();"
    );
    b.until(&one_more, "one more step, at rest", 10).await;
    assert_eq!(number(&b, "learn-steps").await, paused + 1.0, "One step takes one step");
    assert!(number(&b, "learn-loss").await < 0.1, "the loss fell");
    let (drawn, total) = b.drawn_canvases("view-learn").await;
    assert_eq!((drawn, total), (4, 4), "two heads of one layer, the loss and the accuracy");
    b.click("learn-reset").await;
    let reset = "return document.querySelector(`[data-testid='learn-steps']`).textContent.trim() === '0';";
    b.until(reset, "Reset starts again", 10).await;
    b.assert_no_panic().await;
    b.close().await;
}

pub async fn a_bad_setting_is_named_beside_its_control_and_a_good_one_is_kept_in_the_link() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    let error_beside = |id: &'static str| {
        format!("return document.querySelector(`[data-testid='{id}']`).parentElement.querySelector('.field__error')?.textContent ?? '';")
    };
    // A link out of range: the default run, the reason beside the setting, the link mended.
    b.open_page(&site.url("/?lang=en&view=learn&ld=8")).await;
    b.wait_for("[data-testid='learn-train']").await;
    let said = b.js(&error_beside("learn-dmodel"), vec![]).await;
    assert!(said.as_str().is_some_and(|s| s.contains("16") && s.contains("128")), "{said}");
    let url = b.address().await;
    assert!(url.as_str().is_some_and(|u| u.contains("ld=32") && !u.contains("ld=8")), "{url}");
    b.click("learn-step").await;
    let stepped = "return document.querySelector(`[data-testid='learn-steps']`).textContent.trim() === '1';";
    assert_eq!(wait_until(&b, stepped, json!(true), 20).await, json!(true), "the step was taken");
    b.set_and_change("learn-dmodel", "8").await;
    let said = b.js(&error_beside("learn-dmodel"), vec![]).await;
    assert!(said.as_str().is_some_and(|s| s.contains("16") && s.contains("128")), "{said}");
    assert_eq!(number(&b, "learn-steps").await, 1.0, "the last good run stays");
    b.set_and_change("learn-heads", "3").await;
    let said = b.js(&error_beside("learn-heads"), vec![]).await;
    assert!(said.as_str().is_some_and(|s| s.contains("divide")), "{said}");
    b.set_and_change("learn-lr", "abc").await;
    let said = b.js(&error_beside("learn-lr"), vec![]).await;
    assert!(said.as_str().is_some_and(|s| s.contains("learning rate")), "{said}");
    // A good setting: a fresh run, the error gone, the link carrying it through a reload.
    b.set_and_change("learn-dmodel", "64").await;
    assert_eq!(b.js(&error_beside("learn-dmodel"), vec![]).await, json!(""));
    b.set_and_change("learn-task", "previous").await;
    b.click("learn-mlp").await;
    let url = b.address().await;
    let url = url.as_str().unwrap_or_default().to_string();
    let named = ["task=previous", "ld=64", "view=learn", "lmlp=1"].iter().all(|p| url.contains(p));
    assert!(named, "{url}");
    b.open_page(&site.url(&format!("/{url}"))).await;
    b.wait_for("[data-testid='learn-train']").await;
    let kept = b
        .js("const q = id => document.querySelector(`[data-testid='${id}']`); return [q('learn-task').value, q('learn-dmodel').value, q('learn-mlp').checked];", vec![])
        .await;
    assert_eq!(kept, json!(["previous", "64", true]));
    // The page's language: the module mounts again in Chinese.
    b.click("lang-switch").await;
    let chinese = "return document.querySelector(`[data-testid='learn-expect']`)?.textContent.includes('次对角线');";
    b.until(chinese, "the training view in Chinese says what reverse learns", 10).await;
    b.assert_no_panic().await;
    b.close().await;
}

/// The scaling experiment: the same model twice at d_k = 128, with and without ÷√d_k, trained
/// live side by side; the divided run learns reverse, and each run says where it stands.
pub async fn the_scaling_experiment_trains_both_runs_side_by_side() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en&view=learn")).await;
    b.click("learn-experiment").await;
    let lines =
        "return [...document.querySelectorAll(`[data-testid='learn-experiment-result'] li`)].map(l => l.textContent);";
    // Bounded by steps: wait until the runs have taken 100 of them.
    let mut shown = json!([]);
    for _ in 0..600 {
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        shown = b.js(lines, vec![]).await;
        let steps = shown[0].as_str().and_then(|l| l.split("after ").nth(1)).and_then(|r| r.split(' ').next());
        if steps.and_then(|s| s.parse::<usize>().ok()).is_some_and(|s| s >= 100) {
            break;
        }
    }
    let shown: Vec<String> = serde_json::from_value(shown).unwrap_or_default();
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert!(shown[0].starts_with("÷√d_k") && shown[1].starts_with("not divided"), "{shown:?}");
    assert!(shown[0].contains("held-out accuracy 1.000") || shown[0].contains("held-out accuracy 0.99"), "{shown:?}");
    let (drawn, _) = b.drawn_canvases("view-learn").await;
    assert!(drawn >= 5, "the run's two charts and the experiment's three: {drawn}");
    b.assert_no_panic().await;
    b.close().await;
}

/// The largest model trains in a pool of workers (one per core, no more than one per GB the
/// browser reports, two where it does not say its memory unless the learner chooses more; the
/// count shown, and what holds it) while the page stays its own: a click
/// on another control takes effect on the next frame while a step is under way, and the steps
/// go on after it.
pub async fn the_page_answers_while_the_largest_model_trains_on_every_core() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en&view=learn&task=induction&ld=128&lh=8&ll=2&lb=256&lmlp=1")).await;
    b.wait_for("[data-testid='learn-train']").await;
    let sized = "const cores = Math.min(Math.max(navigator.hardwareConcurrency, 1), 8);
                 const gb = navigator.deviceMemory;
                 return [Math.min(cores, gb ? Math.max(Math.floor(gb), 1) : 2), gb ? null : cores];";
    let sized = b.js(sized, vec![]).await;
    let (workers, untold_most) = (sized[0].clone(), sized[1].as_u64().filter(|&most| most > 2));
    let in_use = b.text_of("learn-workers-in-use").await;
    assert!(in_use.starts_with(&format!("{workers} ")), "workers as the device allows ({workers}): {in_use}");
    let limit = b.text_of("learn-workers-limit").await;
    let said = match untold_most {
        Some(most) => format!("2 to start with, up to {most} (one per core): this browser does not say"),
        None => format!("At most {workers}: "),
    };
    assert!(limit.starts_with(&said), "what holds the pool to {workers}: {limit}");
    let offered =
        b.js("return document.querySelectorAll(`[data-testid='learn-workers'] option`).length;", vec![]).await;
    assert_eq!(offered, untold_most.map_or(workers, |most| json!(most)), "the choices go up to the most");
    b.click("learn-train").await;
    // A click while the pool computes (the largest model's step takes a second or more on a
    // laptop): the language switches on the next frame, training still running.
    let answered = b
        .js_async(
            "const done = arguments[arguments.length - 1];
             const q = id => document.querySelector(`[data-testid='${id}']`);
             const pressed = () => q('learn-train').getAttribute('aria-pressed');
             const before = [pressed(), document.documentElement.lang];
             q('lang-switch').click();
             requestAnimationFrame(() => requestAnimationFrame(() => done([...before, pressed(), document.documentElement.lang.slice(0, 2)])));",
        )
        .await;
    assert_eq!(answered, json!(["true", "en", "true", "zh"]), "the click took effect while training ran");
    let stepped = "return Number(document.querySelector(`[data-testid='learn-steps']`)?.textContent) >= 1;";
    assert_eq!(wait_until(&b, stepped, json!(true), 120).await, json!(true), "the largest model takes its steps");
    assert_eq!(b.text_of("learn-failed").await, "", "no worker failed");
    b.assert_no_panic().await;
    b.close().await;
}

/// Whether the run is paused and at rest: the page holds the model of the step it shows
/// (`data-rested`), no step is under way.
const AT_REST: &str = "const s = document.querySelector(`[data-testid='learn-steps']`);
  return document.querySelector(`[data-testid='learn-train']`).getAttribute('aria-pressed') === 'false'
    && s.dataset.rested === s.textContent.trim();";

/// Whether the held-out accuracy shown has reached 99 %.
const REACHED_99: &str = "return Number(document.querySelector(`[data-testid='learn-accuracy']`).textContent) >= 0.99;";

/// Poll `script` (which returns a value) every 250 ms until it returns `want`, up to `secs`.
async fn wait_until(b: &Browser, script: &str, want: serde_json::Value, secs: u64) -> serde_json::Value {
    let mut got = json!(null);
    for _ in 0..secs * 4 {
        got = b.js(script, vec![]).await;
        if got == want {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    if got != want {
        eprintln!("after {secs} s, {script}\n  gave {got}, not {want}; the page: {}", b.where_it_stands().await);
    }
    got
}

/// Pause the run if it is training, and wait until it is at rest. (A click on the button, not
/// sent blind: the page may have paused the run itself where it settled, and a click then would
/// train on.)
pub(crate) async fn pause(b: &Browser) {
    b.js(crate::walk::PAUSE_IF_TRAINING, vec![]).await;
    assert_eq!(wait_until(b, AT_REST, json!(true), 20).await, json!(true), "the run came to rest");
}

/// Train until `done` (a script that returns a boolean), going on once past the page's pause
/// where the run settled, up to `secs`; whether it got there.
async fn train_until(b: &Browser, done: &str, secs: u64) -> bool {
    let script = format!(
        "const t = document.querySelector(`[data-testid='learn-train']`);
         if ((() => {{ {done} }})()) return true;
         if (t.getAttribute('aria-pressed') === 'false' && document.querySelector(`[data-testid='learn-settled']`).textContent.trim()) t.click();
         return false;"
    );
    wait_until(b, &script, json!(true), secs).await == json!(true)
}

/// Train the task chosen a few steps, pause, and open the model in the lesson: the page then
/// computes with the learner's model (`model=yours`).
pub(crate) async fn a_few_steps_opened_in_the_lesson(b: &Browser) {
    b.click("learn-train").await;
    let stepped = "return Number(document.querySelector(`[data-testid='learn-steps']`)?.textContent) >= 20;";
    assert_eq!(wait_until(b, stepped, json!(true), 60).await, json!(true), "the run took its steps");
    pause(b).await;
    b.click("learn-open-lesson").await;
    let note = "const n = document.querySelector(`[data-testid='weights-note']`); return n ? n.dataset.weights : '';";
    assert_eq!(wait_until(b, note, json!("yours"), 10).await, json!("yours"), "the lesson shows the learner's model");
}

/// "Open in the lesson": the model just trained runs through the lesson's stages on its
/// example, the anti-diagonal it learned is in the weights the lesson computes, the sentence
/// field takes only its tokens (the reason beside it), a reload finds the same model, and a
/// browser that keeps none says what to do.
pub async fn a_trained_model_opens_in_the_lesson_with_the_pattern_it_learned() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en&view=learn")).await;
    b.click("learn-train").await;
    assert_eq!(wait_until(&b, REACHED_99, json!(true), 60).await, json!(true), "reverse reached 99 %");
    b.click("learn-open-lesson").await;
    let note = "const n = document.querySelector(`[data-testid='weights-note']`); return n ? n.dataset.weights : '';";
    assert_eq!(wait_until(&b, note, json!("yours"), 10).await, json!("yours"), "the stages show your model");
    let url = b.address().await;
    let url = url.as_str().unwrap_or_default().to_string();
    // It lands where the pattern shows: the softmax stage, the separator's row (the 9th)
    // chosen and the mirrored digit before it (the 8th) spotlighted, on the head that does it.
    for part in ["view=lesson", "model=yours", "mask=causal", "scale=1", "stage=softmax", "q=9", "spot=8"] {
        assert!(url.contains(part), "{part} in {url}");
    }
    let note = b.text_of("weights-note").await;
    assert!(note.contains("layer 1 of 1, head "), "{note}");
    let chosen = "return document.querySelector(`[data-testid='query-select']`)?.value ?? '';";
    assert_eq!(wait_until(&b, chosen, json!("8"), 10).await, json!("8"), "the separator's row is chosen");
    b.shot("learn-opened-on-the-anti-diagonal").await;

    // The weights the lesson computes hold the anti-diagonal: from the separator's row (9th)
    // on, row i puts its largest weight on the digit 15 − i, in one head or the other.
    b.catch_downloads().await;
    b.click("export-json").await;
    let files = b.downloads().await;
    let trace: serde_json::Value =
        serde_json::from_str(files[0]["text"].as_str().unwrap_or_default()).expect("the export is JSON");
    assert_eq!((trace["model"].as_str(), trace["heads"].as_u64()), (Some("yours"), Some(2)));
    let tokens: Vec<String> = serde_json::from_value(trace["tokens"].clone()).expect("tokens");
    assert_eq!((tokens.len(), tokens[8].as_str()), (16, "|"), "{tokens:?}");
    let heads: Vec<Vec<Vec<f64>>> = serde_json::from_value(trace["expected"]["weights"].clone()).expect("weights");
    let argmax = |row: &[f64]| (0..row.len()).max_by(|&a, &c| row[a].total_cmp(&row[c])).unwrap_or(0);
    let on_diagonal = (8..16).filter(|&i| heads.iter().any(|h| argmax(&h[i]) == 15 - i)).count();
    assert!(on_diagonal >= 7, "{on_diagonal} of 8 rows on the anti-diagonal");

    // Every stage computes and draws with it: back to the first, then through them all.
    for (i, back) in ["scaling", "scores", "projection", "input"].into_iter().enumerate() {
        b.press("\u{E012}").await; // ArrowLeft
        let shown = format!("return !!document.querySelector(`[data-testid='stage-{back}']`);");
        b.until(&shown, &format!("ArrowLeft {} shows stage {back}", i + 1), 10).await;
    }
    for (i, next) in ["projection", "scores", "scaling", "softmax", "output", "multihead"].into_iter().enumerate() {
        b.press("\u{E014}").await; // ArrowRight
        let shown = format!("return !!document.querySelector(`[data-testid='stage-{next}']`);");
        b.until(&shown, &format!("ArrowRight {} shows stage {next}", i + 1), 10).await;
    }
    let stage = b.address().await;
    assert!(stage.as_str().is_some_and(|s| s.contains("stage=multihead")), "{stage}");
    let (drawn, total) = b.drawn_canvases("stage-multihead").await;
    assert!(drawn > 0 && drawn == total, "multi-head stage drawn: {drawn} of {total}");

    // Its tokens only, said beside the sentence; the last good sentence stays.
    b.type_into("token-input", "1 2 x").await;
    let said = b.text_of("token-input-error").await;
    assert!(said.contains("“x”"), "{said}");
    let broken = b.js("return document.querySelector(`[data-testid='compute-error']`) !== null;", vec![]).await;
    assert_eq!(broken, json!(false), "the stages keep the last good sentence");

    // A reload finds the same model (kept in this browser), in Chinese too.
    b.open_page(&site.url(&format!("/{}", url.replace("lang=en", "lang=zh")))).await;
    let note = "return document.querySelector(`[data-testid='weights-note']`)?.textContent ?? '';";
    let zh = "return (document.querySelector(`[data-testid='weights-note']`)?.textContent ?? '').includes('你在训练视图里训练的模型');";
    let shown = wait_until(&b, zh, json!(true), 10).await;
    assert_eq!(shown, json!(true), "{}", b.js(note, vec![]).await);
    b.assert_no_panic().await;
    b.close().await;

    // A browser that keeps no model says what to do, where the stage would be.
    let fresh = Browser::open(1280, 900).await;
    fresh.open_page(&site.url("/?lang=en&model=yours")).await;
    let said = wait_until(&fresh, "return document.querySelector(`[data-testid='compute-error']`)?.textContent.includes('Open in the lesson') ?? false;", json!(true), 10).await;
    assert_eq!(said, json!(true), "the missing model is explained");
    fresh.assert_no_panic().await;
    fresh.close().await;
}

/// Switching heads off in the learner's own model (issue 26): induction on two layers, trained
/// past 99 %; the sweep finds the one head the task cannot do without in layer 1 (the
/// previous-token head, whose weight on the previous token is the larger of layer 1's), a
/// click on its cell switches it off alone and the held-out accuracy collapses; every head
/// back on, it is whole again.
pub async fn switching_off_the_previous_token_head_of_an_induction_model_collapses_its_accuracy() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en&view=learn&task=induction&ll=2&lseed=4")).await;
    b.click("learn-train").await;
    let trained = "return Number(document.querySelector(`[data-testid='learn-accuracy']`).textContent) >= 0.99 && Number(document.querySelector(`[data-testid='learn-steps']`).textContent) >= 1000;";
    assert!(train_until(&b, trained, 120).await, "induction reached 99 % and step 1000");
    pause(&b).await;
    let paused = "return document.querySelector(`[data-testid='learn-train']`).getAttribute('aria-pressed');";
    assert_eq!(wait_until(&b, paused, json!("false"), 10).await, json!("false"));
    // The model at rest: the step in flight when Pause came may land after the 99 % (its
    // held-out accuracy moves by a sequence or two from step to step: 0.978 at step 1078 once).
    let rested = "const s = document.querySelector(`[data-testid='learn-steps']`); return s.dataset.rested === s.textContent.trim();";
    assert_eq!(wait_until(&b, rested, json!(true), 20).await, json!(true), "the run came to rest");
    let at_rest = number(&b, "learn-accuracy").await;
    assert!(at_rest >= 0.95, "the model at rest still does the task: {at_rest}");
    b.click("ablate-sweep").await;
    let cells = "return document.querySelectorAll(`[data-testid='ablate-cell']`).length;";
    assert_eq!(wait_until(&b, cells, json!(4), 60).await, json!(4), "a cell per head of 2 × 2");
    let read = |grid: &str| {
        format!(
            "return [...document.querySelectorAll(`[data-testid='{grid}']`)].map(c => [Number(c.dataset.layer), Number(c.dataset.head), Number(c.dataset.effect ?? c.dataset.weight)]);"
        )
    };
    let drops: Vec<(u64, u64, f64)> = serde_json::from_value(b.js(&read("ablate-cell"), vec![]).await).expect("cells");
    let needed = drops.iter().copied().max_by(|a, c| a.2.total_cmp(&c.2)).expect("a cell");
    assert!(needed.0 == 1 && needed.2 > 0.3, "the head the task needs is in layer 1: {drops:?}");
    let previous: Vec<(u64, u64, f64)> =
        serde_json::from_value(b.js(&read("previous-cell"), vec![]).await).expect("cells");
    let in_layer_1: Vec<_> = previous.iter().filter(|c| c.0 == 1).collect();
    let strongest = in_layer_1.iter().max_by(|a, c| a.2.total_cmp(&c.2)).expect("layer 1");
    assert_eq!(strongest.1, needed.1, "it is the previous-token head: {previous:?}");
    b.click_css(&format!("[data-testid='ablate-cell'][data-layer='1'][data-head='{}']", needed.1)).await;
    let off = "return document.querySelector(`[data-testid='learn-accuracy']`).dataset.headsOff ?? '';";
    let want = json!(format!("1.{}", needed.1));
    assert_eq!(wait_until(&b, off, want.clone(), 20).await, want, "the accuracy shown is with that head off");
    let collapsed = number(&b, "learn-accuracy").await;
    assert!(collapsed < 0.6, "accuracy with the previous-token head off: {collapsed}");
    // "Intact" is the model at rest, as the page showed it before any head went off.
    let summary = b.text_of("ablate-summary").await;
    let intact: f64 = summary
        .split("(intact ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0.0);
    assert!(summary.contains(&format!("with 1.{} off", needed.1)), "{summary}");
    assert!((intact - at_rest).abs() < 0.0015, "intact {intact} is the accuracy shown at rest, {at_rest}: {summary}");
    b.click("ablate-all-on").await;
    let whole = "return document.querySelector(`[data-testid='learn-accuracy']`).dataset.headsOff === undefined;";
    assert_eq!(wait_until(&b, whole, json!(true), 10).await, json!(true));
    let back_on = number(&b, "learn-accuracy").await;
    assert!((back_on - intact).abs() < 0.0006, "every head back on shows the intact accuracy {intact}: {back_on}");
    b.assert_no_panic().await;
    b.close().await;
}

/// Generation (issue 27): a model trained on *reverse* writes the prompt's digits backwards one
/// token at a time, the cache gaining a row a step; with the cache off the same tokens come at
/// a higher count of work; a prompt the model cannot read is named beside its field.
pub async fn a_reverse_model_writes_the_digits_backwards_with_the_cache_growing() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en&view=learn")).await;
    b.click("learn-train").await;
    assert_eq!(wait_until(&b, REACHED_99, json!(true), 60).await, json!(true), "reverse reached 99 %");
    pause(&b).await;
    let ready = "return !document.querySelector(`[data-testid='gen-next']`).disabled;";
    assert_eq!(wait_until(&b, ready, json!(true), 10).await, json!(true), "the model at rest can generate");
    b.set_and_change("gen-prompt", "7 2 9 9 0 4 1 6 |").await;
    let rows = "return Number(document.querySelector(`[data-testid='kv-cache']`)?.dataset.rows ?? 0);";
    b.click("gen-next").await;
    assert_eq!(wait_until(&b, rows, json!(10), 5).await, json!(10), "the prompt's 9 rows and the new token's");
    b.click("gen-next").await;
    assert_eq!(wait_until(&b, rows, json!(11), 5).await, json!(11), "one row more a step");
    assert_eq!(b.text_of("gen-output").await, "6 1");
    b.click("gen-run").await;
    let done = "return document.querySelector(`[data-testid='gen-output']`).textContent;";
    assert_eq!(wait_until(&b, done, json!("6 1 4 0 9 9 2 7"), 5).await, json!("6 1 4 0 9 9 2 7"));
    let correct = b.wait_for("[data-testid='gen-correct']").await;
    assert_eq!(correct.attr("data-correct").await.ok().flatten().as_deref(), Some("8"));
    assert_eq!(correct.attr("data-total").await.ok().flatten().as_deref(), Some("8"));
    let work =
        |key: &'static str| format!("return Number(document.querySelector(`[data-testid='gen-work']`).dataset.{key});");
    let (cached, uncached) = (b.js(&work("cached"), vec![]).await, b.js(&work("uncached"), vec![]).await);
    assert!(cached.as_f64() < uncached.as_f64(), "the cache saves work: {cached} against {uncached}");
    // Without the cache: the same tokens, every step recomputed.
    b.click("gen-reset").await;
    b.click("gen-cache-toggle").await;
    b.click("gen-run").await;
    assert_eq!(wait_until(&b, done, json!("6 1 4 0 9 9 2 7"), 5).await, json!("6 1 4 0 9 9 2 7"));
    let note = b.js("return document.querySelector(`[data-testid='kv-cache']`).textContent;", vec![]).await;
    assert!(note.as_str().is_some_and(|n| n.contains("The cache is off")), "{note}");
    let step = b.text_of("gen-step").await;
    assert!(step.starts_with("Step 8:"), "{step}");
    let text = b.text_of("gen-work").await;
    assert!(text.ends_with("ms, recomputing."), "{text}");
    // A token the model does not have.
    b.set_and_change("gen-prompt", "1 2 x").await;
    let said = b.text_of("gen-prompt-error").await;
    assert!(said.contains("0 to 9"), "{said}");
    b.assert_no_panic().await;
    b.close().await;
}

/// Shared K/V heads and rotary positions (issue 27): a model with one K/V head for its two
/// query heads and RoPE trains *induction* to 99 % in the page (previous-token and induction
/// heads need only offsets; *reverse* with one layer does not train under RoPE, see the README's
/// table); the view says what the cache
/// keeps and that moving the example along changes no score; the lesson opens it with its
/// queries and keys rotated and its one K/V head shared, and exports how it was made.
pub async fn a_multi_query_model_with_rotary_positions_trains_and_opens_in_the_lesson() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en&view=learn&task=induction&ll=2&lkv=1&lpos=rope")).await;
    b.wait_for("[data-testid='learn-train']").await;
    let kv = b.js("return document.querySelector(`[data-testid='learn-kv-heads']`).value;", vec![]).await;
    let positions = b.js("return document.querySelector(`[data-testid='learn-positions']`).value;", vec![]).await;
    assert_eq!((kv, positions), (json!("1"), json!("rope")));
    let cache = b.text_of("learn-cache-size").await;
    assert!(
        cache.starts_with("multi-query attention") && cache.contains("= 64 numbers per token (128 with"),
        "{cache}"
    );
    b.click("learn-train").await;
    assert_eq!(
        wait_until(&b, REACHED_99, json!(true), 90).await,
        json!(true),
        "reverse reached 99 % with RoPE and one K/V head"
    );
    pause(&b).await;
    let shift =
        "return document.querySelector(`[data-testid='learn-shift-check']`).textContent.includes('changes no score');";
    assert_eq!(wait_until(&b, shift, json!(true), 10).await, json!(true), "{}", b.text_of("learn-shift-check").await);
    b.click("learn-open-lesson").await;
    let note = "const n = document.querySelector(`[data-testid='weights-note']`); return n ? n.dataset.weights : '';";
    assert_eq!(wait_until(&b, note, json!("yours"), 10).await, json!("yours"));
    // It opens on the softmax stage, where the pattern shows; three steps back: Q, K, V.
    for _ in 0..3 {
        b.press("\u{E012}").await; // ArrowLeft
        b.frames(1).await;
    }
    let count = "return document.querySelectorAll(`[data-testid='projection-note']`).length;";
    assert_eq!(wait_until(&b, count, json!(2), 10).await, json!(2), "a note for the rotation, one for the shared head");
    let text = b.js("return [...document.querySelectorAll(`[data-testid='projection-note']`)].map(n => n.textContent).join(' | ');", vec![]).await;
    let text = text.as_str().unwrap_or_default();
    assert!(text.contains("rotary positions") && text.contains("1 K/V head(s) for its 2 query heads"), "{text}");
    b.catch_downloads().await;
    b.click("export-json").await;
    let files = b.downloads().await;
    let trace: serde_json::Value = serde_json::from_str(files[0]["text"].as_str().unwrap_or_default()).expect("JSON");
    assert_eq!((trace["kv_heads"].as_u64(), trace["positions"].as_str()), (Some(1), Some("rope")));
    b.assert_no_panic().await;
    b.close().await;
}

/// The model opened in the lesson generates too (issue 27): from the lesson's weights note to
/// the training view's generator, set on the saved model, which writes its prompt's digits
/// backwards; the link keeps the choice.
pub async fn the_model_opened_in_the_lesson_generates_in_the_training_view() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en&view=learn")).await;
    b.click("learn-train").await;
    assert_eq!(wait_until(&b, REACHED_99, json!(true), 60).await, json!(true), "reverse reached 99 %");
    b.click("learn-open-lesson").await;
    let note = "const n = document.querySelector(`[data-testid='weights-note']`); return n ? n.dataset.weights : '';";
    assert_eq!(wait_until(&b, note, json!("yours"), 10).await, json!("yours"));
    b.click("lesson-generate").await;
    let source = "return document.querySelector(`[data-testid='gen-source']`)?.value ?? '';";
    assert_eq!(wait_until(&b, source, json!("saved"), 10).await, json!("saved"), "the saved model is chosen");
    let url = b.address().await;
    assert!(url.as_str().is_some_and(|u| u.contains("view=learn") && u.contains("lgen=saved")), "{url}");
    // The learner lands on the panel, not at the top of the view 3,000 px above it.
    let seen = "const r = document.querySelector(`[data-testid='gen-panel']`).getBoundingClientRect(); return r.top >= -1 && r.top < innerHeight - 100;";
    b.until(seen, "the generation panel is on the screen", 10).await;
    b.shot("generate-from-the-lesson").await;
    b.set_and_change("gen-prompt", "3 8 1 5 0 2 2 7 |").await;
    b.click("gen-run").await;
    let done = "return document.querySelector(`[data-testid='gen-output']`).textContent;";
    assert_eq!(wait_until(&b, done, json!("7 2 2 0 5 1 8 3"), 10).await, json!("7 2 2 0 5 1 8 3"));
    b.assert_no_panic().await;
    b.close().await;
}
