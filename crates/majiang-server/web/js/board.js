// The board shared by the table and the replay, laid out as a table: each player along an edge
// (name, tile backs, melds with the claimed tile turned, flowers) with their river of discards
// in front of them towards the middle (the last discard lit), the viewer at the bottom, and the
// compass with the seat winds, the seat to act and the wall count in the centre.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { tileImg, backImg, meldTiles, parseTiles } from "./tiles.js";

/** Seat winds in turn order, by table size. */
const SEAT_ORDER = {
  3: ["east", "south", "north"],
  4: ["east", "south", "west", "north"],
  5: ["east", "south", "west", "north", "north_east"],
  6: ["east", "south", "south_west", "west", "north", "north_east"],
};

/** Where a meld's claimed tile sits: from the left neighbour first, opposite middle, right last. */
function turnedIndex(meld, ownerSeat, n) {
  if (!meld.from) return -1;
  const order = SEAT_ORDER[n] || SEAT_ORDER[4];
  const i = order.indexOf(ownerSeat), j = order.indexOf(meld.from);
  if (i < 0 || j < 0) return -1;
  const rel = (j - i + n) % n;
  const size = meld.kind === "kong" ? 4 : 3;
  if (rel === n - 1) return 0;
  if (rel === 1) return size - 1;
  return 1;
}

/** One meld, the claimed tile turned towards the player it came from. */
export function renderMeld(meld, ownerSeat, n, cls = "small") {
  const box = el("span", { class: "meld", "data-kind": meld.kind });
  let tiles = meldTiles(meld);
  if (meld.kind === "concealed_kong") {
    box.append(backImg(cls), tileImg(tiles[1], cls), tileImg(tiles[2], cls), backImg(cls));
    return box;
  }
  const turned = turnedIndex(meld, ownerSeat, n);
  // The claimed tile is the turned one: a chow's, or an extra-wind meld's (3f 5f 6f).
  const at = meld.claimed ? tiles.indexOf(meld.claimed) : -1;
  if (turned >= 0 && at >= 0 && tiles.some((x) => x !== meld.claimed)) {
    const rest = tiles.filter((_, k) => k !== at);
    rest.splice(Math.min(turned, rest.length), 0, meld.claimed);
    tiles = rest;
  }
  tiles.forEach((x, k) => box.append(tileImg(x, cls + (k === turned ? " turned" : ""))));
  return box;
}

/** Melds and flowers of one player. */
export function renderMelds(pub, n, cls = "small") {
  const row = el("div", { class: "melds" });
  for (const m of pub.melds) row.append(renderMeld(m, pub.seat, n, cls));
  for (const f of pub.flowers) row.append(tileImg(f, cls + " flower"));
  return row;
}

/** A player's discards in order; the latest discard of the hand lit when it is theirs. */
export function renderDiscards(pub, obs) {
  const row = el("div", { class: "discards" });
  const last = obs.last_discard && obs.last_discard[0] === pub.player ? pub.discards.length - 1 : -1;
  pub.discards.forEach((r, i) => {
    const cls = "small" + (r.claimed ? " claimed" : "") + (r.gambit ? " gambit" : "") + (i === last && !r.claimed ? " last-discard" : "");
    row.append(tileImg(r.tile, cls));
  });
  return row;
}

/** One player's place at the table. `pos` is where it sits round the viewer (`top`, `left`,
 * `right`, `bottom`): along the edge the name, seat wind, dealer mark and away badge, the
 * concealed tiles (open in a replay, else as tile backs) with the melds and flowers beside them;
 * nearer the centre the river of discards. `melds: false` leaves the melds to the hand row. */
