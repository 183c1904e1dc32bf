// The match history page: finished matches (date, rule set, players, standings), each opening
// its replay, or its replay with the expert's review.

import { $, el, signClass } from "./dom.js";
import { t, onLanguageChange, currentLanguage } from "./i18n.js";
import { rulesName } from "./words.js";

let matches = null;
let failure = null;

function when(m) {
  const v = m.time ?? m.finished ?? m.finished_at ?? m.created;
  if (v === undefined || v === null || v === 0) return "";
  const d = typeof v === "number" ? new Date(v < 1e12 ? v * 1000 : v) : new Date(v);
  return isNaN(d) ? String(v) : d.toLocaleString({ zh: "zh-CN", "zh-Hant": "zh-HK" }[currentLanguage()] || "en-GB");
}

function playerNames(m) {
  return (m.players || []).map((p) => (typeof p === "string" ? p : p.name)).join(", ");
}

function standingsText(m) {
  const names = (m.players || []).map((p) => (typeof p === "string" ? p : p.name));
  return el("span", {}, ...(m.standings || []).map((s, i) => {
    const who = s.name ?? names[s.entrant ?? s.player] ?? "#" + (s.entrant ?? s.player);
    return el("span", { class: "standing" }, (i ? " · " : "") + (s.rank ?? i + 1) + ". " + who + " ", el("b", { class: signClass(s.points) }, s.points));
  }));
}

function render() {
  const body = $("#history-list tbody");
  body.replaceChildren();
  if (failure) { body.append(el("tr", {}, el("td", { colspan: "5" }, t("history.unavailable", { status: failure })))); return; }
  if (!matches) { body.append(el("tr", {}, el("td", { colspan: "5" }, t("common.loading")))); return; }
  if (!matches.length) { body.append(el("tr", {}, el("td", { colspan: "5" }, t("history.none")))); return; }
  for (const m of matches) {
    const id = m.id ?? m.room;
    body.append(el("tr", {},
      el("td", {}, when(m)), el("td", {}, rulesName(m.rules)), el("td", {}, playerNames(m)), el("td", {}, standingsText(m)),
      el("td", { class: "history-links" }, el("a", { class: "replay-link", href: "/?replay=" + id }, t("history.open")), " ",
        el("a", { class: "replay-link review-link", href: "/?replay=" + id + "&review=1" }, t("history.review")))));
  }
}

/** Shows the finished matches from `GET /api/matches`. */
export async function showHistory() {
  $("#history").hidden = false;
  onLanguageChange(render);
  render();
  try {
    const res = await fetch("/api/matches");
    if (!res.ok) failure = res.status;
    else matches = await res.json();
  } catch (e) {
    failure = e.message;
  }
  render();
}
