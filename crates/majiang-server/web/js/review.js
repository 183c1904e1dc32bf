// The expert's review of a finished match, beside its replay: the person picks a seat and asks;
// the page starts the server's review of that seat's decisions (`POST
// /api/rooms/{id}/review?seat=N`, a job) and polls it (`GET …/review/{job}`), showing its
// progress ("k / n decisions", the bar filling) or why it was refused (the server's keyed
// words), then the review (docs/review-json.md): the match's summary (agreement with the expert,
// value lost a hand), the costliest decisions to jump to, and every hand with each decision:
// the hand then, what was played, the expert's choice, every real alternative's value in chips
// a hand with its band in words (how it compares with the expert's choice: "about equal",
// "slightly worse", "clearly worse", "better in the playouts") and its facts, the loss (only
// when the played choice's band is worse beyond noise) and why. No "±" is shown: the standard
// errors stay in the JSON, the bands are what a player reads of them. Choosing a decision takes the
// replay to that moment (`jump(at)`: the log's actions before it).

import { $, el, signClass } from "./dom.js";
import { t, onLanguageChange } from "./i18n.js";
import { actionLabel, rulesName, unitName } from "./words.js";
import { tileImg, parseTiles } from "./tiles.js";
import { serverText } from "./server-words.js";
import { bandText, factsParts, isLossBand, signed2, valueText } from "./expert-words.js";

const view = { room: null, seats: [], jump: null, review: null, failure: null, busy: null, selected: null, controller: null };

/** A decision's id in the page. */
function idOf(d) { return "rv-" + d.hand + "-" + d.number; }

/** Mounts the review box of `room` (`seats`: the room's seats, each `{seat, name}`), asking
 * `jump(at)` to move the replay. A `review_seat` and `review_budget` in the address pick the
 * seat and the worlds a decision (fewer: faster, rougher). */
export function mountReview(room, seats, jump) {
  view.room = room;
  view.seats = seats;
  view.jump = jump;
  const select = $("#review-seat");
  const fill = () => select.replaceChildren(...seats.map((s) => el("option", { value: String(s.seat) }, s.name)));
  fill();
  const params = new URLSearchParams(location.search);
  if (params.has("review_seat")) select.value = params.get("review_seat");
  $("#review-go").onclick = () => ask(Number(select.value));
  onLanguageChange(render);
  render();
}

/** How often the page asks how far the review has got (milliseconds). */
const POLL_MS = 400;

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

/** Asks the server for the review of `seat`: starts its job, then polls it, showing k / n
 * decisions valued, until the review comes (or a refusal). */
async function ask(seat) {
  if (view.controller) view.controller.abort();
  const controller = new AbortController();
  view.controller = controller;
  view.review = null;
  view.failure = null;
  view.selected = null;
  view.busy = { seat, since: Date.now(), status: "waiting", done: 0, total: 0 };
  render();
  const timer = setInterval(renderStatus, 1000);
  const budget = new URLSearchParams(location.search).get("review_budget");
  const base = "/api/rooms/" + encodeURIComponent(view.room) + "/review";
  let url = base + "?seat=" + seat + (budget ? "&budget=" + encodeURIComponent(budget) : "");
  let method = "POST";
  try {
    for (;;) {
      const res = await fetch(url, { method, signal: controller.signal });
      const body = await res.json().catch(() => ({ error: res.statusText }));
      if (!res.ok) { view.failure = serverText(body) || t("review.failed_status", { status: res.status }); break; }
      if (body.status === "done") { view.review = body.review; break; }
      Object.assign(view.busy, { status: body.status, done: body.done, total: body.total });
      renderStatus();
      url = base + "/" + encodeURIComponent(body.job);
      method = "GET";
      await pause(POLL_MS, controller.signal);
      if (controller.signal.aborted) return;
    }
  } catch (e) {
    if (e.name === "AbortError") return;
    view.failure = t("review.failed_network", { error: e.message });
  } finally {
    clearInterval(timer);
  }
  if (view.controller !== controller) return;
  view.busy = null;
  render();
}

