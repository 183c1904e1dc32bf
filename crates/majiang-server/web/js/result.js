// The end of a hand, shown: every hand face up (winning tile marked, each wildcard with the
// tile it stood for), the pattern table, each payment with its reason, and the net payments.
// The table shows it when a hand ends; the replay shows it as a step.

import { el, signClass, signed } from "./dom.js";
import { t, has } from "./i18n.js";
import { tileImg, parseTiles, tileName } from "./tiles.js";
import { renderMelds } from "./board.js";
import { patternName, patternValue, reasonText } from "./words.js";

/** The title line: who won how, or a drawn hand. `me` is the viewer's chair or null. */
export function resultTitle(s, nameOf, me) {
  const o = s.outcome || {};
  const n = s.hand_number;
  if (o.type !== "win") return t("result.drawn", { n });
  const you = o.winner === me ? ".you" : "";
  if (o.discarder === null || o.discarder === undefined) return t("result.wins_self" + you, { who: nameOf(o.winner), n });
  if (me !== null && o.discarder === me) return t("result.wins_discard.from_you", { who: nameOf(o.winner), n });
  return t("result.wins_discard" + you, { who: nameOf(o.winner), from: nameOf(o.discarder), n });
}

/** One revealed hand: concealed tiles (the winning tile marked, wildcards with what they stood
 * for), melds and flowers. */
function revealRow(r, n, seats, nameOf, winner) {
  const tiles = parseTiles(r.concealed);
  const row = el("div", { class: "reveal-tiles" });
  let marked = false;
  const wildAs = (r.wildcards || []).slice();
  // The winning tile is shown last and marked; it is taken once out of the concealed tiles.
  if (r.winning_tile) {
    const i = tiles.lastIndexOf(r.winning_tile);
    if (i >= 0) tiles.splice(i, 1);
  }
  for (const x of tiles) {
    const k = wildAs.findIndex((w) => w.tile === x);
    if (k >= 0) {
      const w = wildAs.splice(k, 1)[0];
      row.append(el("span", { class: "wild-as" }, tileImg(x, "small"), el("small", {}, t("result.wild_as", { tile: tileName(w.as) }))));
    } else row.append(tileImg(x, "small"));
  }
  if (r.winning_tile) {
    marked = true;
    row.append(el("span", { class: "winning-wrap", title: t("result.winning_tile") }, tileImg(r.winning_tile, "small winning"), el("small", {}, t("result.winning_tile"))));
  }
  const pub = { seat: seats[r.player], melds: r.melds || [], flowers: r.flowers || [] };
  return el("div", { class: "reveal" + (r.player === winner ? " winner" : "") + (marked ? " has-winning" : ""), "data-chair": String(r.player) },
    el("div", { class: "reveal-name" }, nameOf(r.player)), row, renderMelds(pub, n));
}

/** ": " and a payment's reason in the chosen language, or nothing. */
function reasonOf(p) {
  const why = reasonText(p.reason, p.text);
  return why ? t("common.colon") + why : "";
}

/** The summary of hand settlement `s` with the server's `reveal` and `payments_explained`
 * (either may be missing). `seats` are the seat winds by chair; `ledger` the totals after. */
export function renderSummary(s, { reveal = null, explained = null, seats = [], nameOf, me = null }) {
  const box = el("div", { class: "summary" });
  const o = s.outcome || {};
  box.append(el("h2", { id: "result-title" }, resultTitle(s, nameOf, me)));
  if (reveal && reveal.length) {
    const hands = el("div", { class: "reveals" });
    for (const r of reveal) hands.append(revealRow(r, seats.length || reveal.length, seats, nameOf, o.winner));
    box.append(el("h3", {}, t("result.hands")), hands);
  } else if (o.type === "win") {
    box.append(el("div", { class: "reveal-tiles" }, tileImg(o.tile, "winning"), " ", t("result.winning_tile")));
  }
  if (o.type === "win" && o.scored) {
    const pats = el("table", { id: "patterns" });
    for (const p of o.scored.patterns) pats.append(el("tr", {}, el("td", {}, patternName(p)), el("td", { class: "mono" }, patternValue(p))));
    pats.append(el("tr", {}, el("th", {}, t("result.total")), el("th", { class: "mono" }, o.scored.total)));
    box.append(el("h3", {}, t("result.patterns")), pats);
  }
  box.append(el("h3", {}, t("result.payments")));
  // The payments one by one: the server's list, else the ones the win carries (the replay).
  if (!(explained && explained.length) && o.type === "win" && o.scored) explained = o.scored.itemised || null;
  if (explained && explained.length) {
    const list = el("ul", { id: "payments-explained" });
    const object = (chair) => (me !== null && chair === me ? t("common.you_object") : nameOf(chair));
    for (const p of explained) {
      const key = me !== null && p.from === me ? "result.pays.you" : "result.pays";
      list.append(el("li", {}, el("b", {}, t(key, { from: nameOf(p.from), to: object(p.to), amount: p.amount })), reasonOf(p)));
    }
    box.append(list);
  }
  const pays = el("table", { id: "payments" });
  (s.payments || []).forEach((p, chair) => pays.append(el("tr", {}, el("td", {}, nameOf(chair)), el("td", { class: "mono " + signClass(p) }, signed(p)))));
  box.append(pays);
  if (s.ended) {
    const why = has("result.ended." + s.ended) ? t("result.ended." + s.ended) : String(s.ended).replace(/_/g, " ");
    box.append(el("p", {}, t("result.match_over", { why })));
  }
  return box;
}

/** The reveal a replay frame can build itself: every concealed hand, melds and flowers, the
 * winner's winning tile. */
export function revealFromFrame(view, concealed, won) {
  return view.table.map((pub, chair) => ({
    player: chair,
    concealed: won && won.player === chair && won.hand ? won.hand : parseTiles(concealed[chair] || ""),
    melds: pub.melds,
    flowers: pub.flowers,
    winning_tile: won && won.player === chair ? won.tile : undefined,
  }));
}
