// The game in words: events ("Bot 1 discards East", "You discard East"), actions and names,
// in the chosen language.

import { t, has } from "./i18n.js";
import { tileName } from "./tiles.js";

/** `key.you` when the subject is the viewer and the catalogue has it, else `key`. */
function subject(key, chair, who) {
  return chair !== null && chair !== undefined && chair === who.me && has(key + ".you") ? key + ".you" : key;
}

/** Names and the viewer for describing events: `nameOf(chair)` and `me` (a chair or null). */
export function describeEvent(e, who) {
  const name = (p) => (p === who.me ? t("common.you") : who.nameOf(p));
  // The viewer as an object mid-sentence: "claims East from you".
  const object = (p) => (p === who.me ? t("common.you_object") : who.nameOf(p));
  const say = (key, chair, params = {}) => t(subject(key, chair, who), { who: name(chair), ...params });
  switch (e.type) {
    case "seats_chosen": return say("ev.seats_chosen", e.dealer);
    case "hand_started":
      return say("ev.hand_started", e.dealer, { n: e.hand_number, wind: t("seat." + e.prevailing_wind) }) + (e.lao > 1 ? t("ev.lao", { n: e.lao }) : "");
    case "wall_broken": return t("ev.wall_broken", { side: e.side + 1, stack: e.stack });
    case "flower_declared": return say("ev.flower_declared", e.player, { tile: tileName(e.tile) });
    case "indicator_revealed": return t("ev.indicator_revealed", { tile: tileName(e.tile), wild: tileName(e.wildcard) });
    case "drew": return say("ev.drew", e.player, { tile: tileName(e.tile) });
    case "replacement_drawn": return say("ev.replacement_drawn", e.player, { tile: tileName(e.tile) });
    case "discarded": return say(e.gambit ? "ev.discarded_gambit" : "ev.discarded", e.player, { tile: tileName(e.tile) });
    case "claimed": return say("ev.claimed", e.player, { tile: tileName(e.tile), from: object(e.from), meld: t("meld." + e.meld.kind) });
    case "kong_declared": return say("ev.kong_declared", e.player, { tile: tileName(e.tile) });
    case "kong_robbed": return say("ev.kong_robbed", e.player, { from: object(e.from) });
    case "won": return say("ev.won", e.player, { how: t("win." + e.win), tile: tileName(e.tile), total: e.scored.total });
    case "exhaustive_draw": return t("ev.exhaustive_draw");
    case "hand_ended": return t("ev.hand_ended");
    default: return null;
  }
}

/** A legal action as a button label. */
export function actionLabel(a) {
  if (typeof a === "string") return has("action." + a) ? t("action." + a) : a;
  if (a.discard) return t("action.discard", { tile: tileName(a.discard) });
  // The tiles as the language lists them ("4 Characters, 5 Characters, 6 Characters",
  // "四万、五万、六万"): no spaces between Chinese words.
  if (a.chow) return t("action.chow", { tiles: a.chow.tiles.map(tileName).join(t("common.list_sep")) });
  if (a.concealed_kong) return t("action.concealed_kong", { tile: tileName(a.concealed_kong) });
  if (a.added_kong) return t("action.added_kong", { tile: tileName(a.added_kong) });
  return JSON.stringify(a);
}

/** A pattern's value with its unit: "×2" for a multiplier, "3 fan", "2 points". */
export function patternValue(p) {
  return /^multiplier$/i.test(p.unit) ? "×" + p.value : p.value + " " + unitName(p.unit);
}

/** A pattern's name by id, falling back to the server's English name. */
export function patternName(p) {
  return has("pattern." + p.id) ? t("pattern." + p.id) : p.name;
}

/** A scoring unit in words. */
export function unitName(unit) {
  return has("unit." + unit) ? t("unit." + unit) : unit;
}

/** A rule set's display name. */
export function rulesName(name) {
  return has("rules." + name) ? t("rules." + name) : name;
}

/** A seat wind in words. */
export function seatName(seat) { return t("seat." + seat); }

/** A payment's reason (`{key, args}` from the server) in words: the catalogue's
 * `reason.<key>` with its numbers; a list of shares reads "2 + 1 + 1", the reasons a limited
 * payment joins are worded one by one. `fallback` (the English text) when the key is unknown. */
export function reasonText(r, fallback = "") {
  if (!r || typeof r !== "object" || !has("reason." + r.key)) return fallback || "";
  const args = {};
  for (const [k, v] of Object.entries(r.args || {})) {
    if (!Array.isArray(v)) args[k] = v;
    else if (v.length && typeof v[0] === "object") args[k] = v.map((x) => reasonText(x)).join(t("reason.join"));
    else args[k] = v.join(" + ");
  }
  return t("reason." + r.key, args);
}

/** A house-rule option's meaning: the catalogue's `option.<rules>.<key>`, else the server's
 * English `meaning`. */
export function optionMeaning(rules, o) {
  const key = "option." + rules + "." + o.key;
  return has(key) ? t(key) : o.meaning;
}

/** What an option takes, from its `allowed` description: "a whole number from 0 to 64", "yes
 * or no", one of the listed values, … (the server's `allowed_text` when the kind is unknown). */
export function allowedText(o) {
  const a = o.allowed || {};
  switch (a.kind) {
    case "bool": return t("allowed.bool");
    case "whole": return a.min === a.max ? t("allowed.exactly", { n: a.min }) : a.max > 1e12 ? t("allowed.at_least", { min: a.min }) : t("allowed.whole", { min: a.min, max: a.max });
    case "whole_or_none": return a.max > 1e12 ? t("allowed.at_least_or_none", { min: a.min }) : t("allowed.whole_or_none", { min: a.min, max: a.max });
    case "one_of": return t("allowed.one_of", { values: a.values.map((v) => optionValueName(v)).join(t("common.list_sep")) });
    case "form": return t("allowed.form", { examples: (a.examples || []).join(t("common.list_sep")) });
    default: return o.allowed_text || "";
  }
}

/** A choice's value in words (`value.<v>`), else as written. */
export function optionValueName(v) {
  return has("value." + v) ? t("value." + v) : String(v);
}