function seatName(seat) {
  const s = view.seats.find((x) => x.seat === seat);
  return s ? s.name : "#" + seat;
}

function renderStatus() {
  const box = $("#review-status");
  box.replaceChildren();
  box.dataset.state = view.busy ? "busy" : view.failure ? "failed" : view.review ? "done" : "idle";
  $("#review-go").disabled = !!view.busy;
  if (view.busy) {
    const b = view.busy;
    const secs = Math.floor((Date.now() - b.since) / 1000);
    const known = b.total > 0;
    const bar = known
      ? el("div", { class: "review-progress determinate", role: "progressbar", "aria-label": t("review.working_label"), "aria-valuemin": "0", "aria-valuemax": String(b.total), "aria-valuenow": String(b.done) },
        el("span", { style: "width: " + Math.round((100 * b.done) / b.total) + "%" }))
      : el("div", { class: "review-progress", role: "progressbar", "aria-label": t("review.working_label") }, el("span"));
    const stage = known ? t("review.progress", { done: b.done, total: b.total }) : t(b.status === "waiting" ? "review.waiting" : "review.reading");
    box.append(bar, el("p", { class: "review-count" }, stage), el("p", { class: "review-working" }, t("review.working", { name: seatName(b.seat), n: secs })));
  } else if (view.failure) {
    box.append(el("p", { class: "review-failure", role: "alert" }, view.failure));
  }
}

function render() {
  renderStatus();
  const out = $("#review-out");
  out.replaceChildren();
  const r = view.review;
  if (!r) return;
  out.append(summaryBlock(r), costliestBlock(r), ...r.hands.map((h) => handBlock(r, h)));
  if (view.selected) select(view.selected, false);
}

/** Agreement and value lost as words. */
function summaryLine(s, hands) {
  const parts = [t("review.agreed", { agreed: s.agreed, n: s.decisions, pct: s.decisions ? Math.round((100 * s.agreed) / s.decisions) : 100 })];
  // A negative loss is a gain: said so, not "lost about −0.7".
  parts.push(s.lost < -0.05 ? t("review.gained", { lost: lostText(-s.lost) }) : t("review.lost", { lost: lostText(Math.max(0, s.lost)) }));
  if (hands) parts.push(t("review.lost_per_hand", { lost: signedLost(s.lost / hands) }));
  parts.push(t("review.flagged_n", { n: s.flagged }));
  return parts.join(t("review.sep"));
}

function signedLost(x) { return (Number(x) || 0).toFixed(2); }

/** Value lost in words, to one decimal ("about 4.2 chips" in the catalogue's words): the
 * uncertainty is the bands' job, not a "±". */
function lostText(mean) { return (Number(mean) || 0).toFixed(1); }

/** The alternative of `d` that was played (undefined when it was not valued). */
function playedOf(d) {
  return d.alternatives.find((a) => JSON.stringify(a.action) === JSON.stringify(d.played));
}

/** The band of what was played ("expert" when it is the expert's choice, null when not compared). */
function playedBand(d) {
  const p = playedOf(d);
  return p ? p.band : null;
}

/** A decision is a loss only when its played choice's band says so (worse beyond noise). */
function isLoss(d) { return !d.agreed && isLossBand(playedBand(d)); }

/** How what was played compares with the expert's choice: "slightly worse, about 0.4 chips a
 * hand lost" for a loss, the band alone otherwise ("about equal"). */
function comparedText(d) {
  const band = playedBand(d);
  return isLoss(d) && d.lost ? t("review.loss", { band: bandText(band), lost: lostText(d.lost.mean) }) : bandText(band);
}

