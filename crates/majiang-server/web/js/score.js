// The scoring page (/score): a real table's winning hand built by tapping, scored by the
// server's POST /api/score (the library's one scoring call, the answer of `majiang score
// --json`), shown as patterns, total and every seat's payment with its reason. Opened from a
// ledger (/score?ledger=ID) it fills in what the ledger decides (rule set, house rules, dealer,
// wind, lao) and records the scored hand there.

import { $, el, signed, signClass } from "./dom.js";
import { t, loadLanguage, mountLanguageSwitch, onLanguageChange, currentLanguage } from "./i18n.js";
import { setWildcard, tileImg, tileName } from "./tiles.js";
import { renderRuleForm, readRuleForm } from "./rule-form.js";
import { serverText } from "./server-words.js";
import { patternName, patternValue, reasonText, rulesName, seatName } from "./words.js";
import { emptyHand, addTile, handJson, renderHand, renderKeyboard } from "./score-hand.js";

const SITUATIONS = ["last_wall_tile", "last_discard", "kong_replacement", "heavenly", "earthly"];
const WINDS = ["east", "south", "west", "north"];

let RULESETS = {};
/** The ledger this hand is for (its view from GET /api/ledgers/ID), or null. */
let ledger = null;

const state = {
  target: "winner",
  mode: "concealed",
  hands: { winner: emptyHand() },
  winning: null,
  win: "self_draw",
  discarder: "",
  seat: "east",
  dealer: "east",
  wind: "east",
  situation: new Set(),
  kongChain: 0,
  gambits: 0,
  lao: 1,
  wildcard: "",
  seats: WINDS.slice(),
  answer: null,
  request: null,
  keyboard: true,
};

function ruleset() { return RULESETS[$("#c-rules").value] || null; }
function hasOption(key) { return (ruleset()?.options || []).some((o) => o.key === key); }

function readOptions() {
  if (ledger) return ledger.options;
  return readRuleForm($("#c-rule-form"), ruleset());
}

/** The seats at the table, in turn order, from the rule set and its `players` option. */
function seatsNow() {
  const r = ruleset();
  if (!r) return WINDS.slice();
  let n = r.default_players;
  try {
    const o = readOptions();
    if (Number.isInteger(o.players) && r.seat_counts.includes(o.players)) n = o.players;
  } catch (_) { /* unreadable options: the default size; scoring says why */ }
  return (r.seat_orders && r.seat_orders[String(n)]) || WINDS.slice();
}

/** "East · Ann" in a ledger, else "East". */
function seatLabel(seat) {
  if (!ledger?.next) return seatName(seat);
  const chair = ledger.next.seats.indexOf(seat);
  return seatName(seat) + (chair >= 0 ? " · " + ledger.players[chair] : "");
}

function select(id, values, current, label, onPick) {
  const s = $(id);
  s.replaceChildren(...values.map((v) => el("option", { value: v, selected: v === current ? "" : null }, label(v))));
  s.value = current;
  s.onchange = (e) => { onPick(e.target.value); render(); };
}

/** The scoring request (docs/score-json.md) the page describes. */
export function buildRequest() {
  const r = ruleset();
  const winner = handJson(state.hands.winner);
  const req = {
    rules: r ? r.name : $("#c-rules").value,
    itemise: true,
    options: readOptions(),
    concealed: winner.concealed,
    melds: winner.melds,
    winning_tile: state.winning || "",
    win: state.win,
    seat: state.seat,
    dealer: state.dealer,
    prevailing_wind: state.wind,
    flowers: winner.flowers,
    situation: SITUATIONS.filter((s) => state.situation.has(s)),
  };
  if (state.win !== "self_draw") req.discarder = state.discarder;
  if (r?.lao) {
    req.lao = state.lao;
    req.gambits = state.gambits;
    req.kong_chain = state.kongChain;
  }
  if (hasOption("wildcard") && state.wildcard) req.wildcard = state.wildcard;
  const others = {};
  for (const [seat, hand] of Object.entries(state.hands)) {
    if (seat === "winner" || seat === state.seat || !state.seats.includes(seat)) continue;
    const h = handJson(hand);
    if (h.concealed || h.melds.length || h.flowers.length) others[seat] = h;
  }
  if (Object.keys(others).length) req.others = others;
  if (ledger?.next) Object.assign(req, ledger.next.fixed);
  return req;
}

