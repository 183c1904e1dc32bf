// Offline use: registers the service worker (sw.js, which keeps the UI's files for a second
// visit and for opening without a connection) and says "you are offline" at the top of the
// page while the browser is, or while the server cannot be reached.

import { $, el } from "./dom.js";
import { t, onLanguageChange } from "./i18n.js";

/** This build's `?v=` (this module's own): the worker of this build keeps this build's files. */
const VERSION = new URL(import.meta.url).search;

let unreachable = false;

/** Registers the service worker once the page has loaded (its downloads then find the
 * browser's cache filled by the page's own). */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const register = () => navigator.serviceWorker.register("/sw.js" + VERSION, { scope: "/" }).catch(() => { /* private mode, http */ });
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}

/** Whether the page is offline: the browser says so, or the server could not be reached. */
export function isOffline() { return unreachable || navigator.onLine === false; }

/** Notes that a request to the server failed (`false`) or went through (`true`). */
export function reached(ok) {
  unreachable = !ok;
  render();
}

function render() {
  let note = $("#offline-note");
  if (!note) {
    // Styled here, not in style.css (laid out by the table's own work): one bar above the page.
    note = el("p", { id: "offline-note", role: "status", hidden: true, style: "margin:0;padding:.4em .8em;background:#7a2d10;color:#fff;text-align:center" });
    const main = $("main") || document.body;
    main.prepend(note);
  }
  note.textContent = t("offline.note");
  note.hidden = !isOffline();
}

/** Shows the note now and whenever the connection comes or goes. */
export function watchConnection() {
  addEventListener("online", () => { unreachable = false; render(); });
  addEventListener("offline", render);
  onLanguageChange(render);
  render();
}
