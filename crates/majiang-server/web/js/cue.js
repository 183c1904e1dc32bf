// The "your turn" cue: when a decision comes to the viewer the tab title says so (seen from
// another tab), a phone vibrates, and a short tone sounds unless turned off with the header's
// switch (remembered on this device).

import { el } from "./dom.js";
import { t, onLanguageChange } from "./i18n.js";

const SOUND_KEY = "majiang.sound";
let baseTitle = null;
let wasMyTurn = false;
let audio = null;
// Browsers let a page sound only after the person touched it: until then the title and the
// vibration carry the cue (and no audio machinery is started for nothing).
let touched = false;
for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, () => { touched = true; }, { once: true, capture: true });
}

/** Whether the tone is on (it is unless turned off). */
export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) !== "off"; } catch (_) { return true; }
}

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

/** Tells the cue whether it is the viewer's turn now; it fires when that starts. */
export function turnCue(myTurn, titleText) {
  if (baseTitle === null) baseTitle = document.title;
  if (myTurn && !wasMyTurn) {
    if (soundOn()) beep();
    if (navigator.vibrate) { try { navigator.vibrate(150); } catch (_) { /* not allowed */ } }
  }
  document.title = myTurn ? "● " + titleText + " · " + baseTitle : baseTitle;
  document.body.classList.toggle("my-turn", !!myTurn);
  wasMyTurn = !!myTurn;
}

/** Puts the sound switch into the header (before the language switch). */
export function mountSoundSwitch() {
  const header = document.querySelector("header");
  if (!header || document.querySelector("#sound-switch")) return;
  const b = el("button", { type: "button", id: "sound-switch" });
  const label = () => {
    b.textContent = soundOn() ? "♪ " + t("cue.sound_on") : "♪̸ " + t("cue.sound_off");
    b.setAttribute("aria-pressed", String(soundOn()));
  };
  b.addEventListener("click", () => {
    try { localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (_) { /* storage off */ }
    label();
  });
  label();
  onLanguageChange(label);
  header.insertBefore(b, document.querySelector("#lang-switch"));
}
