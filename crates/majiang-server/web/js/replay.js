// The replay viewer: the stored actions of a finished match as steps with every hand open, and
// after each hand its summary (hands face up with what each Caishen stood for, patterns, each
// payment with its reason, as live) as a step of its own. Passes are folded into the step before
// (a box shows them again); a hand can be chosen; autoplay runs at a chosen speed; the keys
// are shown under the controls. Beside it the expert's review (review.js): a decision chosen
// there brings the replay to the moment it was taken.

import { $, el } from "./dom.js";
import { t, onLanguageChange, playerName } from "./i18n.js";
import { setWildcard, setExtraWinds, playsExtraWinds } from "./tiles.js";
import { renderBoard } from "./board.js";
import { describeEvent, actionLabel } from "./words.js";
import { renderSummary, revealFromFrame } from "./result.js";
import { serverText } from "./server-words.js";
import { mountReview } from "./review.js";

/** Whether frame `f` is a pass that changed nothing worth a step. */
function isQuietPass(f) {
  return !!(f.action && f.action.action === "pass" && !(f.events || []).length);
}

/** The steps: each frame (quiet passes only when `passes`), and after a frame that ends a
 * hand, that hand's summary. A step remembers how many passes it folded. */
export function buildSteps(frames, passes) {
  const steps = [];
  let won = null;
  frames.forEach((f, i) => {
    if (!passes && isQuietPass(f) && steps.length) {
      steps[steps.length - 1].folded = (steps[steps.length - 1].folded || 0) + 1;
      return;
    }
    steps.push({ frame: i });
    for (const e of f.events) {
      if (e.type === "hand_started") won = null;
      if (e.type === "won") won = e;
      if (e.type === "hand_ended") {
        const outcome = won ? { type: "win", winner: won.player, win: won.win, discarder: won.discarder, tile: won.tile, scored: won.scored } : { type: "draw" };
        steps.push({ frame: i, summary: { hand_number: f.hand_number, outcome, payments: e.payments }, won });
      }
    }
  });
  return steps;
}

/** Shows the replay of finished match `room`; `rulesets` (`GET /api/rulesets`, by name) says
 * what its rule set plays (its extra winds). */
