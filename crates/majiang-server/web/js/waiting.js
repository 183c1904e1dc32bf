// Before the deal, after the match and when a link cannot work: the waiting room (each seat,
// who has joined, who is a bot, the invites again for whoever created the room on this
// device), a finished room's final standings with its replay and review, and the page that
// says a link is wrong, with the way back to the lobby.

import { $, el, signClass, signed } from "./dom.js";
import { t } from "./i18n.js";
import { renderInvite } from "./invite.js";

/** The invites the lobby kept for `room` on this device (seat, name, url), if any. */
function keptInvites(room) {
  try { return JSON.parse(localStorage.getItem("majiang.invites." + room) || "[]"); } catch (_) { return []; }
}

/** Shows `#waiting-room` while room state `st` waits for its people; hides it otherwise. */
export function renderWaitingRoom(st, { room, seat, ownName }) {
  const box = $("#waiting-room");
  if (!box) return;
  box.hidden = st.status !== "waiting" && st.status !== "finished";
  if (box.hidden) { box.replaceChildren(); return; }
  if (st.status === "finished") { renderFinished(box, st, room, ownName); return; }
  const absent = st.seats.filter((s) => !s.bot && !s.connected);
  const list = el("ol", { class: "wr-seats" });
  for (const s of st.seats) {
    const joined = s.bot ? "bot" : s.connected ? "true" : "false";
    const state = s.bot ? t("waiting.bot") : s.connected ? t("waiting.joined") : t("waiting.not_yet");
    list.append(el("li", { class: "wr-seat", "data-joined": joined, "data-seat": String(s.seat) },
      el("span", { class: "wr-mark", "aria-hidden": "true" }, s.bot ? "◆" : s.connected ? "✓" : "…"),
      el("span", { class: "wr-name", translate: "no" }, ownName(s)),
      el("span", { class: "wr-state" }, state)));
  }
  const head = absent.length
    ? t("waiting.title_waiting", { n: absent.length })
    : t("waiting.title_ready");
  box.replaceChildren(el("h2", {}, head), list);
  const invites = keptInvites(room).filter((i) => absent.some((s) => s.seat === i.seat));
  if (invites.length && seat === 0) {
    const wrap = el("div", { class: "invites" });
    for (const i of invites) wrap.append(renderInvite(i.name, i.url));
    box.append(el("h3", {}, t("waiting.invite_again")), wrap);
  } else if (absent.length) {
    box.append(el("p", { class: "wr-hint" }, seat === 0 ? t("waiting.hint_creator") : t("waiting.hint_guest")));
  }
}

/** A finished room (opened from its link after the end): the final standings, best first,
 * and the way to its replay and to the expert's review. */
function renderFinished(box, st, room, ownName) {
  const ledger = st.ledger || [];
  const rows = st.seats
    .map((s) => ({ s, chips: s.player === null || s.player === undefined ? 0 : ledger[s.player] ?? 0 }))
    .sort((a, b) => b.chips - a.chips);
  const list = el("ol", { class: "final-standings" });
  for (const { s, chips } of rows) {
    list.append(el("li", { "data-seat": String(s.seat) },
      el("span", { class: "wr-name", translate: "no" }, ownName(s)), " ",
      el("b", { class: signClass(chips) }, signed(chips))));
  }
  const replay = "/?replay=" + encodeURIComponent(room);
  box.replaceChildren(
    el("h2", {}, t("waiting.finished_title")),
    el("h3", {}, t("waiting.finished_standings")),
    list,
    el("p", { class: "finished-links" },
      el("a", { class: "big-link replay-link", href: replay }, t("waiting.finished_replay")), " ",
      el("a", { class: "big-link review-link", href: replay + "#review" }, t("waiting.finished_review"))));
}

/** Says in words why the link cannot work (`no_room`, `bad_token`) and offers the lobby. */
export function renderLinkProblem(why, room) {
  const box = $("#link-problem");
  if (!box) return;
  for (const id of ["#table", "#waiting-room"]) { const e = $(id); if (e) e.hidden = true; }
  box.hidden = false;
  box.replaceChildren(
    el("h1", {}, t("link." + why + ".title")),
    el("p", {}, t("link." + why + ".text")),
    el("p", { class: "mono", translate: "no" }, location.href),
    el("p", {}, el("a", { href: "/", class: "big-link back-to-lobby" }, t("link.back"))));
}