/** Where a field's message shows: the error box whose `data-field` the field starts with. */
function errorBox(field) {
  if (!field) return $("#c-error");
  const head = field.replace(/\[.*$/, "").split(".")[0];
  const key = head === "others" ? "others" : head;
  return document.querySelector(`.field-error[data-field="${key}"]`) || $("#c-error");
}

function clearErrors() {
  for (const e of document.querySelectorAll(".field-error")) { e.textContent = ""; e.hidden = true; }
  for (const e of document.querySelectorAll(".at-fault")) e.classList.remove("at-fault");
}

function showError(message, field) {
  const f = field || (message.startsWith("options") ? "options" : message.startsWith("rules") ? "rules" : null);
  const box = errorBox(f);
  box.textContent = message;
  box.hidden = false;
  box.closest(".card")?.classList.add("at-fault");
  box.scrollIntoView({ block: "center", behavior: "smooth" });
}

async function score() {
  clearErrors();
  state.answer = null;
  let req;
  try { req = buildRequest(); } catch (e) { showError(e.message, "options"); return; }
  if (!req.winning_tile) { showError(t("companion.need_winning_tile"), "winning_tile"); return; }
  state.request = req;
  try {
    const res = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req) });
    const body = await res.json();
    if (!res.ok) { showError(serverText(body) || String(res.status), body.field); renderAnswer(); return; }
    state.answer = body;
  } catch (e) {
    showError(e.message, null);
  }
  state.keyboard = false;
  render();
  $("#c-answer").scrollIntoView({ block: "start", behavior: "smooth" });
}

async function recordInLedger() {
  const box = $("#c-record-error");
  box.hidden = true;
  const res = await fetch("/api/ledgers/" + ledger.id + "/hands", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ request: state.request }) });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) { box.textContent = serverText(body) || String(res.status); box.hidden = false; return; }
  location.href = "/ledger?id=" + encodeURIComponent(ledger.id);
}

function renderAnswer() {
  const box = $("#c-answer");
  box.replaceChildren();
  const a = state.answer;
  if (!a) return;
  if (!a.valid) {
    box.append(el("div", { class: "card answer invalid" }, el("h2", {}, t("companion.not_a_win")), el("p", {}, serverText(a))));
    return;
  }
  const patterns = el("table", { class: "patterns" }, el("tbody", {},
    ...a.patterns.map((p) => el("tr", {}, el("td", {}, patternName(p)), el("td", { class: "num" }, patternValue(p))))),
    el("tfoot", {}, el("tr", {}, el("th", {}, t("result.total")), el("th", { class: "num", id: "c-total" }, String(a.total)))));
  const payments = el("table", { class: "payments" }, el("tbody", {},
    ...state.seats.map((s) => el("tr", { "data-seat": s }, el("td", {}, seatLabel(s) + (s === state.seat ? " ★" : "")),
      el("td", { class: "num " + signClass(a.payments[s] || 0) }, signed(a.payments[s] || 0))))));
  const why = el("ul", { class: "itemised" }, ...(a.itemised || []).map((p) =>
    el("li", {}, el("b", {}, t("result.pays", { from: seatLabel(p.from), to: seatLabel(p.to), amount: p.amount })), " · ", reasonText(p.reason, p.text))));
  const card = el("div", { class: "card answer" },
    el("h2", {}, t("result.patterns")), patterns,
    el("h2", {}, t("result.payments")), payments,
    el("h3", {}, t("companion.why")), why);
  if (ledger?.next) {
    card.append(el("button", { type: "button", class: "primary", id: "c-record", onclick: recordInLedger },
      t("companion.record", { n: ledger.next.number })),
    el("p", { class: "field-error", id: "c-record-error", hidden: "" }));
  }
  box.append(card);
}

