// The scoring page's hands, built by tapping: the winner's concealed tiles, declared melds
// (with from whom), flowers and winning tile, and the other seats' hands; the on-screen tile
// keyboard that fills them, and the JSON of the scoring request (docs/score-json.md) they make.

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { tileImg, tileName } from "./tiles.js";

/** The 34 playing kinds, a row a suit, then the eight flowers and seasons. */
export const KEY_ROWS = [
  ["m", 9], ["p", 9], ["s", 9], ["z", 7],
].map(([suit, n]) => Array.from({ length: n }, (_, i) => (i + 1) + suit));
export const FLOWERS = Array.from({ length: 8 }, (_, i) => (i + 1) + "f");

/** What a tap on the keyboard adds: the modes, in the order their buttons show. */
export const MODES = ["concealed", "chow", "pung", "kong", "concealed_kong", "flower", "winning"];

/** An empty hand. */
export function emptyHand() { return { concealed: [], melds: [], flowers: [] }; }

const SUIT_ORDER = { m: 0, p: 1, s: 2, z: 3, f: 4 };
const byKind = (a, b) => SUIT_ORDER[a.slice(-1)] - SUIT_ORDER[b.slice(-1)] || Number(a.slice(0, -1)) - Number(b.slice(0, -1));

/** Tiles in notation, grouped by suit: ["1m","2m","5z"] -> "12m5z". */
export function notation(tiles) {
  let out = "", digits = "", suit = "";
  for (const tile of tiles.slice().sort(byKind)) {
    const s = tile.slice(-1);
    if (s !== suit && digits) { out += digits + suit; digits = ""; }
    suit = s;
    digits += tile.slice(0, -1);
  }
  return digits ? out + digits + suit : out;
}

/** The tiles of a meld: a chow from its lowest tile, a pung three, a kong four. */
export function meldTiles(meld) {
  const suit = meld.tile.slice(-1), rank = Number(meld.tile.slice(0, -1));
  if (meld.kind === "chow") return [0, 1, 2].map((k) => (rank + k) + suit);
  return Array(meld.kind === "pung" ? 3 : 4).fill(meld.tile);
}

/** How many of each tile every hand and the winning tile use, by tile. */
export function usedCounts(hands, winning) {
  const used = {};
  const add = (tile) => { used[tile] = (used[tile] || 0) + 1; };
  for (const h of Object.values(hands)) {
    h.concealed.forEach(add);
    h.flowers.forEach(add);
    for (const m of h.melds) meldTiles(m).forEach(add);
  }
  if (winning) add(winning);
  return used;
}

/** Whether `tile` can be added in `mode` given what is used; a reason key when not. */
export function refusal(tile, mode, used, isWinner) {
  const isFlower = tile.endsWith("f");
  if (mode === "flower") return isFlower ? (used[tile] ? "companion.key_used" : null) : "companion.key_not_flower";
  if (isFlower) return "companion.key_flower_only";
  if (mode === "winning" && !isWinner) return "companion.key_winner_only";
  const need = { chow: 1, pung: 3, kong: 4, concealed_kong: 4 }[mode] || 1;
  if (mode === "chow") {
    const rank = Number(tile.slice(0, -1));
    if (tile.endsWith("z") || rank > 7) return "companion.key_no_chow";
    const suit = tile.slice(-1);
    return [0, 1, 2].some((k) => (used[(rank + k) + suit] || 0) >= 4) ? "companion.key_used" : null;
  }
  return (used[tile] || 0) + need > 4 ? "companion.key_used" : null;
}

/** Adds `tile` to `hand` in `mode` (the winning tile goes to `state.winning`). */
export function addTile(state, hand, tile) {
  switch (state.mode) {
    case "concealed": hand.concealed.push(tile); break;
    case "flower": hand.flowers.push(tile); break;
    case "winning": state.winning = tile; break;
    default: hand.melds.push({ kind: state.mode, tile, from: "" });
  }
}

/** A hand's part of the request: `concealed`, `melds` and `flowers`. */
export function handJson(hand) {
  return {
    concealed: notation(hand.concealed),
    melds: hand.melds.map((m) => {
      const out = { kind: m.kind, tiles: notation(meldTiles(m)) };
      if (m.from && m.kind !== "concealed_kong") out.from = m.from;
      return out;
    }),
    flowers: hand.flowers.slice().sort(byKind),
  };
}