export function renderPlayerBox(pub, obs, { nameOf, concealed = null, self = false, deadlineText = null, pos = "bottom", away = false, melds = true }) {
  const n = obs.table.length;
  const onTurn = obs.turn === pub.player;
  const box = el("div", { class: "player-box pos-" + pos + (onTurn ? " on-turn" : "") + (self ? " self" : ""), "data-chair": String(pub.player) });
  const head = el("div", { class: "player-head" },
    el("span", { class: "seat-wind", title: t("seat." + pub.seat) }, t("seat.short." + pub.seat)),
    el("span", { class: "player-name", translate: "no" }, nameOf(pub.player)),
    obs.dealer === pub.player ? el("span", { class: "dealer-mark", title: t("table.dealer_title") }, t("table.dealer_mark")) : null,
    away ? el("span", { class: "away-badge" }, t("common.away")) : null,
    pub.gambit_run ? el("span", { class: "gambit-mark" }, t("table.gambits", { n: pub.gambit_run })) : null,
    onTurn && deadlineText ? el("span", { class: "turn-timer" }, deadlineText) : null);
  const edge = el("div", { class: "edge" }, head);
  if (concealed) {
    const row = el("div", { class: "concealed" });
    for (const x of parseTiles(concealed)) row.append(tileImg(x, "small"));
    edge.append(row);
  } else if (!self) {
    // The count too: on a phone one back and the number stand for the row (style.css).
    const backs = el("div", { class: "backs", role: "img", "aria-label": t("table.concealed_count", { n: pub.concealed_count }), "data-count": String(pub.concealed_count) });
    for (let k = 0; k < pub.concealed_count; k++) backs.append(backImg("small edge-back"));
    edge.append(backs);
  }
  if (melds) edge.append(renderMelds(pub, n));
  const river = renderDiscards(pub, obs);
  river.classList.add("river");
  river.setAttribute("aria-label", t("table.river_of", { name: nameOf(pub.player) }));
  box.append(edge, river);
  return box;
}

/** The compass: every chair's seat wind around the centre, the viewer at the bottom, the seat to
 * act lit; the wall count, the tile on offer and the countdown in the middle. */
export function renderCompass(obs, me, { nameOf, countdown = null }) {
  const n = obs.table.length;
  const box = el("div", { class: "compass", "data-seats": String(n) });
  for (let k = 0; k < n; k++) {
    const chair = (me + k) % n;
    const pub = obs.table[chair];
    // The viewer at the bottom, the next player to the right, counter-clockwise round.
    const angle = (90 - (k * 360) / n) * Math.PI / 180;
    const x = 50 + 38 * Math.cos(angle), y = 50 + 38 * Math.sin(angle);
    // The seat to act: whose turn it is, or during a claim window the viewer asked to answer.
    const answering = (obs.turn === null || obs.turn === undefined) && chair === obs.player && (obs.legal_actions || []).length > 0;
    const lit = obs.turn === chair || answering;
    box.append(el("div", { class: "compass-seat" + (lit ? " lit" : "") + (obs.dealer === chair ? " dealer" : ""), style: `left:${x}%;top:${y}%`, title: t("seat." + pub.seat), "aria-label": t("seat." + pub.seat), "data-chair": String(chair) },
      t("seat.short." + pub.seat)));
  }
  // The wall count in words, and short (a small compass of five or six seats on a phone
  // shows that one: the long one would run under the seat labels).
  const wall = t("table.wall", { n: obs.live_wall });
  const mid = el("div", { class: "compass-mid" }, el("div", { class: "wall-count", title: wall },
    el("span", { class: "wall-long" }, wall), el("span", { class: "wall-short", "aria-hidden": "true" }, t("table.wall_short", { n: obs.live_wall }))));
  if (obs.on_offer) mid.append(el("div", { class: "offer" }, tileImg(obs.on_offer[1], "offer-tile")));
  if (countdown) mid.append(el("div", { class: "countdown" }, countdown));
  box.append(mid);
  return box;
}

/** Positions of the opponents round the viewer: `left` (previous), `right` (next), and the
 * rest across the top in turn order from right to left. */
export function opponentsAround(me, n) {
  const right = (me + 1) % n, left = (me + n - 1) % n;
  const top = [];
  for (let k = n - 2; k >= 2; k--) top.push((me + k) % n);
  return { left, right, top };
}

/** Renders the board into `#board`: the opponents, the compass and the viewer's own box. */
export function renderBoard(obs, me, { nameOf, concealedAll = null, selfSeated = false, countdown = null, deadlineText = null, isAway = () => false }) {
  const n = obs.table.length;
  const around = opponentsAround(me, n);
  const box = (chair, pos) => renderPlayerBox(obs.table[chair], obs, { nameOf, concealed: concealedAll ? concealedAll[chair] : null, deadlineText, pos, away: isAway(chair) });
  const top = $("#seat-top");
  top.innerHTML = "";
  top.dataset.count = String(around.top.length);
  for (const chair of around.top) top.append(box(chair, "top"));
  $("#seat-left").replaceChildren(box(around.left, "left"));
  $("#seat-right").replaceChildren(n > 2 ? box(around.right, "right") : "");
  $("#centre").replaceChildren(renderCompass(obs, me, { nameOf, countdown }));
  $("#me").replaceChildren(renderPlayerBox(obs.table[me], obs, { nameOf, self: selfSeated, concealed: concealedAll ? concealedAll[me] : null, deadlineText, pos: "bottom", away: isAway(me), melds: !selfSeated }));
  $("#board").dataset.seats = String(n);
  fitBoard();
}

