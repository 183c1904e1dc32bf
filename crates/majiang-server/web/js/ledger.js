// The table ledger (/ledger): start a table (names, rule set, house rules), then record each
// hand (a win scored on /score?ledger=ID, or a drawn hand), see the running totals, the next
// dealer, wind or lao, and the match end as the server works them out (the library's match
// step: nothing about rotation is decided here); undo the last hand; export CSV or JSON.
// A ledger is reached again by its link (/ledger?id=ID); this browser remembers recent ones.

import { $, el, signed, signClass } from "./dom.js";
import { serverText } from "./server-words.js";
import { t, loadLanguage, mountLanguageSwitch, onLanguageChange, currentLanguage } from "./i18n.js";
import { patternName, patternValue, reasonText, rulesName, seatName } from "./words.js";
import { renderRuleForm, readRuleForm } from "./rule-form.js";

const RECENT_KEY = "majiang.ledgers";
let RULESETS = {};
let view = null;

function recent() {
  try { return JSON.parse(localStorage.getItem(RECENT_KEY) || "[]"); } catch (_) { return []; }
}

function remember(v) {
  const list = recent().filter((r) => r.id !== v.id);
  list.unshift({ id: v.id, rules: v.rules, players: v.players, created: v.created });
  try { localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, 10))); } catch (_) { /* storage off */ }
}

