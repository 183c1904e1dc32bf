// i18n: the string catalogues (web/i18n/en.json, zh.json, zh-Hant.json), the chosen language remembered in
// localStorage, and the language switch shown on every page.

const STORAGE_KEY = "majiang.lang";
/** The languages offered, with their own names. */
export const LANGUAGES = [["en", "English"], ["zh", "简体中文"], ["zh-Hant", "繁體中文"]];

/** The `lang` attribute of the page for each language. */
const HTML_LANG = { en: "en", zh: "zh-CN", "zh-Hant": "zh-HK" };

let lang = "en";
let strings = {};
let english = {};
const listeners = [];

function initialLanguage() {
  // `?lang=zh` in the address chooses (and remembers) a language, e.g. in a shared link.
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.some(([code]) => code === asked)) {
    try { localStorage.setItem(STORAGE_KEY, asked); } catch (_) { /* storage off */ }
    return asked;
  }
  let saved = null;
  try { saved = localStorage.getItem(STORAGE_KEY); } catch (_) { /* storage off */ }
  if (LANGUAGES.some(([code]) => code === saved)) return saved;
  const nav = (navigator.language || "").toLowerCase();
  if (/^zh-(hk|tw|mo|hant)/.test(nav)) return "zh-Hant";
  return nav.startsWith("zh") ? "zh" : "en";
}

/** This build's `?v=` (this module's own), so the catalogues are cached as long as it is. */
const VERSION = new URL(import.meta.url).search;

async function fetchCatalogue(code) {
  try {
    const res = await fetch("/i18n/" + code + ".json" + VERSION);
    return res.ok ? await res.json() : {};
  } catch (_) {
    return {};
  }
}

/** Loads the catalogue of `code` (by default the one the address asks for, else the remembered
 * one) and English, the fallback. */
export async function loadLanguage(code = initialLanguage()) {
  lang = code;
  // Both at once: the page waits for the slower, not for the two in turn.
  const [en, own] = await Promise.all([fetchCatalogue("en"), lang === "en" ? null : fetchCatalogue(lang)]);
  english = en;
  strings = own || english;
  document.documentElement.lang = HTML_LANG[lang] || "en";
}

/** The current language code. */
export function currentLanguage() { return lang; }

/** Whether the catalogue has `key`. */
export function has(key) { return key in strings || key in english; }

/** The string for `key` with `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  const s = strings[key] ?? english[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Calls `f` after every language change (pages re-render with it). */
export function onLanguageChange(f) { listeners.push(f); }

/** Switches to `code`, remembers it and re-renders. */
export async function setLanguage(code) {
  try { localStorage.setItem(STORAGE_KEY, code); } catch (_) { /* storage off */ }
  // The switch wins over a `?lang=` in the address.
  await loadLanguage(code);
  translateStatic();
  for (const f of listeners) f();
}

/** Fills every element marked `data-i18n` (text), `data-i18n-title` and `data-i18n-placeholder`. */
export function translateStatic(root = document) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll("[data-i18n-title]")) e.title = t(e.dataset.i18nTitle);
  for (const e of root.querySelectorAll("[data-i18n-placeholder]")) e.placeholder = t(e.dataset.i18nPlaceholder);
  for (const e of root.querySelectorAll("[data-i18n-aria]")) e.setAttribute("aria-label", t(e.dataset.i18nAria));
  for (const b of document.querySelectorAll("#lang-switch button")) b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
}

/** Puts the language buttons into `#lang-switch`. */
export function mountLanguageSwitch() {
  const box = document.querySelector("#lang-switch");
  if (!box) return;
  box.innerHTML = "";
  for (const [code, name] of LANGUAGES) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.lang = code;
    // A language's own name, read in that language.
    b.setAttribute("translate", "no");
    b.lang = code === "en" ? "en" : code === "zh" ? "zh-CN" : "zh-HK";
    b.textContent = name;
    b.addEventListener("click", () => setLanguage(code));
    box.append(b);
  }
  translateStatic();
}
