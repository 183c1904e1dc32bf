// The lobby's timer choices: how long a person has to claim a discard (which is also how long
// every discard waits in a room with people, whoever could claim it) and how long for a turn.
// A choice of "server default" sends nothing, so the server's own (`majiang serve
// --claim-timeout-ms` / `--turn-timeout-ms`) applies.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";

/** The claim timer's choices in milliseconds; "" is the server's default, 0 is off. */
const CLAIM_CHOICES = ["", 3000, 5000, 8000, 15000, 0];
/** The turn timer's choices in milliseconds, as CLAIM_CHOICES. */
const TURN_CHOICES = ["", 15000, 30000, 60000, 0];

/** This server's defaults (`GET /api/timers`), once asked; until then "server default" alone. */
let SERVER_DEFAULTS = null;

/** A timer's length in words: off, or so many seconds. */
function lengthLabel(ms) {
  return ms === 0 ? t("lobby.timer_off") : t("lobby.timer_seconds", { n: ms / 1000 });
}

/** A choice's words in the page's language: the server's default (with its length, once
 * known), off, or so many seconds. `field` names the timer in `SERVER_DEFAULTS`. */
function choiceLabel(ms, field) {
  if (ms === "") {
    const known = SERVER_DEFAULTS && SERVER_DEFAULTS[field];
    if (known === 0) return t("lobby.timer_server_default_off");
    return Number.isInteger(known)
      ? t("lobby.timer_server_default_is", { value: lengthLabel(known) })
      : t("lobby.timer_server_default");
  }
  return lengthLabel(ms);
}

/** Fills (or relabels, keeping the choice) one timer's menu. */
function fill(select, choices, field) {
  const kept = select.value;
  select.replaceChildren(...choices.map((ms) => el("option", { value: String(ms) }, choiceLabel(ms, field))));
  select.value = kept;
  if (select.selectedIndex < 0) select.value = "";
}

/** Fills both timers' menus in the page's language (again on a change of language). */
export function renderTimerChoices() {
  fill($("#claim-timeout"), CLAIM_CHOICES, "claim_timeout_ms");
  fill($("#turn-timeout"), TURN_CHOICES, "turn_timeout_ms");
}

/** Asks the server for its default timers, then names them in the "server default" choices
 * (left unnamed when the server cannot be asked). */
export async function loadServerTimers() {
  try {
    const res = await fetch("/api/timers");
    if (res.ok) SERVER_DEFAULTS = await res.json();
  } catch (_) {
    return;
  }
  renderTimerChoices();
}

/** The timers chosen, as `POST /api/rooms` takes them: a "server default" is left out. */
export function chosenTimers() {
  const out = {};
  for (const [field, css] of [["claim_timeout_ms", "#claim-timeout"], ["turn_timeout_ms", "#turn-timeout"]]) {
    const v = $(css).value;
    if (v !== "") out[field] = Number(v);
  }
  return out;
}