async function call(method, path, body) {
  const res = await fetch(path, { method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => ({}));
  return { ok: res.ok, status: res.status, json };
}

// ---- starting a table ----------------------------------------------------------------------

function chosen() { return RULESETS[$("#l-rules").value] || null; }

function playerCount() {
  const r = chosen();
  if (!r) return 4;
  let n = Number($("#l-count").value) || r.default_players;
  if (!r.seat_counts.includes(n)) n = r.default_players;
  return n;
}

function renderStartForm() {
  const r = chosen();
  const count = $("#l-count");
  const counts = r ? r.seat_counts : [4];
  const keep = playerCount();
  count.replaceChildren(...counts.map((n) => el("option", { value: n, selected: n === keep ? "" : null }, String(n))));
  count.disabled = counts.length < 2;
  const n = playerCount();
  const box = $("#l-names");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  const order = (r && r.seat_orders[String(n)]) || [];
  box.replaceChildren(...Array.from({ length: n }, (_, i) => el("label", { class: "row" },
    el("span", {}, t("ledger.player", { n: i + 1 }) + (order[i] ? " · " + seatName(order[i]) : "")),
    el("input", { type: "text", maxlength: "40", required: "", value: old[i] ?? "", "data-player": i, autocomplete: "off" }))));
  const first = $("#l-first-dealer");
  first.replaceChildren(...Array.from({ length: n }, (_, i) => el("option", { value: i }, t("ledger.player", { n: i + 1 }))));
  $("#l-first-lao-row").hidden = !(r && r.options.some((o) => o.key === "dice_double_starts_lao3"));
  // House rules as controls; the player count has its own menu above.
  const form = $("#l-rule-form");
  let kept = {};
  try { kept = form.dataset.rules === (r && r.name) ? readRuleForm(form, r) : {}; } catch (_) { /* unreadable: defaults */ }
  renderRuleForm(form, r, kept, { skip: ["players"] });
  form.dataset.rules = r ? r.name : "";
}

function renderRulesMenu() {
  const s = $("#l-rules");
  const current = s.value || "hangzhou";
  s.replaceChildren(...Object.values(RULESETS).map((r) => el("option", { value: r.name },
    currentLanguage() === "en" ? r.english + " · " + r.chinese : rulesName(r.name))));
  if (RULESETS[current]) s.value = current;
}

function renderRecent() {
  const list = recent();
  $("#l-recent-box").hidden = !list.length;
  $("#l-recent").replaceChildren(...list.map((r) => el("li", {}, el("a", { href: "/ledger?id=" + encodeURIComponent(r.id) },
    rulesName(r.rules) + " · " + r.players.join(", ")))));
}

async function start(e) {
  e.preventDefault();
  const err = $("#l-start-error");
  err.hidden = true;
  let options;
  try { options = readRuleForm($("#l-rule-form"), chosen()); } catch (x) { err.textContent = x.message; err.hidden = false; return; }
  const body = {
    rules: $("#l-rules").value,
    options,
    players: [...document.querySelectorAll("#l-names input")].map((i) => i.value),
    first_dealer: Number($("#l-first-dealer").value) || 0,
    first_lao: $("#l-first-lao").checked ? 3 : 1,
  };
  const res = await call("POST", "/api/ledgers", body);
  if (!res.ok) {
    err.textContent = serverText(res.json) || String(res.status);
    err.hidden = false;
    const m = /^players\[(\d+)\]/.exec(res.json.field || "");
    if (m) document.querySelector(`#l-names input[data-player="${m[1]}"]`)?.focus();
    return;
  }
  history.replaceState(null, "", "/ledger?id=" + encodeURIComponent(res.json.id));
  show(res.json);
}

// ---- a table's ledger ----------------------------------------------------------------------

function nameOf(chair) { return view.players[chair] ?? "#" + chair; }

// A rule set that counts lao (Hangzhou) keeps no prevailing wind: the lao says where the deal stands.
function dealText(deal) {
  if (view.lao) return t("ledger.deal_lao", { dealer: nameOf(deal.dealer), n: deal.lao });
  return t("ledger.deal", { dealer: nameOf(deal.dealer), wind: seatName(deal.prevailing_wind) });
}

function resultText(h) {
  if (h.winner === null || h.winner === undefined) return t("ledger.draw");
  const req = h.request || {};
  const how = req.win === "self_draw" ? t("win.self_draw")
    : t("ledger.from", { how: t("win." + req.win), who: nameOf(h.seats.indexOf(req.discarder)) });
  return t("ledger.won", { who: nameOf(h.winner), how });
}

function renderTotals() {
  const next = view.next;
  const rows = view.players.map((p, chair) => el("tr", { "data-chair": chair },
    el("td", {}, p + (next && next.deal.dealer === chair ? " " + t("ledger.dealer_mark") : "")),
    el("td", {}, next ? seatName(next.seats[chair]) : ""),
    el("td", { class: "num " + signClass(view.totals[chair] - view.starting_points) }, String(view.totals[chair]))));
  return el("table", { class: "totals", id: "l-totals" },
    el("thead", {}, el("tr", {}, el("th", {}, t("ledger.col_player")), el("th", {}, t("ledger.col_seat")), el("th", { class: "num" }, t("ledger.col_total")))),
    el("tbody", {}, ...rows));
}

function renderHands() {
  const head = el("tr", {}, el("th", {}, "#"), el("th", {}, t("ledger.col_result")), ...view.players.map((p) => el("th", { class: "num" }, p)));
  const rows = [];
  for (const h of view.hands.slice().reverse()) {
    rows.push(el("tr", { class: "hand-row", "data-hand": h.number },
      el("td", {}, String(h.number)),
      el("td", {}, el("div", {}, resultText(h)), el("small", { class: "muted" }, dealText(h.deal))),
      ...h.payments.map((v) => el("td", { class: "num " + signClass(v) }, signed(v)))));
    if (h.answer && h.answer.valid) {
      const detail = el("details", {}, el("summary", {}, t("ledger.details", { total: h.answer.total })),
        el("ul", {}, ...h.answer.patterns.map((p) => el("li", {}, patternName(p) + " " + patternValue(p)))),
        el("ul", { class: "itemised" }, ...(h.answer.itemised || []).map((p) => el("li", {},
          t("result.pays", { from: nameOf(h.seats.indexOf(p.from)), to: nameOf(h.seats.indexOf(p.to)), amount: p.amount }) + " · " + reasonText(p.reason, p.text)))));
      rows.push(el("tr", { class: "detail-row" }, el("td", {}), el("td", { colspan: String(1 + view.players.length) }, detail)));
    }
  }
  return el("div", { class: "scroll-x" }, el("table", { class: "hands", id: "l-hands" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

function render() {
  if (!view) return;
  $("#l-start").hidden = true;
  $("#l-table").hidden = false;
  $("#l-title").textContent = rulesName(view.rules) + " · " + view.players.join(", ");
  const link = location.origin + view.link;
  $("#l-link").replaceChildren(t("ledger.link") + " ", el("a", { href: view.link }, link));
  const next = $("#l-next");
  if (view.next) {
    next.replaceChildren(
      el("h2", {}, t("ledger.next", { n: view.next.number })),
      el("p", { id: "l-next-deal" }, dealText(view.next.deal)),
      el("div", { class: "actions" },
        el("a", { class: "button primary", id: "l-score", href: "/score?ledger=" + encodeURIComponent(view.id) }, t("ledger.score_win")),
        el("button", { type: "button", id: "l-draw", onclick: () => change("POST", "/hands", { draw: true }) }, t("ledger.record_draw"))));
  } else {
    next.replaceChildren(el("h2", { id: "l-over" }, t("ledger.over", { why: t("ledger.end." + (view.ended || "hands")) })));
  }
  const undo = $("#l-undo");
  undo.hidden = !view.hands.length;
  $("#l-totals-box").replaceChildren(renderTotals());
  $("#l-hands-box").replaceChildren(view.hands.length ? renderHands() : el("p", { class: "muted" }, t("ledger.no_hands")));
  $("#l-export-csv").href = "/api/ledgers/" + encodeURIComponent(view.id) + "/export.csv";
  $("#l-export-json").href = "/api/ledgers/" + encodeURIComponent(view.id) + "/export.json";
}

async function change(method, tail, body) {
  const err = $("#l-error");
  err.hidden = true;
  const res = await call(method, "/api/ledgers/" + encodeURIComponent(view.id) + tail, body);
  if (!res.ok) { err.textContent = serverText(res.json) || String(res.status); err.hidden = false; return; }
  show(res.json);
}

/** Keeps the shown ledger up to date with every change made on any device
 * (`GET /api/ledgers/{id}/live`, server-sent events). */
let live = null;
function follow(id) {
  if (live || !window.EventSource) return;
  live = new EventSource("/api/ledgers/" + encodeURIComponent(id) + "/live");
  live.addEventListener("ledger", (e) => {
    try { const v = JSON.parse(e.data); if (v.id === id) show(v); } catch (_) { /* a broken event: the next one mends it */ }
  });
  $("#l-live").hidden = false;
}

function show(v) {
  view = v;
  remember(v);
  render();
  follow(v.id);
}

async function main() {
  const [, list] = await Promise.all([loadLanguage(), fetch("/api/rulesets").then((r) => (r.ok ? r.json() : [])).catch(() => [])]);
  RULESETS = Object.fromEntries(list.map((r) => [r.name, r]));
  mountLanguageSwitch();
  renderRulesMenu();
  $("#l-rules").addEventListener("change", renderStartForm);
  $("#l-count").addEventListener("change", renderStartForm);
  $("#l-start-form").addEventListener("submit", start);
  $("#l-undo").addEventListener("click", () => {
    if (confirm(t("ledger.undo_confirm", { n: view.hands.length }))) change("DELETE", "/hands/last");
  });
  onLanguageChange(() => { renderRulesMenu(); renderStartForm(); renderRecent(); render(); });
  const id = new URLSearchParams(location.search).get("id");
  if (id) {
    const res = await call("GET", "/api/ledgers/" + encodeURIComponent(id));
    if (res.ok) { show(res.json); return; }
    $("#l-start-error").textContent = t("ledger.not_found");
    $("#l-start-error").hidden = false;
  }
  $("#l-start").hidden = false;
  renderStartForm();
  renderRecent();
}

main();
