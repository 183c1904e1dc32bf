// The table page: one seat (or a spectator) in a room. State from the server, the waiting room,
// the board, the own hand and the offered actions with their keys, the countdowns, the "your
// turn" cue, the event log in words, the hand's summary with Continue (and whom we wait for),
// the final standings; a link that cannot work said in words. `window.majiangTable.feed(msgs)`
// shows recorded server messages instead of the live room (the screenshot test uses it).

import { $, el, signClass } from "./dom.js";
import { t, onLanguageChange, playerName } from "./i18n.js";
import { Connection, deviceId } from "./connection.js";
import { applyStateDelta } from "./state-delta.js";
import { tileImg, parseTiles, setWildcard, setExtraWinds, playsExtraWinds, tileName } from "./tiles.js";
import { renderBoard, renderMelds } from "./board.js";
import { describeEvent, actionLabel, rulesName, seatName } from "./words.js";
import { renderSummary } from "./result.js";
import { serverText } from "./server-words.js";
import { renderWaitingRoom, renderLinkProblem } from "./waiting.js";
import { turnCue, mountSoundSwitch } from "./cue.js";
import { announceEvents } from "./announce.js";
import { hintsWelcome, hintsState, hintsMessage, hintsRefused, renderHints } from "./hints.js";

/** Keys for the claim and declare buttons. */
const CHOW_KEYS = ["c", "v", "b", "n"];
const MAX_EVENTS = 200;

/** Phones and tablets (style.css's same query): the felt takes the screen, the scores, the log
 * and the page's header wait in a drawer behind `#side-toggle`. */
const COMPACT = matchMedia("(max-width: 820px), (max-height: 500px)");

const game = {
  conn: null, room: null, seat: null, config: null, state: null,
  events: [], pending: false, result: null, over: null, ready: false,
  deadline: null, continueDeadline: null, rulesets: {},
  // The hand tile a touch has raised (a second touch discards it).
  selected: null,
};

/** The chair of the viewer (null for a spectator or before the match). */
function myChair() {
  if (game.seat === null || !game.state) return null;
  const s = game.state.seats.find((x) => x.seat === game.seat);
  return s && s.player !== null && s.player !== undefined ? s.player : null;
}

/** Whether the person in `chair` is away: the server's `away` flag when it sends one, else a
 * person's seat with no connection (a bot never is). */
function isAway(chair) {
  const s = game.state && game.state.seats.find((x) => x.player === chair);
  if (!s || s.bot) return false;
  return s.away !== undefined ? !!s.away : !s.connected;
}

/** A chair's name: the seat's name, "You" handled by the callers that need grammar. */
function nameOf(chair) {
  const s = game.state && game.state.seats.find((x) => x.player === chair);
  return s ? playerName(s.name) : "#" + chair;
}

// The viewer's own row: the server's default name "You" reads as "You" / "你", a chosen name
// gets "(you)" after it.
function ownName(s) {
  if (s.seat !== game.seat) return playerName(s.name);
  return isDefaultYou(s.name) ? t("common.you") : t("table.name_you", { name: s.name });
}

/** The lobby's default name for the creator ("You", "你") in any language. */
function isDefaultYou(name) { return name === "You" || name === "你" || name === t("lobby.default_you"); }
function nameOrYou(chair) { return chair === myChair() ? t("common.you") : nameOf(chair); }