/** The keyboard: mode buttons and the tile keys, greyed where a tap would be refused. */
export function renderKeyboard(box, state, onMode, onTap) {
  const used = usedCounts(state.hands, state.winning);
  const isWinner = state.target === "winner";
  const modes = el("div", { class: "key-modes", role: "group", "aria-label": t("companion.key_mode") },
    ...MODES.filter((m) => isWinner || m !== "winning").map((m) => el("button", {
      type: "button", class: "mode", "data-mode": m, "aria-pressed": String(state.mode === m), onclick: () => onMode(m),
    }, t("companion.mode." + m))));
  const rows = state.mode === "flower" ? [FLOWERS] : KEY_ROWS;
  const grid = el("div", { class: "key-grid" }, ...rows.map((row) => el("div", { class: "key-row" }, ...row.map((tile) => {
    const why = refusal(tile, state.mode, used, isWinner);
    return el("button", {
      type: "button", class: "key", "data-tile": tile, "aria-disabled": why ? "true" : null,
      title: why ? tileName(tile) + " · " + t(why) : tileName(tile),
      onclick: () => onTap(tile, why),
    }, tileImg(tile));
  }))));
  box.replaceChildren(modes, grid);
}

/** The seat a meld may come from: any other seat at the table (a chow only from the left). */
function fromChoices(meld, seats, owner) {
  const others = seats.filter((s) => s !== owner);
  if (meld.kind !== "chow") return others;
  const i = seats.indexOf(owner);
  return [seats[(i + seats.length - 1) % seats.length]];
}

/** One hand as built so far, each tile tappable to take it back; melds with their source. */
export function renderHand(box, state, hand, owner, seatLabel, onChange) {
  const isWinner = state.target === "winner";
  const remove = (list, i) => () => { list.splice(i, 1); onChange(); };
  const concealed = el("div", { class: "hand-part", "data-part": "concealed" },
    el("span", { class: "part-label" }, t("companion.concealed") + " (" + hand.concealed.length + ")"),
    el("div", { class: "tiles" }, ...hand.concealed.map((tile, i) =>
      el("button", { type: "button", class: "tile-btn", title: t("companion.tap_to_remove"), onclick: remove(hand.concealed, i) }, tileImg(tile)))));
  const melds = el("div", { class: "hand-part", "data-part": "melds" },
    el("span", { class: "part-label" }, t("companion.melds")),
    ...hand.melds.map((m, i) => {
      const choices = fromChoices(m, state.seats, owner);
      const from = m.kind === "concealed_kong" ? el("span", { class: "muted" }, t("companion.concealed_kong_note")) :
        el("label", { class: "from" }, t("companion.from") + " ",
          el("select", { "data-meld": i, onchange: (e) => { m.from = e.target.value; onChange(); } },
            el("option", { value: "" }, t("companion.from_unknown")),
            ...choices.map((s) => el("option", { value: s, selected: m.from === s ? "" : null }, seatLabel(s)))));
      return el("div", { class: "meld-row" },
        el("span", { class: "meld-kind" }, t("meld." + m.kind)),
        el("span", { class: "tiles" }, ...meldTiles(m).map((x) => tileImg(x))),
        from,
        el("button", { type: "button", class: "remove", "aria-label": t("companion.remove"), onclick: remove(hand.melds, i) }, "✕"));
    }));
  const flowers = el("div", { class: "hand-part", "data-part": "flowers" },
    el("span", { class: "part-label" }, t("companion.flowers")),
    el("div", { class: "tiles" }, ...hand.flowers.map((tile, i) =>
      el("button", { type: "button", class: "tile-btn", onclick: remove(hand.flowers, i) }, tileImg(tile)))));
  const parts = [concealed, melds, flowers];
  if (isWinner) {
    parts.push(el("div", { class: "hand-part", "data-part": "winning_tile" },
      el("span", { class: "part-label" }, t("companion.winning_tile")),
      state.winning ? el("button", { type: "button", class: "tile-btn winning", onclick: () => { state.winning = null; onChange(); } }, tileImg(state.winning))
        : el("span", { class: "muted" }, t("companion.winning_tile_hint"))));
  }
  box.replaceChildren(...parts);
}
