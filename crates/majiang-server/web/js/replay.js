// The replay viewer: every stored action of a finished match as a step with every hand open,
// and after each hand its summary (hands face up, patterns, payments) as a step of its own.

import { $, el } from "./dom.js";
import { t, onLanguageChange } from "./i18n.js";
import { setWildcard } from "./tiles.js";
import { renderBoard } from "./board.js";
import { describeEvent, actionLabel } from "./words.js";
import { renderSummary, revealFromFrame } from "./result.js";

/** The steps: each frame, and after a frame that ends a hand, that hand's summary. */
function buildSteps(frames) {
  const steps = [];
  let won = null;
  frames.forEach((f, i) => {
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

/** Shows the replay of finished match `room`. */
export async function showReplay(room) {
  $("#replay").hidden = false;
  $("#replay-room").textContent = room;
  const res = await fetch("/api/rooms/" + room + "/replay");
  const frames = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) { $("#replay-action").textContent = frames.error; return; }
  const info = await (await fetch("/api/rooms/" + room)).json();
  const nameOf = (chair) => { const s = info.seats.find((x) => x.player === chair); return s ? s.name : "#" + chair; };
  const who = { nameOf, me: null };
  $("#replay-board").append($("#board"));
  const steps = buildSteps(frames);
  let i = 0;
  const slider = $("#replay-slider");
  slider.max = String(steps.length - 1);
  const show = () => {
    const step = steps[i];
    const f = frames[step.frame];
    slider.value = String(i);
    $("#replay-pos").textContent = t("replay.pos", { i: i + 1, n: steps.length, hand: f.hand_number });
    setWildcard(f.view.wildcard);
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
    $("#replay-action").textContent = (a ? t("replay.acted", { who: nameOf(a.player), action: actionLabel(a.action) }) + " " : "") + evs.slice(-3).join(" · ");
    renderBoard(f.view, 0, { nameOf, concealedAll: f.concealed.length ? f.concealed : null });
  };
  const go = (k) => { i = Math.max(0, Math.min(steps.length - 1, k)); show(); };
  $("#replay-first").onclick = () => go(0);
  $("#replay-prev").onclick = () => go(i - 1);
  $("#replay-next").onclick = () => go(i + 1);
  $("#replay-last").onclick = () => go(steps.length - 1);
  slider.oninput = () => go(Number(slider.value));
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") go(i + 1); if (e.key === "ArrowLeft") go(i - 1); });
  onLanguageChange(show);
  show();
}
