// The "your turn" cue: when a decision comes to the viewer the tab title says so (seen from
// another tab, in the language chosen now), a phone vibrates and a short tone sounds, each
// unless turned off with its switch in the header (remembered on this device).

import { el } from "./dom.js";
import { t, onLanguageChange } from "./i18n.js";

const SOUND_KEY = "majiang.sound";
const VIBRATE_KEY = "majiang.vibrate";
let wasMyTurn = false;
let audio = null;
// Browsers let a page sound only after the person touched it: until then the title and the
// vibration carry the cue (and no audio machinery is started for nothing).
let touched = false;
for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, () => { touched = true; }, { once: true, capture: true });
}

/** Whether a remembered switch is on (it is unless turned off). */
function switchOn(key) {
  try { return localStorage.getItem(key) !== "off"; } catch (_) { return true; }
}

/** Whether the tone is on (it is unless turned off). */
export function soundOn() { return switchOn(SOUND_KEY); }

/** Whether the phone vibrates at the cue (it does unless turned off). */
export function vibrationOn() { return switchOn(VIBRATE_KEY); }

function beep() {
  if (!touched) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch (_) { /* no audio: the title and the buttons still say it */ }
}

/** The tab's title: the app's name, led by "your turn" while it is (both in the language now). */
function retitle() {
  const base = t("app.title");
  document.title = wasMyTurn ? "● " + t("table.your_turn_title") + " · " + base : base;
}
onLanguageChange(retitle);

/** Tells the cue whether it is the viewer's turn now; it fires when that starts. (The title's
 * words are the catalogue's, so that they follow a change of language; a second argument,
 * the words as the caller had them, is not needed.) */
export function turnCue(myTurn) {
  if (myTurn && !wasMyTurn) {
    if (soundOn()) beep();
    if (vibrationOn() && navigator.vibrate) { try { navigator.vibrate(150); } catch (_) { /* not allowed */ } }
  }
  wasMyTurn = !!myTurn;
  retitle();
  document.body.classList.toggle("my-turn", wasMyTurn);
}

/** A header switch for the remembered setting `key`, labelled by `words()`. */
function mountSwitch(id, key, words) {
  const header = document.querySelector("header");
  if (!header || document.querySelector("#" + id)) return;
  const b = el("button", { type: "button", id, class: "cue-switch" });
  const label = () => {
    b.textContent = words(switchOn(key));
    b.setAttribute("aria-pressed", String(switchOn(key)));
  };
  b.addEventListener("click", () => {
    try { localStorage.setItem(key, switchOn(key) ? "off" : "on"); } catch (_) { /* storage off */ }
    label();
  });
  label();
  onLanguageChange(label);
  header.insertBefore(b, document.querySelector("#lang-switch"));
}

/** Puts the sound switch into the header (before the language switch), and the vibration
 * switch beside it where the device can vibrate. */
export function mountSoundSwitch() {
  mountSwitch("sound-switch", SOUND_KEY, (on) => (on ? "♪ " + t("cue.sound_on") : "♪̸ " + t("cue.sound_off")));
  if ("vibrate" in navigator) {
    mountSwitch("vibrate-switch", VIBRATE_KEY, (on) => t(on ? "cue.vibrate_on" : "cue.vibrate_off"));
  }
}
