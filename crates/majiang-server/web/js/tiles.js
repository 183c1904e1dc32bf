// Tiles: notation, pictures (one served SVG sheet, `/tiles.svg`, framed per tile by its
// `#t-NAME` view) and names in words; the wildcard (Caishen) marked wherever a tile shows.

import { el } from "./dom.js";
import { t } from "./i18n.js";

/** The tile sheet at this build's version (this module's own `?v=`), so it is cached as long
 * as the module is. */
const SHEET = "/tiles.svg" + new URL(import.meta.url).search;

/** The address of `tile`'s picture on the sheet (`back` for a face-down tile). */
export function tileSrc(tile) { return SHEET + "#t-" + tile; }

let wildcard = null;
let extraWinds = false;

/** Marks the flower tiles as extra winds from now on (five- and six-player classic), or not. */
export function setExtraWinds(on) { extraWinds = !!on; }

/** Whether the rule set `ruleset` (as `GET /api/rulesets` describes it) plays extra winds at a
 * table of `players`: its `extra_winds` for that size, never its name. */
export function playsExtraWinds(ruleset, players) {
  return !!(ruleset && ruleset.extra_winds && ruleset.extra_winds[String(players)] > 0);
}

/** Whether `tile` is an extra wind at this table. */
export function isExtraWind(tile) { return extraWinds && /^\df$/.test(tile || ""); }

/** Sets the wild kind for the tiles drawn from now on (null: none). */
export function setWildcard(tile) { wildcard = tile || null; }

/** The wild kind now, if any. */
export function currentWildcard() { return wildcard; }

/** "123m55z" -> ["1m","2m","3m","5z","5z"]; an array is returned as it is. */
export function parseTiles(s) {
  if (Array.isArray(s)) return s.slice();
  const out = [];
  let digits = [];
  for (const c of s || "") {
    if (c >= "0" && c <= "9") digits.push(c);
    else { for (const d of digits) out.push(d + c); digits = []; }
  }
  return out;
}

/** A tile's name in words ("East", "5 Dots", "红中"). */
export function tileName(tile) {
  if (!tile) return t("tile.back");
  const key = "tile." + tile;
  const name = t(key);
  if (name === key) return tile;
  return isExtraWind(tile) ? t("tile.extra_wind", { name }) : name;
}

/** A tile picture. A wildcard comes wrapped with its Caishen label; the image keeps the class
 * `tile` (and `extra`) either way. */
export function tileImg(tile, extra = "") {
  const wild = wildcard && tile === wildcard;
  const wind = isExtraWind(tile);
  const img = el("img", { class: "tile " + extra + (wild ? " wild" : "") + (wind ? " extra-wind" : ""), src: tileSrc(tile), width: 60, height: 80, alt: tileName(tile), title: tileName(tile), "data-tile": tile });
  if (wind) return el("span", { class: "wind-wrap", title: tileName(tile) }, img, el("b", { class: "wind-label", "aria-hidden": "true" }, t("table.extra_wind_badge")));
  if (!wild) return img;
  return el("span", { class: "wild-wrap", title: t("table.caishen") + " · " + tileName(tile) }, img, el("b", { class: "wild-label" }, t("table.caishen_badge")));
}

/** A face-down tile. */
export function backImg(extra = "") {
  return el("img", { class: "tile back " + extra, src: tileSrc("back"), width: 60, height: 80, alt: t("tile.back") });
}

/** The tiles of a meld in order (a chow from its lowest tile). */
export function meldTiles(meld) {
  // Five- and six-player classic: a meld of extra winds names its own tiles (3f 5f 6f).
  if (meld.extra_winds && meld.extra_winds.length) return meld.extra_winds.slice();
  const suit = meld.tile.slice(-1), rank = Number(meld.tile.slice(0, -1));
  if (meld.kind === "chow") return [0, 1, 2].map((k) => (rank + k) + suit);
  return Array(meld.kind === "pung" ? 3 : 4).fill(meld.tile);
}