/** The narrowest a river tile may be, in CSS pixels (readable on a phone). */
const MIN_SMALL_W = 16;

/** How much room the board's content needs: the rows' natural heights and the widest row,
 * with gaps and padding. On a phone (style.css) the side players run down beside both the
 * compass and the own river ("left me right"); on a desktop the own row spans the board. */
function boardDemand(board) {
  const cs = getComputedStyle(board);
  const px = (v) => parseFloat(v) || 0;
  // Width with what overflows and the borders; height as drawn.
  const size = (e) => (e && e.getClientRects().length ? [Math.max(e.offsetWidth, e.scrollWidth + e.offsetWidth - e.clientWidth), e.getBoundingClientRect().height] : [0, 0]);
  const [rowGap, colGap] = [px(cs.rowGap), px(cs.columnGap)];
  // The top row: its players side by side (a centred row's overflow on the left is not in its
  // scrollWidth, so the players are added up).
  const topRow = $("#seat-top");
  const players = topRow ? [...topRow.children].map(size) : [];
  const top = players.length ? [players.reduce((w, p) => w + p[0], 0) + (players.length - 1) * px(getComputedStyle(topRow).columnGap), Math.max(...players.map((p) => p[1]))] : [0, 0];
  const me = size($("#me").firstElementChild);
  const [left, centre, right] = [$("#seat-left"), $("#centre"), $("#seat-right")].map((e) => size(e && e.firstElementChild));
  const gapAfterTop = top[1] > 0 ? rowGap : 0;
  let h, w;
  if (/left\s+me\s+right/.test(cs.gridTemplateAreas)) {
    const middle = centre[1] + (me[1] > 0 ? rowGap + me[1] : 0);
    h = top[1] + gapAfterTop + Math.max(left[1], right[1], middle);
    // The side columns are equal halves of what the middle leaves: the wider side counts twice.
    w = Math.max(top[0], 2 * Math.max(left[0], right[0]) + Math.max(centre[0], me[0]) + 2 * colGap);
  } else {
    h = top[1] + gapAfterTop + Math.max(left[1], centre[1], right[1]) + (me[1] > 0 ? rowGap + me[1] : 0);
    w = Math.max(top[0], 2 * Math.max(left[0], right[0]) + centre[0] + 2 * colGap, me[0]);
  }
  // A few pixels to spare for rounding and the last discard's outline.
  const spare = 6;
  return { w: w + px(cs.paddingLeft) + px(cs.paddingRight) + spare, h: h + px(cs.paddingTop) + px(cs.paddingBottom) + spare };
}

/** Shrinks the board's small tiles (never under 16 px) until its content fits the felt, so
 * long rivers at six seats on a small phone neither overflow the felt nor slide under the
 * compass; the style sheet's size is the start. Runs after each render and on resize. */
export function fitBoard() {
  const board = $("#board");
  if (!board || board.hidden || !board.isConnected) return;
  board.style.removeProperty("--small-w");
  const probe = board.querySelector(".river");
  if (!probe) return;
  let size = parseFloat(getComputedStyle(probe).gridTemplateColumns) || 0;
  for (let round = 0; round < 12 && size > MIN_SMALL_W; round++) {
    const need = boardDemand(board);
    const scale = Math.min(board.clientHeight / need.h, board.clientWidth / need.w);
    if (!(scale < 1)) return;
    // Names and marks do not shrink with the tiles: step at least half a pixel.
    size = Math.max(MIN_SMALL_W, Math.min(size - 0.5, Math.floor(size * scale * 4) / 4));
    board.style.setProperty("--small-w", size + "px");
  }
}

if (typeof ResizeObserver !== "undefined") {
  let queued = false;
  new ResizeObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; fitBoard(); });
  }).observe(document.querySelector("#table-middle") || document.body);
}
