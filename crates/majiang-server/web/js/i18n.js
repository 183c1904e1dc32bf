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

const CHINESE = /[\u3400-\u9fff\uf900-\ufaff]/;
const LATIN = /[A-Za-z0-9]/;

/** `a` then `b`, with a space between where a Chinese character meets a Latin letter or
 * digit (as Chinese typesetting does: "Bot 2 吃了你的一筒", "第 3 局"). */
function joinChinese(a, b) {
  if (!a || !b) return a + b;
  const x = a[a.length - 1], y = b[0];
  const gap = (CHINESE.test(x) && LATIN.test(y)) || (LATIN.test(x) && CHINESE.test(y));
  return a + (gap ? " " : "") + b;
}

/** The string for `key` with `{name}` placeholders filled from `params`. A Chinese sentence
 * is written without spaces around its placeholders; a filled-in name, tile or number gets
 * one only where Latin meets Chinese. */
export function t(key, params = {}) {
  const own = strings !== english && key in strings;
  const s = own ? strings[key] : english[key] ?? key;
  const fill = (m, name) => (name in params ? String(params[name]) : m);
  if (!own || lang === "en") return s.replace(/\{(\w+)\}/g, fill);
  let out = "";
  let last = 0;
  for (const m of s.matchAll(/\{(\w+)\}/g)) {
    out = joinChinese(joinChinese(out, s.slice(last, m.index)), fill(m[0], m[1]));
    last = m.index + m[0].length;
  }
  return joinChinese(out, s.slice(last));
}

/** The lobby's default bot names in every catalogue ("Bot 2", "机器人2", "電腦2", with or
 * without a space): `lobby.default_bot` of en, zh and zh-Hant (tests/chinese_words.rs keeps
 * them in step). */
const DEFAULT_BOT = /^(?:Bot|机器人|電腦) ?(\d+)$/;

/** A player's name as this viewer reads it: a default bot name in the viewer's language
 * (whoever created the room, in whatever language), any other name as written. */
export function playerName(name) {
  const m = DEFAULT_BOT.exec(name || "");
  return m ? t("lobby.default_bot", { n: Number(m[1]) }) : name;
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