/** Opens the table for `room` with seat `token` (or as a spectator). */
export function showTable(room, token, rulesets) {
  game.room = room;
  game.rulesets = rulesets;
  $("#table").hidden = false;
  $("#start").addEventListener("click", () => game.conn.send({ type: "start" }));
  $("#start-fill").addEventListener("click", () => game.conn.send({ type: "start", fill_bots: true }));
  $("#modal-close").addEventListener("click", onContinue);
  $("#continue-inline").addEventListener("click", onContinue);
  $("#show-summary").addEventListener("click", showResult);
  $("#seat-call-button").addEventListener("click", onSeatCall);
  $("#modal-take-seat").addEventListener("click", onSeatCall);
  document.addEventListener("keydown", onKey);
  setInterval(tick, 250);
  mountSoundSwitch();
  mountSide();
  onLanguageChange(() => { renderAll(); if (game.badLink) renderLinkProblem(game.badLink, room); });
  game.conn = new Connection(room, token, {
    // What changed after the first state (state-delta.js applies it), not every state whole.
    deltas: true,
    // A seat lives in one tab: opened in another (or on another phone), it plays there.
    device: deviceId(),
    onMessage,
    onDrop: (n) => {
      game.pending = false;
      $("#status-line").textContent = t("table.disconnected", { n });
      // On a phone the status line waits in the drawer: say it over the table too.
      if (COMPACT.matches) showNotice(t("table.disconnected", { n }));
    },
    finished: () => !!(game.state && game.state.status === "finished"),
    onBadLink: (why) => { game.badLink = why; $("#status-line").textContent = ""; renderLinkProblem(why, room); },
  });
  window.majiangTable = {
    /** Shows recorded server messages in place of the live room (which is left). */
    feed(msgs) {
      game.conn.stop();
      game.result = null; game.over = null; game.events = [];
      closeModal();
      for (const m of msgs) onMessage(m);
    },
    /** Whether the page has stopped connecting (a link that cannot work, or `feed`). */
    stopped: () => game.conn.stopped,
    /** The players' names (seats and the room's configuration): names stay as written. */
    names: () => [...(game.state ? game.state.seats.map((s) => s.name) : []), ...(game.config ? game.config.seats.map((s) => s.name) : [])],
  };
}

/** The drawer of the scores and the log (on a phone or tablet; beside the board on a desktop):
 * opened by `#side-toggle`, closed by its ✕, a tap beside it or Escape (focus then returns to
 * the toggle). While open it holds the focus: Tab and Shift+Tab go round the controls inside
 * it. On those screens the page's header (language, sound, lobby, the status line) moves into
 * it. */
function mountSide() {
  const toggle = $("#side-toggle");
  const set = (open) => {
    document.body.classList.toggle("side-open", open);
    toggle.setAttribute("aria-expanded", String(open));
    if (open) $("#side-close").focus();
  };
  game.closeSide = () => { if (document.body.classList.contains("side-open")) { set(false); toggle.focus(); return true; } return false; };
  toggle.addEventListener("click", () => set(!document.body.classList.contains("side-open")));
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Tab" || !document.body.classList.contains("side-open")) return;
    const inside = [...$("#side").querySelectorAll("a[href], button, input, select, textarea, [tabindex]")]
      .filter((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0);
    if (!inside.length) return;
    const [first, last] = [inside[0], inside[inside.length - 1]];
    const at = document.activeElement;
    const away = !$("#side").contains(at);
    if (ev.shiftKey && (at === first || away)) { last.focus(); ev.preventDefault(); }
    else if (!ev.shiftKey && (at === last || away)) { first.focus(); ev.preventDefault(); }
  });
  $("#side-close").addEventListener("click", game.closeSide);
  $("#side-shade").addEventListener("click", game.closeSide);
  const header = document.querySelector("header");
  const place = () => {
    if (COMPACT.matches) $("#side").prepend(header);
    else { document.body.prepend(header); set(false); }
  };
  COMPACT.addEventListener("change", place);
  place();
}