function summaryBlock(r) {
  const who = r.name || seatName(r.seat);
  return el("div", { class: "review-summary", id: "review-summary" },
    el("h3", {}, t("review.match_title", { name: who, hands: r.hands.length })),
    el("p", { class: "review-match-line" }, summaryLine(r.summary, r.hands.length || 1)),
    el("p", { class: "review-unit" }, t("review.unit_note", { rules: rulesName(r.rules), unit: unitName(r.score_unit), n: r.rollouts })),
    el("p", { class: "review-legend" }, t("review.legend")),
    r.complete ? null : el("p", {}, t("review.incomplete")));
}

/** The losses (decisions whose band is worse), costliest first (the five dearest), each a link
 * to itself. */
function costliestBlock(r) {
  const all = r.hands.flatMap((h) => h.decisions).filter(isLoss);
  all.sort((a, b) => (b.lost ? b.lost.mean : 0) - (a.lost ? a.lost.mean : 0));
  const box = el("div", { class: "review-costliest" }, el("h3", {}, t("review.costliest")));
  if (!all.length) { box.append(el("p", {}, t("review.none_flagged"))); return box; }
  const list = el("ol", {});
  for (const d of all.slice(0, 5)) {
    list.append(el("li", {}, el("button", { type: "button", class: "review-jump", "data-target": idOf(d), onclick: () => select(d, true) },
      t("review.decision_ref", { hand: d.hand, n: d.number }), " ", el("span", { class: "review-cost neg" }, comparedText(d)),
      el("small", {}, " " + t("review.played_short", { action: actionLabel(d.played) }) + t("review.sep") + t("review.expert_short", { action: actionLabel(d.expert) })))));
  }
  box.append(list);
  return box;
}

function handBlock(r, h) {
  const result = h.result === null || h.result === undefined ? "" : t("review.hand_result", { n: (h.result > 0 ? "+" : "") + h.result });
  const head = el("summary", {}, el("b", {}, t("review.hand_title", { n: h.hand })), result ? el("span", { class: signClass(h.result) }, t("review.sep") + result) : null,
    el("span", { class: "review-hand-line" }, t("review.sep") + summaryLine(h.summary, 0)));
  const open = h.summary.flagged > 0 || r.hands.length <= 2;
  const box = el("details", { class: "review-hand", "data-hand": String(h.hand), open: open ? "" : null }, head);
  for (const d of h.decisions) box.append(decisionCard(r, d));
  return box;
}

function kindText(kind) { return t("review.kind_" + kind); }

function decisionCard(r, d) {
  const loss = isLoss(d);
  const card = el("article", { class: "review-decision" + (loss ? " flagged" : "") + (d.agreed ? " agreed" : ""), id: idOf(d), "data-at": String(d.at), tabindex: "-1" });
  const head = el("button", { type: "button", class: "review-decision-head", onclick: () => select(d, true), title: t("review.show_in_replay") },
    el("span", { class: "review-num" }, t("review.decision_n", { n: d.number })), t("review.sep"),
    el("span", {}, kindText(d.kind)), el("small", {}, " · " + t("review.wall_left", { n: d.live_wall })),
    loss ? el("span", { class: "review-flag" }, " ⚑ " + t("review.flag")) : d.agreed ? el("span", { class: "review-ok" }, " ✓ " + t("review.agreed_mark")) : null);
  const hand = el("div", { class: "review-tiles" }, ...parseTiles(d.concealed).map((x) => tileImg(x, "small")),
    d.on_offer ? el("span", { class: "review-offer" }, t("review.on_offer"), " ", tileImg(d.on_offer, "small")) : null);
  const choices = el("p", { class: "review-choices" },
    el("span", { class: "review-played" }, t("review.played", { name: r.name || seatName(r.seat), action: actionLabel(d.played) })), el("br"),
    el("span", { class: "review-expert" }, t("review.expert", { action: actionLabel(d.expert) })),
    !d.agreed && playedOf(d) ? el("span", { class: "review-cost" + (loss ? " neg" : ""), "data-band": playedBand(d) || "none" }, t("review.sep") + comparedText(d)) : null);
  card.append(head, hand, choices);
  if (d.alternatives.length) {
    // Every option paid nothing in the playouts (nobody won in them): say so, not "about equal".
    if (d.alternatives.every((a) => a.value.mean === 0 && a.value.se === 0)) card.append(el("p", { class: "review-unvalued" }, t("review.no_difference")));
    card.append(alternativesTable(d));
  } else card.append(el("p", { class: "review-unvalued" }, t("review.not_valued")));
  if (loss) card.append(el("p", { class: "review-why" }, whyText(d)));
  return card;
}

