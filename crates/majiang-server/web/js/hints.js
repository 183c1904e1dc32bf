// Hints at the table: the room's setting for everyone ("hints allowed" / "no hints", on the
// status line), the
// switch for a seated person when the creator allowed them (remembered for the room in this
// tab and sent again on every connection), and the expert's suggestion the server sends after a
// `state` in which the person must act: the action, its tile marked in the hand, one line
// of why (distance from ready, useful tiles unseen, danger, what it does with an extra wind,
// value) and the next best option with its band in the review pane's words ("about equal",
// "slightly worse", "clearly worse": the hint is the review's judgement of the same decision,
// so the two say the same; no "±"); or, when the server's hint
// queue was full, that the expert is busy this move (`hint_busy`). A hint whose state has
// passed is dropped.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { actionLabel } from "./words.js";
import { tileImg } from "./tiles.js";
import { bandText, reasonText } from "./expert-words.js";

const hints = { room: null, seat: null, allowed: false, on: false, conn: null, state: null, hint: null };

function storageKey() { return "majiang.hints." + hints.room; }

function remembered() {
  try { return sessionStorage.getItem(storageKey()) === "on"; } catch (_) { return false; }
}

function remember(on) {
  try { sessionStorage.setItem(storageKey(), on ? "on" : "off"); } catch (_) { /* storage off */ }
}

/** The room's `welcome`: its setting, and the person's switch sent again if it was on. */
export function hintsWelcome(room, m, conn) {
  hints.room = room;
  hints.seat = m.seat;
  hints.conn = conn;
  hints.allowed = !!(m.config && m.config.hints);
  hints.on = hints.allowed && m.seat !== null && m.seat !== undefined && remembered();
  if (hints.on) conn.send({ type: "hints", on: true });
  renderHints();
}

/** A new `state` (the table renders it, then the bar): a hint for an older one goes. */
export function hintsState(st) {
  hints.state = st;
  if (hints.hint && !answers(hints.hint, st)) hints.hint = null;
}

/** Whether hint `h` is for state `st`. */
function answers(h, st) {
  return !!(st && h.actions === st.actions && h.hand_number === st.hand_number);
}

/** A `hint` from the server, or `hint_busy` (the server skipped this one: its queue was full). */
export function hintsMessage(m) {
  if (!hints.on || !answers(m, hints.state)) return;
  hints.hint = m;
  renderHints();
}

/** An `error`: a refused `hints` turns the switch off again. Returns whether it was one. */
export function hintsRefused(m) {
  if (!m.key || !m.key.startsWith("room.hints_")) return false;
  hints.on = false;
  remember(false);
  renderHints();
  return true;
}

function toggle() {
  hints.on = !hints.on;
  remember(hints.on);
  if (!hints.on) hints.hint = null;
  if (hints.conn) hints.conn.send({ type: "hints", on: hints.on });
  renderHints();
}

/** Whether the person must act now. */
function mustAct() {
  const st = hints.state;
  const obs = st && st.observation;
  return !!(obs && st.status === "playing" && (obs.legal_actions || []).length > 1);
}

/** The setting on the table's status line (for everyone), and over the hand the switch and the
 * hint (or "thinking…" while it is worked out). */
export function renderHints() {
  const bar = $("#hint-bar");
  if (!bar || hints.room === null) return;
  const info = $("#info");
  if (info) {
    info.querySelector(".hint-setting")?.remove();
    info.append(el("span", { class: "hint-setting " + (hints.allowed ? "allowed" : "off") }, t(hints.allowed ? "hints.allowed" : "hints.not_allowed")));
  }
  bar.replaceChildren();
  const seated = hints.seat !== null && hints.seat !== undefined;
  if (hints.allowed && seated) {
    bar.append(el("button", { type: "button", id: "hint-toggle", class: "hint-toggle", "aria-pressed": String(hints.on), onclick: toggle }, t(hints.on ? "hints.turn_off" : "hints.turn_on")));
  }
  for (const b of document.querySelectorAll("#hand .suggested, #actions .suggested")) b.classList.remove("suggested");
  if (!hints.on || !mustAct()) return;
  const h = hints.hint;
  if (!h) { bar.append(el("span", { class: "expert-hint thinking", role: "status" }, t("hints.thinking"))); return; }
  if (h.type === "hint_busy") { bar.append(el("span", { class: "expert-hint busy", role: "status" }, t("hints.busy"))); return; }
  const a = h.action;
  const what = el("span", { class: "hint-action" }, a && a.discard ? [tileImg(a.discard, "small"), " "] : null, actionLabel(a));
  // A value of exactly nothing (no playout paid anything: early in a hand) tells a player nothing.
  const v = h.value && (h.value.mean !== 0 || h.value.se !== 0) ? h.value : null;
  const why = reasonText(h.facts, v);
  const r = h.runner_up;
  const next = r ? el("span", { class: "hint-next", "data-band": r.band || "none" }, t("hints.next_best", { action: actionLabel(r.action), band: bandText(r.band) })) : null;
  bar.append(el("span", { class: "expert-hint", role: "status" }, el("b", {}, t("hints.expert")), " ", what, why ? el("span", { class: "hint-why" }, t("hints.why", { why }), next) : next));
  // The suggested tile or button is marked where the person acts.
  const json = JSON.stringify(a);
  const target = a && a.discard ? document.querySelector('#hand button[data-tile="' + a.discard + '"]') : [...document.querySelectorAll("#actions button[data-action]")].find((b) => b.dataset.action === json);
  if (target) target.classList.add("suggested");
}
