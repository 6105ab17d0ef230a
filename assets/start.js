// The page's start, as Trunk's loader reports it (index.html names this file as the page's
// initializer): when the page's .wasm cannot be fetched or started (a file that did not
// arrive, an engine's own limit, which Rust's panic notice cannot see), the page says so, in
// both languages since it has no settings yet, instead of staying blank. WebKit reports
// such a failure nowhere else: not in the console, not as an error event.
export default function start() {
  return {
    onFailure(reason) {
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