function onMessage(m) {
  switch (m.type) {
    case "taken_over":
      // The seat plays on another device now: its concealed hand (and the log, which names
      // its draws) leaves this page, which offers to take the seat back.
      game.takenOver = true;
      game.pending = false;
      game.events = [];
      closeModal();
      renderAll();
      renderSeatCall();
      break;
    case "welcome":
      game.takenOver = false;
      game.seat = m.seat;
      // A late friend's key after "start now": the seat a bot holds (they watch, and may take
      // it back). Welcomed on the seat, the question is settled.
      game.botHolds = m.bot_holds ?? null;
      if (game.botHolds === null) game.seatAsked = false;
      // Asked before the connection dropped: the server forgot with it, so ask again.
      else if (game.seatAsked) game.conn.send({ type: "take_seat" });
      game.config = m.config;
      hintsWelcome(game.room, m, game.conn);
      renderStatusLine();
      renderSeatCall();
      break;
    case "history":
      // Sent after welcome on a reconnect: the hand so far, so a reload keeps the log.
      game.events = (m.events || []).slice(-MAX_EVENTS);
      renderEvents();
      break;
    case "state": onState(m, m); break;
    case "state_delta":
      // What changed since the last state: applied to it (a delta comes only after a state).
      if (game.state) onState(applyStateDelta(game.state, m), m);
      else game.conn.send({ type: "sync" });
      break;
    case "events":
      announceEvents(m.events, { nameOf, me: myChair() });
      game.events.push(...m.events);
      if (game.events.length > MAX_EVENTS) game.events.splice(0, game.events.length - MAX_EVENTS);
      renderEvents();
      break;
    case "ack": game.pending = false; markLeaving(); break;
    case "hint":
    case "hint_busy": hintsMessage(m); break;
    case "error": if (hintsRefused(m)) { showNotice(serverText(m)); break; } game.pending = false; game.leaving = null; game.events.push({ type: "error", message: m.message, key: m.key, args: m.args }); renderEvents(); showNotice(serverText(m)); break;
    case "hand_result": game.result = m; game.ready = false; showResult(); break;
    case "match_over": game.over = m; showResult(); break;
  }
}

/** A new state `m`, whole or made by a delta; `changed` is the message (a delta names only
 * what changed: a countdown it does not name keeps running from when it was sent). */
function onState(m, changed) {
  const before = game.state;
  game.state = m;
  game.pending = false;
  if ("deadline_ms" in changed || "claim_deadline_ms" in changed) game.deadline = deadlineOf(m);
  hintsState(m);
  if ("continue" in changed) game.continueDeadline = m.continue && m.continue.deadline_ms != null ? Date.now() + m.continue.deadline_ms : null;
  // A new hand under way: the summary of the last one goes away (when the server waits for
  // Continue; an older server leaves it to the Continue button).
  if (before && before.status === "hand_over" && m.status === "playing") closeModal();
  if (m.status !== "hand_over") game.ready = false;
  renderAll();
  turnCue(myTurnNow(m), t("table.your_turn_title"));
}

/** The turn or claim countdown for the seat to act, as a clock time. */
function deadlineOf(m) {
  const ms = m.deadline_ms ?? m.claim_deadline_ms;
  return ms === null || ms === undefined ? null : Date.now() + ms;
}

/** Whether the viewer has a decision to make now (a discard, a claim, a win). */
function myTurnNow(m) {
  const obs = m.observation;
  return !!(obs && game.seat !== null && myChair() !== null && (obs.legal_actions || []).length > 0 && m.status === "playing");
}