function renderHandTabs() {
  const tabs = $("#c-hand-tabs");
  const owners = ["winner", ...state.seats.filter((s) => s !== state.seat)];
  if (!owners.includes(state.target)) state.target = "winner";
  tabs.replaceChildren(...owners.map((o) => el("button", {
    type: "button", "aria-pressed": String(state.target === o), "data-target": o,
    onclick: () => { state.target = o; if (!state.hands[o]) state.hands[o] = emptyHand(); if (o !== "winner" && state.mode === "winning") state.mode = "concealed"; render(); },
  }, o === "winner" ? t("companion.winner_hand", { seat: seatLabel(state.seat) }) : t("companion.other_hand", { seat: seatLabel(o) }))));
}

function renderFacts() {
  const r = ruleset();
  const lao = !!r?.lao;
  $("#c-hangzhou").hidden = !lao;
  $("#c-wildcard-row").hidden = !hasOption("wildcard");
  $("#c-lao").value = state.lao;
  $("#c-gambits").value = state.gambits;
  $("#c-kong-chain").value = state.kongChain;
  renderWildcardPicker();
  for (const box of document.querySelectorAll("#c-situation input")) box.checked = state.situation.has(box.value);
  for (const b of document.querySelectorAll("#c-win button")) b.setAttribute("aria-pressed", String(b.dataset.win === state.win));
  $("#c-discarder-row").hidden = state.win === "self_draw";
  const others = state.seats.filter((s) => s !== state.seat);
  if (!others.includes(state.discarder)) state.discarder = others[0] || "";
  select("#c-discarder", others, state.discarder, seatLabel, (v) => { state.discarder = v; });
  select("#c-seat", state.seats, state.seat, seatLabel, (v) => { state.seat = v; });
  select("#c-dealer", state.seats, state.dealer, seatLabel, (v) => { state.dealer = v; });
  select("#c-wind", WINDS, state.wind, seatName, (v) => { state.wind = v; });
  for (const id of ["#c-rules", "#c-dealer", "#c-wind", "#c-lao"]) $(id).disabled = !!ledger;
  const form = $("#c-rule-form");
  if (form.dataset.rules !== (r ? r.name : "") || !!ledger !== (form.dataset.ledger === "1")) {
    renderRuleForm(form, r, ledger ? ledger.options : {}, { disabled: !!ledger, onChange: () => { state.answer = null; render(); } });
    form.dataset.rules = r ? r.name : "";
    form.dataset.ledger = ledger ? "1" : "0";
  }
}

/** Every tile kind a Caishen can be: the suits and the honours. */
const WILD_KINDS = [..."mps"].flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((r) => r + s)).concat([1, 2, 3, 4, 5, 6, 7].map((r) => r + "z"));

/** The Caishen chosen by tapping its tile (White Dragon, the default, first). */
function renderWildcardPicker() {
  const box = $("#c-wildcard");
  const chosenNow = state.wildcard || "";
  const kinds = ["", ...WILD_KINDS.filter((k) => k !== "5z")];
  box.replaceChildren(...kinds.map((k) => {
    const tile = k || "5z";
    const b = el("button", { type: "button", class: "pick-tile", role: "radio", "aria-checked": String(chosenNow === k), "data-tile": k, "aria-label": k ? tileName(tile) : t("companion.wildcard_default", { tile: tileName(tile) }) },
      tileImg(tile, "small"));
    b.addEventListener("click", () => { state.wildcard = k; state.answer = null; render(); });
    return b;
  }));
}

function renderRulesMenu() {
  const s = $("#c-rules");
  const current = s.value || "hongkong";
  s.replaceChildren(...Object.values(RULESETS).map((r) => el("option", { value: r.name },
    currentLanguage() === "en" ? r.english + " · " + r.chinese : rulesName(r.name))));
  if (RULESETS[current]) s.value = current;
}

