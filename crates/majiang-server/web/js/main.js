// The page's entry: loads the language, mounts the language switch and opens the page the
// address asks for (lobby, table, replay, match history).

import { loadLanguage, mountLanguageSwitch } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showReplay } from "./replay.js";
import { showHistory } from "./history.js";
import { registerServiceWorker, watchConnection } from "./offline.js";

/** The rule sets as the server describes them (`GET /api/rulesets`), by name. */
async function loadRulesets() {
  try {
    const res = await fetch("/api/rulesets");
    const list = res.ok ? await res.json() : [];
    return Object.fromEntries(list.map((r) => [r.name, r]));
  } catch (_) {
    return {};
  }
}

async function main() {
  const [, rulesets] = await Promise.all([loadLanguage(), loadRulesets()]);
  mountLanguageSwitch();
  watchConnection();
  registerServiceWorker();
  const params = new URLSearchParams(location.search);
  if (params.get("replay")) showReplay(params.get("replay"), rulesets);
  else if (params.get("room")) showTable(params.get("room"), params.get("token"), rulesets);
  else if (location.pathname.replace(/\/$/, "") === "/history" || params.has("history")) showHistory();
  else showLobby(rulesets);
}

main();
