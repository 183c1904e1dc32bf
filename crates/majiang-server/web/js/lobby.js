// The lobby: a new room from the server's rule sets (seats follow the set and its `players`
// option; house-rule help from the same description), timers, and the rooms, open first.

import { $, el } from "./dom.js";
import { t, onLanguageChange, currentLanguage, playerName } from "./i18n.js";
import { serverText } from "./server-words.js";
import { rulesName, unitName, optionMeaning, allowedText } from "./words.js";
import { renderInvite } from "./invite.js";
import { renderRuleForm, readRuleForm } from "./rule-form.js";
import { isOffline, reached } from "./offline.js";
import { renderTimerChoices, chosenTimers, loadServerTimers } from "./lobby-timers.js";

/** The bot difficulty levels the server knows (majiang::bots::LEVELS), easiest first. */
const BOT_LEVELS = ["easy", "normal", "hard"];

/** External bots the server's administrator allowed (`GET /api/bots`): seat kinds `ext:NAME`. */
let EXTERNAL_BOTS = [];

let RULESETS = {};
let rooms = [];

/** Reads the house-rules box: one `key = value` a line (JSON values, bare words as strings). */
export function parseOptions(text) {
  const options = {};
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const m = line.match(/^([A-Za-z0-9_]+)\s*=\s*(.+)$/);
    if (!m) throw new Error(t("lobby.house_rules_error", { line: JSON.stringify(line) }));
    let v = m[2].trim();
    try { v = JSON.parse(v); } catch (_) { /* a bare word is a string */ }
    options[m[1]] = v;
  }
  return options;
}

function chosenRuleset() { return RULESETS[$("#rules").value] || null; }

/** The house rules chosen: the controls', with any typed `key = value` lines over them. */
function chosenOptions() {
  return { ...readRuleForm($("#rule-form"), chosenRuleset()), ...parseOptions($("#options").value) };
}

/** Seats at the table: the set's `players` option when given (within its seat counts). */
function seatCount() {
  const r = chosenRuleset();
  if (!r) return 4;
  let players = r.default_players;
  try {
    const o = chosenOptions();
    if (Number.isInteger(o.players) && r.seat_counts.includes(o.players)) players = o.players;
  } catch (_) { /* unreadable: the default; creating the room says why */ }
  return players;
}

/** A valid example for the house-rules box: the first option other than `players`. */
function exampleOptions(r) {
  const o = r.options.find((x) => x.key !== "players") || r.options[0];
  return o ? o.key + " = " + JSON.stringify(o.default) : "";
}

function renderRulesHelp() {
  const r = chosenRuleset();
  const box = $("#rules-help");
  box.replaceChildren();
  if (!r) return;
  $("#options").placeholder = exampleOptions(r);
  const seats = r.seat_counts.length > 1 ? r.seat_counts[0] + "–" + r.seat_counts[r.seat_counts.length - 1] : String(r.seat_counts[0]);
  box.append(el("p", {}, t("lobby.ruleset_summary", { name: rulesName(r.name), seats, unit: unitName(r.unit) }) + (r.lao ? t("lobby.with_lao") : "") + t("common.full_stop")));
  const details = el("details", { open: "" }, el("summary", {}, t("lobby.options_help")));
  const list = el("dl");
  for (const o of r.options) list.append(el("dt", {}, el("code", { translate: "no" }, o.key + " = " + JSON.stringify(o.default))), optionHelp(r.name, o));
  details.append(list);
  box.append(details);
}

/** An option's meaning and what it takes; the examples of a written form stay as typed. */
function optionHelp(rules, o) {
  const a = o.allowed || {};
  if (a.kind === "form") return el("dd", {}, optionMeaning(rules, o) + t("common.colon") + t("allowed.form", { examples: "" }), el("code", { translate: "no" }, (a.examples || []).join(" ")));
  return el("dd", {}, optionMeaning(rules, o) + t("common.paren", { text: allowedText(o) }));
}