export async function showReplay(room, rulesets = {}) {
  $("#replay").hidden = false;
  $("#replay-room").textContent = room;
  $("#replay-room").setAttribute("translate", "no");
  const res = await fetch("/api/rooms/" + room + "/replay");
  const frames = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) {
    // Nothing to step through or review: only the reason and the way back.
    for (const part of ["#replay-controls", "#replay .keys-help", "#review"]) $(part).hidden = true;
    $("#replay-action").setAttribute("role", "alert");
    $("#replay-action").replaceChildren(serverText(frames), " ", el("a", { href: "/", class: "back-to-lobby" }, t("link.back")));
    return;
  }
  const info = await (await fetch("/api/rooms/" + room)).json();
  const nameOf = (chair) => { const s = info.seats.find((x) => x.player === chair); return s ? playerName(s.name) : "#" + chair; };
  const who = { nameOf, me: null };
  $("#replay-board").append($("#board"));
  $("#board").hidden = false;
  let steps = buildSteps(frames, false);
  let i = 0;
  let timer = null;
  const slider = $("#replay-slider");
  const handMenu = $("#replay-hand");
  const hands = () => [...new Set(steps.map((s) => frames[s.frame].hand_number))];
  const firstOf = (hand) => steps.findIndex((s) => frames[s.frame].hand_number === hand);
  const fillHands = () => {
    handMenu.replaceChildren(...hands().map((h) => el("option", { value: String(h) }, t("replay.hand_option", { n: h }))));
  };
  // The review's decision being shown (its moment), until the replay moves elsewhere; the
  // chair at the bottom of the board (the reviewed seat's, once a review has been shown).
  let moment = null;
  let bottom = 0;
  const show = () => {
    const step = steps[i];
    const f = frames[step.frame];
    slider.max = String(steps.length - 1);
    slider.value = String(i);
    handMenu.value = String(f.hand_number);
    $("#replay-pos").textContent = t("replay.pos", { i: i + 1, n: steps.length, hand: f.hand_number });
    setWildcard(f.view.wildcard);
    setExtraWinds(playsExtraWinds(rulesets[info.rules], f.view.table.length));
    const summaryBox = $("#replay-summary");
    if (step.summary) {
      $("#replay-action").textContent = t("replay.summary");
      $("#board").hidden = true;
      const reveal = f.reveal || revealFromFrame(f.view, f.concealed, step.won);
      const seats = f.view.table.map((p) => p.seat);
      summaryBox.replaceChildren(renderSummary(step.summary, { reveal, explained: f.payments_explained || null, seats, nameOf }));
      summaryBox.hidden = false;
      return;
    }
    summaryBox.hidden = true;
    $("#board").hidden = false;
    const a = f.action;
    const evs = f.events.map((e) => describeEvent(e, who)).filter((x) => x);
    const parts = [];
    if (a) parts.push(t("replay.acted", { who: nameOf(a.player), action: actionLabel(a.action) }));
    parts.push(...evs.slice(-3));
    if (step.folded) parts.push(t("replay.passes_folded", { n: step.folded }));
    $("#replay-action").textContent = parts.join(" · ");
    if (moment && moment.step === i) {
      const back = el("button", { type: "button", class: "review-back", onclick: () => document.getElementById("rv-" + moment.d.hand + "-" + moment.d.number)?.scrollIntoView({ block: "center" }) }, t("review.back"));
      $("#replay-action").prepend(el("span", { class: "review-moment" }, t("review.moment", { hand: moment.d.hand, n: moment.d.number, name: nameOf(moment.chair) }), " "), back, " ");
    }
    renderBoard(f.view, bottom, { nameOf, concealedAll: f.concealed.length ? f.concealed : null });
  };
  const go = (k) => { i = Math.max(0, Math.min(steps.length - 1, k)); show(); };
  const hand = (delta) => {
    const list = hands();
    const at = list.indexOf(frames[steps[i].frame].hand_number);
    const next = list[Math.max(0, Math.min(list.length - 1, at + delta))];
    go(delta < 0 && firstOf(list[at]) < i ? firstOf(list[at]) : firstOf(next));
  };
  const play = (on) => {
    clearInterval(timer);
    timer = null;
    if (on) timer = setInterval(() => { if (i >= steps.length - 1) play(false); else go(i + 1); }, Number($("#replay-speed").value) || 800);
    $("#replay-play").textContent = timer ? "‖" : "▷"; // glyphs every system font has (⏸ ⏵ do not)
    $("#replay-play").setAttribute("aria-pressed", String(!!timer));
  };
  $("#replay-first").onclick = () => go(0);
  $("#replay-prev").onclick = () => go(i - 1);
  $("#replay-next").onclick = () => go(i + 1);
  $("#replay-last").onclick = () => go(steps.length - 1);
  $("#replay-prev-hand").onclick = () => hand(-1);
  $("#replay-next-hand").onclick = () => hand(1);
  $("#replay-play").onclick = () => play(!timer);
  $("#replay-speed").onchange = () => { if (timer) play(true); };
  handMenu.onchange = () => go(firstOf(Number(handMenu.value)));
  $("#replay-passes").onchange = () => {
    const frame = steps[i].frame;
    steps = buildSteps(frames, $("#replay-passes").checked);
    i = Math.max(0, steps.findIndex((s) => s.frame >= frame));
    fillHands();
    show();
  };
  slider.oninput = () => go(Number(slider.value));
  document.addEventListener("keydown", (e) => {
    if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) && e.target.type !== "range") return;
    const keys = { ArrowRight: () => go(i + 1), ArrowLeft: () => go(i - 1), PageDown: () => hand(1), PageUp: () => hand(-1), Home: () => go(0), End: () => go(steps.length - 1), " ": () => play(!timer) };
    if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
  });
  onLanguageChange(() => { fillHands(); show(); });
  fillHands();
  show();
  // A decision of the review: the step showing the table just before its action (the log's
  // `at`-th action; the replay's first frame is the deal, a new hand's deal a frame of its own).
  const jump = (at, d, chair) => {
    let seen = -1;
    const j = frames.findIndex((f) => f.action && ++seen === at);
    const before = Math.max(0, (j < 0 ? frames.length : j) - 1);
    let s = 0;
    steps.forEach((st, k) => { if (!st.summary && st.frame <= before) s = k; });
    play(false);
    moment = { step: s, d, chair };
    if (chair !== null && chair !== undefined) bottom = chair;
    go(s);
    if (window.matchMedia("(max-width: 1199px)").matches) $("#replay-action").scrollIntoView({ block: "start" });
  };
  mountReview(room, info.seats.map((s) => ({ seat: s.seat, name: s.name, player: s.player })), jump);
  if (new URLSearchParams(location.search).has("review")) $("#review").scrollIntoView({ block: "start" });
}
