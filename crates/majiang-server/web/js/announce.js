// What a screen reader is told as the game goes: the other players' discards and claims, read
// out politely (after what it is reading) from a live region nobody sees.

import { el } from "./dom.js";
import { describeEvent } from "./words.js";

/** The events read out: what the others throw and take (the viewer's own are their doing). */
const TOLD = new Set(["discarded", "claimed", "kong_declared", "kong_robbed", "won"]);

function region() {
  let box = document.getElementById("announcer");
  if (!box) {
    // Visually hidden, yet read: not `hidden`, not `display: none`.
    box = el("div", { id: "announcer", "aria-live": "polite", "aria-atomic": "false", role: "log",
      style: "position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0" });
    document.body.append(box);
  }
  return box;
}

/** Reads out the new `events` that are another player's discard or claim (`who`: the
 * viewer's chair as `me`, and `nameOf`, as `describeEvent` takes them). */
export function announceEvents(events, who) {
  const box = region();
  for (const e of events || []) {
    if (!TOLD.has(e.type) || (e.player !== undefined && e.player === who.me)) continue;
    const text = describeEvent(e, who);
    if (!text) continue;
    box.append(el("p", {}, text));
    // The region keeps the last few lines: enough to be read, never a growing page.
    while (box.childElementCount > 5) box.firstElementChild.remove();
  }
}