/** A short message over the table (a refusal from the server), gone after a few seconds. */
function showNotice(text) {
  const box = $("#notice");
  if (!box) return;
  box.textContent = text;
  box.hidden = false;
  clearTimeout(showNotice.timer);
  showNotice.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

function secondsLeft(end) { return end === null ? null : Math.max(0, Math.ceil((end - Date.now()) / 1000)); }

function renderAll() {
  renderStatusLine();
  renderTable();
  renderEvents();
  renderHints();
  if (!$("#modal").hidden) showResult();
}

function renderStatusLine() {
  if (!game.config) return;
  const rules = rulesName(game.config.rules);
  const me = game.state && game.seat !== null ? game.state.seats.find((x) => x.seat === game.seat) : null;
  const line = $("#status-line");
  // Before the first state (a welcome alone), the seat's name from the room's settings.
  const mine = me || (game.seat !== null && game.config.seats[game.seat]) || null;
  const who = game.seat === null ? t("table.spectator") : mine ? (isDefaultYou(mine.name) ? t("common.you") : mine.name) : "#" + game.seat;
  line.replaceChildren(el("span", {}, rules), " · ", el("span", { translate: "no", class: "who" }, who), " · ", el("span", { translate: "no", class: "mono room-id" }, game.room));
  // A watcher: say so (a late friend whose seat went to a bot is told in the seat call, with
  // the button that takes it back).
  const note = $("#seat-note");
  note.hidden = !(game.seat === null && game.botHolds == null);
  note.textContent = note.hidden ? "" : t("table.watching_note");
}

/** The call about the seat itself, with the button that takes it back: it plays on another
 * device now (over the table), or a bot holds it since the match started without its person
 * (under the table: they watch meanwhile), at the next hand or at once as the room says. */
function renderSeatCall() {
  const box = $("#seat-call");
  const botHolds = !game.takenOver && game.seat === null && game.botHolds != null && !(game.state && game.state.status === "finished");
  // Over a hand's result the button waits in the dialog's foot, beside Continue.
  const inModal = botHolds && !$("#modal").hidden;
  const modalButton = $("#modal-take-seat");
  modalButton.hidden = !(inModal && !game.seatAsked);
  modalButton.textContent = t("table.take_seat_back");
  box.hidden = !(game.takenOver || (botHolds && !inModal));
  box.classList.toggle("bot-holds", botHolds);
  if (box.hidden) return;
  const button = $("#seat-call-button");
  if (game.takenOver) {
    $("#seat-call-text").textContent = t("table.taken_over");
    button.textContent = t("table.take_back_here");
    button.hidden = false;
    return;
  }
  const atOnce = game.config && game.config.take_back === "at_once";
  $("#seat-call-text").textContent = t(game.seatAsked ? "table.seat_back_next_hand" : atOnce ? "table.take_seat_at_once" : "table.take_seat_next_hand");
  button.textContent = t("table.take_seat_back");
  button.hidden = !!game.seatAsked;
}

/** The seat call's button: takes the seat back to this device, or from the bot. */
function onSeatCall() {
  if (game.takenOver) {
    game.takenOver = false;
    renderSeatCall();
    game.conn.resume();
  } else if (game.botHolds != null && game.conn.send({ type: "take_seat" })) {
    game.seatAsked = true;
    renderSeatCall();
  }
}

/** The countdown for the seat to act (lit on the compass), if a timer runs. */
function countdownText() {
  const left = secondsLeft(game.deadline);
  if (left === null || !game.state || !game.state.observation) return null;
  return t("common.seconds", { n: left });
}

function renderTable() {
  const st = game.state;
  if (!st) return;
  // A finished match shows its final standings (waiting.js) in place of the last board.
  const obs = st.status === "finished" ? null : st.observation;
  renderInfo(st, obs);
  renderScores(st);
  renderStart(st);
  renderWaitingRoom(st, { room: game.room, seat: game.seat, ownName });
  $("#table").dataset.status = st.status;
  $("#board").hidden = !obs;
  renderSeatCall();
  if (!obs || game.takenOver) { $("#hand").replaceChildren(); $("#actions").replaceChildren(); $("#my-melds").replaceChildren(); $("#waits").replaceChildren(); return; }
  setWildcard(obs.wildcard);
  setExtraWinds(playsExtraWinds(game.config && game.rulesets[game.config.rules], obs.table.length));
  const me = myChair();
  renderBoard(obs, me === null ? 0 : me, { nameOf: nameOrYou, selfSeated: me !== null, countdown: countdownText(), deadlineText: countdownText(), isAway });
  renderHand(obs, me);
  renderWaits(st);
}

/** The status line of the table: hand, dealer, wind, lao, Caishen, Bao Tou, the gambit round. */
function renderInfo(st, obs) {
  const info = $("#info");
  info.replaceChildren();
  const add = (...kids) => info.append(el("span", {}, ...kids));
  add(t("table.status", { status: t("status." + st.status) }));
  if (st.hand_number) add(st.hands ? t("table.hand_of", { n: st.hand_number, of: st.hands }) : t("table.hand", { n: st.hand_number }));
  if (!obs) return;
  add(t("table.dealer", { name: nameOrYou(obs.dealer) }));
  add(t("table.prevailing", { wind: seatName(obs.prevailing_wind) }));
  const rs = game.config && game.rulesets[game.config.rules];
  if (rs && rs.lao) info.append(el("span", { class: "lao" }, t("table.lao", { n: obs.lao })));
  if (obs.indicator) add(t("table.indicator") + " ", tileImg(obs.indicator, "small"));
  if (obs.wildcard) info.append(el("span", { class: "caishen-note" }, t("table.caishen_is") + " ", tileImg(obs.wildcard, "small"), " " + tileName(obs.wildcard)));
  if (obs.wildcard_discard_is_gambit) info.append(el("span", { class: "bao-tou" }, t("table.bao_tou")));
  if (obs.gambit_round) info.append(el("span", { class: "gambit-round" }, t("table.gambit_round")));
}

function renderScores(st) {
  const scores = $("#scores");
  scores.replaceChildren();
  for (const s of st.seats) {
    const chair = s.player;
    const pts = chair === null || chair === undefined ? 0 : st.ledger[chair];
    const tag = s.bot ? t("common.bot") : s.stand_in ? t("common.stand_in") : isAway(chair) || (!s.connected && chair == null) ? t("common.away") : "";
    scores.append(el("tr", {}, el("td", {}, el("span", { translate: "no" }, ownName(s)), tag ? " " : null, tag ? el("small", { class: "tag" + (tag === t("common.away") ? " away-badge" : "") }, tag) : null), el("td", { class: "mono " + signClass(pts) }, pts)));
  }
}

/** The start buttons while the room waits: Start when every person has joined, and for the
 * creator "Start now, fill empty seats with bots". */
function renderStart(st) {
  const waiting = st.status === "waiting" && game.seat !== null;
  const absent = st.seats.filter((s) => !s.bot && !s.connected);
  $("#start").hidden = !waiting || absent.length > 0;
  // Only the room's creator (seat 0) may fill the empty seats with bots.
  $("#start-fill").hidden = !waiting || absent.length === 0 || game.seat !== 0;
  const note = $("#waiting-note");
  note.hidden = !waiting || absent.length === 0;
  note.textContent = t("table.waiting_for_people", { names: absent.map((s) => s.name).join(t("common.list_sep")) });
  // Between hands, with the summary closed: Continue, and the summary again.
  const between = st.status === "hand_over" || st.status === "finished";
  $("#continue-inline").hidden = !(st.status === "hand_over" && st.continue && game.seat !== null && !game.ready);
  $("#show-summary").hidden = !(between && (game.result || game.over));
  renderContinueWait();
}

/** After Continue: whom the next hand waits for, and the countdown to it. */
function continueWaitText() {
  const st = game.state;
  if (!st || st.status !== "hand_over" || !st.continue) return "";
  const waiting = (st.continue.waiting_for || []).filter((p) => !(game.ready && p === myChair()));
  const left = secondsLeft(game.continueDeadline);
  const names = waiting.map(nameOrYou).join(t("common.list_sep"));
  if (!waiting.length) return left !== null ? t("result.next_in", { n: left }) : "";
  return left !== null ? t("result.waiting_for_in", { names, n: left }) : t("result.waiting_for", { names });
}

function renderContinueWait() {
  const box = $("#continue-wait");
  const text = game.ready || (game.seat === null) ? continueWaitText() : "";
  box.textContent = text;
  box.hidden = !text;
  if ($("#continue-note")) $("#continue-note").textContent = game.ready ? continueWaitText() : "";
}

/** The own hand (drawn tile apart, wildcards marked) and the offered actions as big buttons. */
function renderHand(obs, me) {
  const hand = $("#hand");
  const actions = $("#actions");
  hand.replaceChildren();
  actions.replaceChildren();
  $("#my-melds").replaceChildren();
  if (me === null) return;
  $("#my-melds").append(renderMelds(obs.table[me], obs.table.length, "small"));
  const legal = obs.legal_actions || [];
  const discardable = new Set(legal.filter((a) => a.discard).map((a) => a.discard));
  const tiles = parseTiles(obs.concealed);
  let drawn = null;
  if (obs.drawn) { const i = tiles.lastIndexOf(obs.drawn); if (i >= 0) { tiles.splice(i, 1); drawn = obs.drawn; } }
  // Each tile a button named for a screen reader ("Discard 5 Characters"); arrows move along
  // the playable ones, Enter or Space discards.
  if (!discardable.has(game.selected)) game.selected = null;
  const add = (x, extra) => {
    const playable = discardable.has(x);
    const raised = playable && x === game.selected && !hand.querySelector(".selected");
    const pic = tileImg(x, (playable ? "playable " : "") + (raised ? "selected " : "") + extra);
    const b = el("button", { type: "button", class: "tile-btn", "data-tile": x, "aria-label": playable ? t("action.discard", { tile: tileName(x) }) : tileName(x), "aria-disabled": playable ? null : "true", tabindex: playable ? "0" : "-1" }, pic);
    if (playable) b.addEventListener("click", (ev) => onTileTap(b, x, ev));
    hand.append(b);
  };
  tiles.forEach((x) => add(x, ""));
  for (const x of obs.extra_winds || []) add(x, "extra-wind");
  if (drawn) add(drawn, "drawn");

  const others = legal.filter((a) => !a.discard);
  const selfDrawWin = others.includes("win") && !obs.on_offer;
  let chows = 0, kongs = 0;
  for (const a of others) {
    let key = "";
    if (a === "win") key = "w";
    else if (a === "pass") key = "x";
    else if (a === "pung") key = "p";
    else if (a === "kong") key = "k";
    else if (a.chow) key = CHOW_KEYS[chows++] || "";
    else { kongs += 1; key = kongs <= 9 ? String(kongs) : ""; }
    const big = a === "win" && selfDrawWin;
    const label = big ? t("action.self_draw_win") : actionLabel(a);
    const kind = typeof a === "string" ? a : Object.keys(a)[0];
    // A chow or a kong of a named tile: the verb and the tiles' pictures (the words for a
    // screen reader), short enough for a phone's row of buttons.
    const shown = claimTiles(a);
    const content = shown ? [el("span", { class: "verb" }, t("action." + kind, { tiles: "", tile: "" }).trim()), ...shown.map((x) => tileImg(x, "small"))] : [label];
    const b = el("button", { class: "action act-" + kind + (big ? " win-now" : ""), "data-action": JSON.stringify(a), "data-key": key, "aria-label": shown ? label : null }, ...content, key ? el("kbd", {}, key.toUpperCase()) : null);
    b.addEventListener("click", () => act(a));
    actions.append(b);
  }
  // Hangzhou: discarding the Caishen in the Bao Tou state is its own choice.
  if (obs.wildcard_discard_is_gambit && obs.wildcard && discardable.has(obs.wildcard)) {
    const b = el("button", { class: "action act-gambit", "data-action": JSON.stringify({ discard: obs.wildcard }), "data-key": "g", title: t("action.gambit_explain") },
      t("action.gambit"), " ", tileImg(obs.wildcard, "small"), el("kbd", {}, "G"));
    b.addEventListener("click", () => act({ discard: obs.wildcard }));
    actions.append(el("span", { class: "gambit-choice" }, b, el("small", { class: "explain" }, t("action.gambit_explain"))));
  }
  if (discardable.size) actions.append(el("span", { class: "hint" }, t("table.your_turn_discard")));
  else if (others.length && obs.on_offer) actions.prepend(el("span", { class: "offer-note" }, t("table.on_offer", { who: nameOrYou(obs.on_offer[0]), tile: "" }), tileImg(obs.on_offer[1], "small")));
  // Why no win is offered on this tile (Hong Kong's missed win), or why only a win is (the
  // last discard, the live wall empty).
  if (obs.on_offer && (obs.missed_wins || []).includes(obs.on_offer[1])) actions.append(el("span", { class: "missed-win-note", role: "status" }, t("illegal.missed_win")));
  else if (isLastDiscard(obs) && others.length) actions.append(el("span", { class: "last-discard-note" }, t("table.last_discard_win_only")));
}

/** The tile on offer is the last discard (the live wall empty; not a kong's tile to rob). */
function isLastDiscard(obs) {
  const [o, d] = [obs.on_offer, obs.last_discard];
  return !!(o && d && obs.live_wall === 0 && o[0] === d[0] && o[1] === d[1]);
}

/** The tiles an action names (a chow's three, a concealed or added kong's one), or null. */
function claimTiles(a) {
  if (a.chow) return a.chow.tiles;
  if (a.concealed_kong) return [a.concealed_kong];
  if (a.added_kong) return [a.added_kong];
  return null;
}

/** A hand tile pressed: a touch raises it first and a second touch on the raised tile discards
 * it (a slipping thumb throws nothing away); a mouse click or the keyboard discards at once. */
function onTileTap(button, tile, ev) {
  const touch = ev.pointerType === "touch" || ev.pointerType === "pen";
  const img = button.querySelector(".tile");
  if (touch && !img.classList.contains("selected")) {
    for (const x of document.querySelectorAll("#hand .tile.selected")) x.classList.remove("selected");
    img.classList.add("selected");
    game.selected = tile;
    return;
  }
  act({ discard: tile });
}

/** The waits of a ready hand with how many of each are unseen (when the server sends them). */
function renderWaits(st) {
  const box = $("#waits");
  box.replaceChildren();
  const waits = st.waits || [];
  if (!waits.length) return;
  box.append(el("span", { class: "waits-label" }, t("table.waits_n", { n: waits.length })));
  const list = el("div", { class: "waits-list", tabindex: "0", "aria-label": t("table.waits") });
  box.append(list);
  for (const w of waits) {
    // What the win would score (from the rule set's scorer); absent: below the minimum.
    const dead = w.unseen === 0 || (w.self_draw == null && w.discard == null);
    list.append(el("span", { class: "wait" + (dead ? " dead" : "") }, tileImg(w.tile, "small"),
      el("small", {}, t("table.unseen", { n: w.unseen })), el("small", { class: "wait-score" }, waitScore(w))));
  }
}

/** "self-draw 4 · discard 3", one of them, or "below the minimum". */
function waitScore(w) {
  const parts = [];
  if (w.self_draw != null) parts.push(t("table.wait_self_draw", { n: w.self_draw }));
  if (w.discard != null) parts.push(t("table.wait_discard", { n: w.discard }));
  return parts.length ? parts.join(" · ") : t("table.wait_below_min");
}

function renderEvents() {
  const list = $("#events");
  if (!list) return;
  const who = { nameOf, me: myChair() };
  list.replaceChildren();
  for (const e of game.events) {
    const text = e.type === "error" ? "⚠ " + serverText(e) : describeEvent(e, who);
    if (text) list.append(el("li", {}, text));
  }
  list.scrollTop = list.scrollHeight;
}

function act(action) {
  if (game.pending) return;
  game.selected = null;
  if (game.conn.act(action)) {
    game.pending = true;
    game.leaving = action.discard || null;
  }
}

/** The server took our discard: the tile leaves the hand at once, though the table shows what
 * follows it only when the claim window closes (every discard waits the same time, so the
 * moment tells nobody who could claim it). The next state draws the hand anew. */
function markLeaving() {
  const tile = game.leaving;
  game.leaving = null;
  if (!tile) return;
  const b = document.querySelector(`#hand .tile-btn[data-tile="${tile}"]:not(.leaving)`);
  if (b) {
    b.classList.add("leaving");
    b.setAttribute("aria-disabled", "true");
    b.tabIndex = -1;
  }
  for (const x of document.querySelectorAll("#hand .tile.playable")) x.classList.remove("playable");
}

function tick() {
  const st = game.state;
  if (!st) return;
  const text = countdownText();
  const cd = document.querySelector("#centre .countdown");
  if (text !== null) {
    if (cd) cd.textContent = text;
    else if (document.querySelector("#centre .compass-mid")) document.querySelector("#centre .compass-mid").append(el("div", { class: "countdown" }, text));
  } else if (cd) cd.remove();
  const timer = document.querySelector("#board .on-turn .turn-timer");
  if (timer && text !== null) timer.textContent = text;
  renderContinueWait();
  const left = secondsLeft(game.continueDeadline);
  const btn = $("#modal-close");
  if (!$("#modal").hidden && !game.over) btn.textContent = left !== null && !game.ready ? t("result.continue_in", { n: left }) : t("result.continue");
}

function onKey(ev) {
  if (ev.key === "Escape" && game.closeSide && game.closeSide()) { ev.preventDefault(); return; }
  if (!$("#modal").hidden) {
    if (ev.key === "Enter" || ev.key === "Escape") { onContinue(); ev.preventDefault(); }
    return;
  }
  if (ev.target && ["INPUT", "TEXTAREA", "SELECT"].includes(ev.target.tagName)) return;
  const b = document.querySelector('#actions button[data-key="' + ev.key.toLowerCase() + '"]');
  if (b) { b.click(); ev.preventDefault(); return; }
  const playable = [...document.querySelectorAll("#hand .tile.playable")];
  if (!playable.length) return;
  if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    const cur = playable.findIndex((x) => x.classList.contains("selected"));
    playable.forEach((x) => x.classList.remove("selected"));
    const step = ev.key === "ArrowLeft" ? -1 : 1;
    const next = cur < 0 ? (step < 0 ? playable.length - 1 : 0) : (cur + step + playable.length) % playable.length;
    playable[next].classList.add("selected");
    playable[next].closest("button")?.focus();
    ev.preventDefault();
  } else if (ev.key === "Enter" && !(ev.target && ev.target.tagName === "BUTTON")) {
    const sel = playable.find((x) => x.classList.contains("selected"));
    if (sel) act({ discard: sel.dataset.tile });
  }
}