function renderLedgerBanner() {
  const b = $("#c-ledger");
  b.hidden = !ledger;
  if (!ledger) return;
  const n = ledger.next;
  const dealer = n ? ledger.players[n.deal.dealer] : "";
  b.replaceChildren(el("p", {}, n ? t("companion.for_ledger", {
    n: n.number, dealer, wind: seatName(n.deal.prevailing_wind), rules: rulesName(ledger.rules),
  }) + (ledger.lao ? " · " + t("table.lao", { n: n.deal.lao }) : "") : t("ledger.over_short")),
  el("a", { href: "/ledger?id=" + encodeURIComponent(ledger.id) }, t("companion.back_to_ledger")));
}

function render() {
  state.seats = seatsNow();
  if (!state.seats.includes(state.seat)) state.seat = "east";
  if (!state.seats.includes(state.dealer)) state.dealer = "east";
  setWildcard(state.wildcard || null);
  renderLedgerBanner();
  renderHandTabs();
  const owner = state.target === "winner" ? state.seat : state.target;
  if (!state.hands[state.target]) state.hands[state.target] = emptyHand();
  renderHand($("#c-hand"), state, state.hands[state.target], owner, seatLabel, render);
  renderFacts();
  const kb = $("#c-keyboard");
  kb.hidden = !state.keyboard;
  document.body.classList.toggle("with-keyboard", state.keyboard);
  $("#c-keyboard-toggle").textContent = t(state.keyboard ? "companion.hide_keyboard" : "companion.show_keyboard");
  renderKeyboard(kb, state, (m) => { state.mode = m; render(); }, (tile, why) => {
    if (why) { flash(t(why)); return; }
    addTile(state, state.hands[state.target], tile);
    render();
  });
  renderAnswer();
}

let flashTimer = null;
function flash(text) {
  const f = $("#c-flash");
  f.textContent = text;
  f.hidden = false;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => { f.hidden = true; }, 1800);
}

function wire() {
  $("#c-rules").addEventListener("change", () => { state.answer = null; render(); });
  for (const b of document.querySelectorAll("#c-win button")) b.addEventListener("click", () => { state.win = b.dataset.win; render(); });
  for (const box of document.querySelectorAll("#c-situation input")) box.addEventListener("change", () => {
    if (box.checked) state.situation.add(box.value); else state.situation.delete(box.value);
  });
  const num = (id, key) => $(id).addEventListener("change", (e) => { state[key] = Math.max(0, Number(e.target.value) || 0); });
  num("#c-lao", "lao"); num("#c-gambits", "gambits"); num("#c-kong-chain", "kongChain");
  $("#c-score").addEventListener("click", score);
  $("#c-clear").addEventListener("click", () => {
    state.hands = { winner: emptyHand() }; state.winning = null; state.answer = null; state.target = "winner"; state.mode = "concealed";
    state.keyboard = true; clearErrors(); render();
  });
  $("#c-keyboard-toggle").addEventListener("click", () => { state.keyboard = !state.keyboard; render(); });
  $("#c-hand").addEventListener("click", () => { if (!state.keyboard) { state.keyboard = true; render(); } });
}

async function loadLedger(id) {
  const res = await fetch("/api/ledgers/" + encodeURIComponent(id));
  if (!res.ok) { showError(t("ledger.not_found"), null); return; }
  ledger = await res.json();
  $("#c-rules").value = ledger.rules;
  if (ledger.next) {
    state.dealer = ledger.next.fixed.dealer;
    state.wind = ledger.next.fixed.prevailing_wind;
    state.lao = ledger.next.fixed.lao;
  }
}

async function main() {
  const [, list] = await Promise.all([loadLanguage(), fetch("/api/rulesets").then((r) => (r.ok ? r.json() : [])).catch(() => [])]);
  RULESETS = Object.fromEntries(list.map((r) => [r.name, r]));
  mountLanguageSwitch();
  renderRulesMenu();
  wire();
  const id = new URLSearchParams(location.search).get("ledger");
  if (id) await loadLedger(id);
  onLanguageChange(() => { renderRulesMenu(); render(); });
  $("#score-page").hidden = false;
  render();
}

main();
