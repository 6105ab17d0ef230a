// The page's start, as Trunk's loader reports it (index.html names this file as the page's
// initializer): when the page's .wasm cannot be fetched or started (a file that did not
// arrive, an engine's own limit, which Rust's panic notice cannot see), the page says so, in
// both languages since it has no settings yet, instead of staying blank. WebKit reports
// such a failure nowhere else: not in the console, not as an error event.
//
// One failure is met by loading the page once more instead: a trap in the engine while the
// page starts (a WebAssembly.RuntimeError), or a panic then (its notice showing; the same
// fault can show as one). WebKitGTK 2.50 has been seen to run a correct start wrongly, rarely (README,
// "WebKit and WebAssembly memories"), and a reload is what the notice would ask of the
// student anyway: every setting is in the address, so nothing is lost. Once a minute at most,
// so that a start that always traps says so instead of loading forever. The modules of views
// (scripts/postbuild.py's start scripts) meet a trap while they start the same way, with this
// same function: one reload a minute for the page and its modules together.
const RESTARTED = "attention-lab-restarted-at";

/** Load the page once more if `reason` is the engine's trap (not a panic, unless `panicked` is
 * allowed) and it was not done in the last minute; whether it did. */
export function restartOnce(reason, panicked = false) {
  if (!(reason instanceof WebAssembly.RuntimeError)) return false;
  if (!panicked && document.querySelector("[data-testid=panic]")) return false;
  try {
    const last = Number(sessionStorage.getItem(RESTARTED));
    if (last && Date.now() - last < 60000) return false;
    sessionStorage.setItem(RESTARTED, String(Date.now()));
  } catch {
    return false; // no session storage (a private mode): no way to know it was tried
  }
  console.warn("the page could not start, loading it once more:", String(reason));
  location.reload();
  return true;
}

// A page the system ended (iOS ends a tab that holds too much memory without a word, and
// loads it again when the student comes back) says so, once: the page marks itself open in the
// tab's session storage as it starts and closed as it goes (`pagehide`: a reload, a link, the
// tab closed); a start that finds it still open follows an end that never said goodbye. Every
// setting is in the address and a kept model in the browser's storage, so the page is where it
// was (a training run under way is not: it lives in its workers); the note says so and goes
// with a click.
const SESSION = "attention-lab-session";

/** Whether the page that was here before this one was ended without going (`null` when the
 * tab keeps no session storage). */
function endedBefore() {
  try {
    const before = sessionStorage.getItem(SESSION);
    sessionStorage.setItem(SESSION, "open");
    const closed = () => sessionStorage.setItem(SESSION, "closed");
    addEventListener("pagehide", closed);
    addEventListener("pageshow", (e) => e.persisted && sessionStorage.setItem(SESSION, "open"));
    return before === "open";
  } catch {
    return null;
  }
}

/** Say, once, that the page was loaded again after the browser ended it. */
function sayReloaded() {
  const params = new URLSearchParams(location.search);
  const lang = params.get("lang") || (navigator.language || "").slice(0, 2);
  const zh = lang.startsWith("zh");
  const note = document.createElement("div");
  note.className = "reload-notice";
  note.setAttribute("role", "status");
  note.dataset.testid = "reload-notice";
  note.lang = zh ? "zh-CN" : "en";
  const text = document.createElement("p");
  text.textContent = zh
    ? "页面已重新加载：浏览器结束了它，可能是为了释放内存。设置都保存在链接里，所以页面回到了原处；从训练视图保存的模型也还在这个浏览器中，但正在进行的训练需要重新开始。"
    : "The page was loaded again: the browser ended it, perhaps to free memory. Every setting is kept in the link, so the page is where it was, and a model you kept from the training view is still in this browser; a training run that was under way starts again.";
  const ok = document.createElement("button");
  ok.type = "button";
  ok.className = "button";
  ok.dataset.testid = "reload-notice-ok";
  ok.textContent = zh ? "知道了" : "OK";
  ok.addEventListener("click", () => note.remove());
  note.append(text, ok);
  document.body.prepend(note);
}

export default function start() {
  const ended = endedBefore();
  return {
    onSuccess() {
      if (ended) sayReloaded();
    },
    onFailure(reason) {
      // A panic while the page's tree is first built is met as a trap is: the same process
      // fault shows as garbage its reactive graph reads, "a reactive value that has already
      // been disposed" (README, "WebKit and WebAssembly memories"), and the page has not run,
      // so loading it once more loses nothing. A panic of the page's own that happens at every
      // start still shows its notice, after the one reload.
      if (restartOnce(reason, true)) return;
      console.error("the page could not start:", reason);
      if (document.querySelector("[data-testid=start-failed]")) return;
      const notice = document.createElement("div");
      notice.className = "panic-notice";
      notice.setAttribute("role", "alert");
      notice.dataset.testid = "start-failed";
      notice.textContent =
        "The page could not start. Please reload. / 页面无法启动，请重新加载。 (" + String(reason) + ")";
      document.body.prepend(notice);
    },
  };
}