/** Continue: tells the server this seat is ready for the next hand (when it waits for that),
 * and closes the summary. */
function onContinue() {
  const st = game.state;
  if (st && st.status === "hand_over" && st.continue && game.seat !== null && !game.ready) {
    game.conn.send({ type: "continue" });
    game.ready = true;
  }
  closeModal();
  if (st) renderStart(st);
}

function closeModal() { $("#modal").hidden = true; renderSeatCall(); }

/** The hand's summary (and the final standings once the match is over) in the modal. */
function showResult() {
  const body = $("#modal-body");
  body.replaceChildren();
  const me = myChair();
  if (game.result) {
    const m = game.result;
    const s = m.settlement;
    const seats = game.state && game.state.observation ? game.state.observation.table.map((p) => p.seat) : [];
    body.dataset.kind = "hand_result";
    body.append(renderSummary(s, { reveal: m.reveal || s.reveal || null, explained: m.payments_explained || s.payments_explained || null, seats, nameOf: nameOrYou, me }));
  }
  if (game.over) {
    const tbl = el("table", { id: "standings" });
    for (const s of game.over.standings) tbl.append(el("tr", {}, el("td", {}, s.rank + "."), el("td", {}, nameOrYou(s.player)), el("td", { class: "mono " + signClass(s.points) }, s.points)));
    body.append(el("h2", {}, t("result.standings")), tbl, el("p", {}, el("a", { class: "replay-link big-link", href: "/?replay=" + game.room }, t("result.replay_link"))));
  }
  $("#continue-note").textContent = game.ready ? continueWaitText() : "";
  $("#modal-close").textContent = t("result.continue");
  const opening = $("#modal").hidden;
  $("#modal").hidden = false;
  renderSeatCall();
  // A dialog: focus moves into it when it opens (a screen reader reads it), not on re-renders.
  if (opening) $("#modal").focus();
}
