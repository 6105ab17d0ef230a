// Attention Lab's service worker: keeps every file of this build so the site works with the
// network (or the server) gone. Written by scripts/postbuild.py, which fills in the list of
// files and a version that changes whenever any file does. A newer version installs beside
// the one running and waits until a page asks it to take over ("skip-waiting", sent when the
// learner accepts the offer to reload), so an open tab is never switched under its feet.
const VERSION = "__VERSION__";
const CACHE = "attention-lab-" + VERSION;
const ASSETS = __ASSETS__;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)));
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("attention-lab-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // The page itself: the newest when online, the kept copy when not.
    event.respondWith(
      fetch(request).catch(() => caches.match("./", { ignoreSearch: true }).then((r) => r || caches.match("./index.html"))),
    );
    return;
  }
  // Everything else has a content hash in its name: the kept copy is always right.
  event.respondWith(caches.match(request, { ignoreSearch: true }).then((r) => r || fetch(request)));
});