function renderRulesetMenu() {
  const list = Object.values(RULESETS);
  if (!list.length) return;
  const select = $("#rules");
  const current = select.value;
  select.replaceChildren();
  for (const r of list) {
    const label = currentLanguage() === "en" ? r.english + " · " + r.chinese : rulesName(r.name);
    select.append(el("option", { value: r.name }, label));
  }
  if (RULESETS[current]) select.value = current;
}

function renderSeatRows() {
  const box = $("#seats");
  const n = seatCount();
  const old = [...box.querySelectorAll(".seat-row")].map((r) => ({ name: r.querySelector("input").value, who: r.querySelector("select").value }));
  box.querySelectorAll(".seat-row").forEach((r) => r.remove());
  for (let i = 0; i < n; i++) {
    const prev = old[i] || { name: i === 0 ? t("lobby.default_you") : t("lobby.default_bot", { n: i }), who: i === 0 ? "person" : "normal" };
    const select = el("select", { name: "seat-kind-" + i },
      el("option", { value: "person" }, t("lobby.person")),
      ...BOT_LEVELS.map((level) => el("option", { value: level }, botLabel(level))),
      ...EXTERNAL_BOTS.map((kind) => el("option", { value: kind }, botLabel(kind))));
    select.value = prev.who;
    select.setAttribute("aria-label", t("lobby.seat_kind_label", { n: i + 1 }));
    box.append(el("div", { class: "seat-row" }, el("input", { name: "seat-name-" + i, value: prev.name, maxlength: "32", "aria-label": t("lobby.seat_name_label", { n: i + 1 }) }), select));
  }
}

function onRulesChange() { renderRuleControls(); renderRulesHelp(); renderSeatRows(); }

/** The house-rule controls of the chosen rule set (its seat count changes the seat rows). */
function renderRuleControls() {
  const form = $("#rule-form");
  let kept = {};
  try { kept = form.dataset.rules === $("#rules").value ? readRuleForm(form, chosenRuleset()) : {}; } catch (_) { /* unreadable: defaults */ }
  renderRuleForm(form, chosenRuleset(), kept, { onChange: renderSeatRows });
  form.dataset.rules = $("#rules").value;
}

async function createRoom(ev) {
  ev.preventDefault();
  const out = $("#created");
  out.hidden = false;
  let options;
  try { options = chosenOptions(); } catch (e) { out.textContent = e.message; return; }
  const seats = [...document.querySelectorAll("#seats .seat-row")].map((r) => {
    const who = r.querySelector("select").value;
    const s = { name: r.querySelector("input").value, bot: who !== "person" };
    if (s.bot) s.bot_kind = who;
    return s;
  });
  const body = { rules: $("#rules").value, options, seats, bot_delay_ms: Number($("#bot-delay").value || 0), hints: $("#allow-hints").checked, take_back: $("#take-back").value, ...chosenTimers() };
  if ($("#hands").value) body.hands = Number($("#hands").value);
  if ($("#continue-timeout").value) body.continue_timeout_ms = Number($("#continue-timeout").value) * 1000;
  const res = await fetch("/api/rooms", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) { out.textContent = t("lobby.refused", { error: serverText(data) }); return; }
  out.replaceChildren(el("h2", {}, t("lobby.room", { id: "" }), el("span", { class: "mono", translate: "no" }, data.room)));
  const list = el("div", { class: "invites" });
  const invites = [];
  for (const s of data.seats) {
    if (!s.link) { list.append(el("p", { class: "bot-seat" }, t("lobby.seat_is_bot", { name: s.name }))); continue; }
    const url = location.origin + s.link;
    invites.push({ seat: s.seat, name: s.name, url });
    const open = el("a", { href: s.link, class: "seat-link big-link", "data-seat": String(s.seat) }, t("lobby.open_seat"));
    list.append(el("div", { class: "invite-seat" }, renderInvite(s.name, url), open));
  }
  // The waiting room shows the invites again to whoever created the room on this device.
  try { localStorage.setItem("majiang.invites." + data.room, JSON.stringify(invites)); } catch (_) { /* storage off */ }
  out.append(el("p", { class: "invite-hint" }, t("lobby.invite_hint")), list,
    el("p", {}, t("lobby.spectators") + t("common.colon"), el("a", { href: data.spectate, translate: "no" }, location.origin + data.spectate)));
  loadRooms();
}