/** Alternatives shown before "show all": the expert's, the best others and the one played. */
const FIRST_ALTERNATIVES = 4;

/** Every alternative valued: the expert's first, then best first; the played one marked; past
 * the first few (and the one played) behind a "show all" button. */
function alternativesTable(d) {
  const body = el("tbody");
  let hidden = 0;
  d.alternatives.forEach((a, k) => {
    const same = (x) => JSON.stringify(x) === JSON.stringify(a.action);
    const marks = (same(d.expert) ? "★" : "") + (same(d.played) ? "●" : "");
    const more = k >= FIRST_ALTERNATIVES && !same(d.played) && !same(d.expert);
    if (more) hidden += 1;
    body.append(el("tr", { class: (same(d.expert) ? "is-expert " : "") + (same(d.played) ? "is-played " : "") + (more ? "more" : "") },
      el("td", { class: "review-mark" }, marks), el("td", {}, actionLabel(a.action)),
      el("td", { class: "mono review-value " + signClass(a.value.mean) }, valueText(a.value)),
      el("td", { class: "review-band" + (isLossBand(a.band) ? " neg" : ""), "data-band": a.band || "none" }, bandText(a.band)),
      el("td", { class: "review-facts" }, factsParts(a.facts).join(t("expert.sep")))));
  });
  const box = el("div", { class: "review-alts-box" }, el("table", { class: "review-alts" },
    el("thead", {}, el("tr", {}, el("th", {}), el("th", {}, t("review.col_action")), el("th", {}, t("review.col_value")), el("th", {}, t("review.col_band")), el("th", {}, t("review.col_facts")))), body));
  if (hidden) {
    const button = el("button", { type: "button", class: "review-more", "aria-expanded": "false" }, t("review.show_all", { n: d.alternatives.length }));
    button.onclick = () => {
      const open = box.classList.toggle("show-all");
      button.setAttribute("aria-expanded", String(open));
      button.textContent = open ? t("review.show_fewer") : t("review.show_all", { n: d.alternatives.length });
    };
    box.append(button);
  }
  return box;
}

/** Why the expert's choice is better, in the facts of both. */
function whyText(d) {
  const find = (x) => d.alternatives.find((a) => JSON.stringify(a.action) === JSON.stringify(x));
  const e = find(d.expert), p = find(d.played);
  const words = (a) => (a ? factsParts(a.facts).concat(a.value ? [t("expert.worth", { value: signed2(a.value.mean) })] : []).join(t("expert.sep")) : "");
  return t("review.why", { expert: actionLabel(d.expert), expert_facts: words(e), played: actionLabel(d.played), played_facts: words(p) });
}

/** Marks decision `d`, shows it, and (when `move`) takes the replay there. */
function select(d, move) {
  view.selected = d;
  for (const c of document.querySelectorAll(".review-decision.selected")) c.classList.remove("selected");
  const card = document.getElementById(idOf(d));
  if (card) {
    const hand = card.closest("details");
    if (hand) hand.open = true;
    card.classList.add("selected");
    if (move) card.scrollIntoView({ block: "nearest" });
  }
  if (move && view.jump) view.jump(d.at, d, view.review ? view.review.chair : null);
}
