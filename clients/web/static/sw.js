// The service worker: keeps the app shell (the page, its script, style, manifest and icons)
// so the arena opens with no network, and nothing else. The build puts SHELL (the shell's
// paths, the hashed names of this build) and VERSION (a hash of both) above this line.
// Game data never passes through here: gRPC-web calls are POSTs and the play socket is a
// WebSocket, neither of which this worker answers or keeps.
const CACHE = `pf-shell-${VERSION}`;
const HASHED = new Set(SHELL.filter((path) => path !== "/" && path !== "/manifest.webmanifest"));

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

// A new build's worker drops the shells of older builds.
self.addEventListener("activate", (event) => {
  const old = caches.keys().then((keys) => keys.filter((key) => key.startsWith("pf-shell-") && key !== CACHE));
  event.waitUntil(old.then((keys) => Promise.all(keys.map((key) => caches.delete(key)))).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (HASHED.has(url.pathname)) {
    // A hashed name never changes content: the kept copy is the file.
    event.respondWith(caches.match(url.pathname).then((kept) => kept ?? fetch(request)));
  } else if (request.mode === "navigate" || url.pathname === "/manifest.webmanifest") {
    // The page and the manifest name the current build: the network first, so a deploy is
    // seen at once; the kept copy only when the network fails.
    const kept = request.mode === "navigate" ? "/" : url.pathname;
    event.respondWith(fetch(request).catch(() => caches.match(kept).then((copy) => copy ?? Response.error())));
  }
});