/** Open rooms first (waiting, then playing), newest first within each. */
function orderRooms(list) {
  const rank = { waiting: 0, playing: 1, hand_over: 1, finished: 2 };
  return list.map((r, i) => ({ r, i }))
    .sort((a, b) => (rank[a.r.status] ?? 1) - (rank[b.r.status] ?? 1) || (b.r.created ?? b.i) - (a.r.created ?? a.i))
    .map((x) => x.r);
}

async function loadRooms() {
  try {
    rooms = await (await fetch("/api/rooms")).json();
    reached(true);
  } catch (_) {
    rooms = [];
    reached(false);
  }
  renderRooms();
}

function renderRooms() {
  const body = $("#room-list tbody");
  body.replaceChildren();
  if (!rooms.length) body.append(el("tr", {}, el("td", { colspan: "5" }, t(isOffline() ? "offline.note" : "lobby.no_rooms"))));
  for (const r of orderRooms(rooms)) {
    const seats = r.seats.map((s) => playerName(s.name) + (s.bot ? t("common.paren", { text: t("common.bot") }) : s.connected ? " ●" : "")).join(t("common.list_sep"));
    const act = r.status === "finished" ? el("a", { class: "replay-link", href: "/?replay=" + r.id }, t("lobby.replay")) : el("a", { href: "/?room=" + r.id }, t("lobby.watch"));
    const status = t("status." + r.status) + (r.hand_number ? " · " + t("status.hand_n", { n: r.hand_number }) : "");
    body.append(el("tr", { class: "room-" + r.status }, el("td", { class: "mono", translate: "no" }, r.id), el("td", {}, rulesName(r.rules), r.hints ? el("small", { class: "hint-setting allowed" }, " " + t("hints.allowed")) : null), el("td", {}, status), el("td", { class: "seats-cell", translate: "no" }, seats), el("td", {}, act)));
  }
}

/** A seat kind's words: a level, or an external bot by the name the administrator gave it. */
function botLabel(kind) {
  return kind.startsWith("ext:") ? t("lobby.bot_external", { name: kind.slice(4) }) : t("lobby.bot_" + kind);
}

/** Asks the server which external bots it allows, then offers them in the seat rows. */
async function loadBots() {
  try {
    const res = await fetch("/api/bots");
    EXTERNAL_BOTS = res.ok ? (await res.json()).external || [] : [];
  } catch (_) {
    EXTERNAL_BOTS = [];
  }
  if (EXTERNAL_BOTS.length) renderSeatRows();
}

/** Shows the lobby, built from the rule sets the server sent. */
export function showLobby(rulesets) {
  RULESETS = rulesets;
  $("#lobby").hidden = false;
  renderRulesetMenu();
  onRulesChange();
  renderTimerChoices();
  $("#rules").addEventListener("change", onRulesChange);
  $("#options").addEventListener("input", renderSeatRows);
  $("#create-form").addEventListener("submit", createRoom);
  onLanguageChange(() => { renderRulesetMenu(); renderRuleControls(); renderRulesHelp(); relabelSeats(); renderTimerChoices(); renderRooms(); });
  loadRooms();
  loadBots();
  loadServerTimers();
  setInterval(loadRooms, 5000);
}

/** The seat kinds in the chosen language, keeping names and choices. */
function relabelSeats() {
  document.querySelectorAll("#seats .seat-row").forEach((row, i) => {
    row.querySelector("input").setAttribute("aria-label", t("lobby.seat_name_label", { n: i + 1 }));
    row.querySelector("select").setAttribute("aria-label", t("lobby.seat_kind_label", { n: i + 1 }));
  });
  for (const s of document.querySelectorAll("#seats select")) {
    for (const o of s.options) o.textContent = o.value === "person" ? t("lobby.person") : botLabel(o.value);
  }
}
