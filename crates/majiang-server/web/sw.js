// The service worker: keeps the UI's files so that a second visit loads them from here and
// the lobby opens without a connection. The build (build.rs) fills PRECACHE with the pages,
// the modules, the catalogues and the tile sheet at this build's version (`?v=`).
//
// - a file asked for at a version (`?v=`): from the cache, else the network (and kept);
// - a page: from the network (and kept), else the kept page, else the kept lobby, whose
//   scripts then say "you are offline";
// - the API and the WebSocket: the network only, never kept.

const PRECACHE = [];
const VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
const CACHE = "majiang-" + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("majiang-") && name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

/** From the cache, else from the network (a good answer kept). */
async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const res = await fetch(request);
  if (res.ok) cache.put(request, res.clone());
  return res;
}

/** A page from the network (kept), else as kept, else the kept lobby. */
async function page(request) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(request);
    if (res.ok) cache.put(new URL(request.url).pathname, res.clone());
    return res;
  } catch (offline) {
    const path = new URL(request.url).pathname;
    const kept = (await cache.match(path)) || (await cache.match("/"));
    if (kept) return kept;
    throw offline;
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (/^\/(api|ws|metrics|healthz)(\/|$)/.test(url.pathname)) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.searchParams.has("v")) event.respondWith(cacheFirst(request));
});
