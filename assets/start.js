// The page's start, as Trunk's loader reports it (index.html names this file as the page's
// initializer): when the page's .wasm cannot be fetched or started (a file that did not
// arrive, an engine's own limit, which Rust's panic notice cannot see), the page says so, in
// both languages since it has no settings yet, instead of staying blank. WebKit reports
// such a failure nowhere else: not in the console, not as an error event.
//
// One failure is met by loading the page once more instead: a trap in the engine while the
// page starts (a WebAssembly.RuntimeError that is not one of our panics, whose notice would
// be showing). WebKitGTK 2.50 has been seen to run a correct start wrongly, rarely (README,
// "WebKit and WebAssembly memories"), and a reload is what the notice would ask of the
// student anyway: every setting is in the address, so nothing is lost. Once a minute at most,
// so that a start that always traps says so instead of loading forever. The modules of views
// (scripts/postbuild.py's start scripts) meet a trap while they start the same way, with this
// same function: one reload a minute for the page and its modules together.
const RESTARTED = "attention-lab-restarted-at";

/** Load the page once more if `reason` is the engine's trap (not a panic) and it was not done in
 * the last minute; whether it did. */
export function restartOnce(reason) {
  if (!(reason instanceof WebAssembly.RuntimeError)) return false;
  if (document.querySelector("[data-testid=panic]")) return false;
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

export default function start() {
  return {
    onFailure(reason) {
      if (restartOnce(reason)) return;
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
