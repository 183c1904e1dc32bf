// What the server tells a person (a refused move, a not-a-win reason, a refused house rule, an
// API error), put in the chosen language. The server sends each message as a catalogue key
// with named values (`{key, args}`) beside its English (`message` on the WebSocket, `error` from
// the HTTP API); the catalogue's string for the key is filled with the values, each worded too:
// tiles by name, seat winds, rule sets, house rules by their meaning, what an option takes, lists
// joined, a message inside a message worded in turn. Without a key the catalogue knows, the
// English is shown as the server wrote it.

import { t, has } from "./i18n.js";
import { allowedText, optionMeaning, rulesName, seatName } from "./words.js";

/** One value of a message in words (`name`: its name, `args`: all the values). */
function valueText(name, v, args) {
  if (Array.isArray(v)) return v.map((x) => valueText(name, x, args)).join(t("common.list_sep"));
  if (v && typeof v === "object") {
    if (typeof v.key === "string") return said(v, v.text);
    if (name === "allowed") return allowedText({ allowed: v });
    return v.text ?? JSON.stringify(v);
  }
  if (typeof v !== "string") return String(v ?? "");
  if ((name === "tile" || name === "drawn" || name === "lowest") && has("tile." + v)) return t("tile." + v);
  if ((name === "seat" || name === "from" || name === "left") && has("seat." + v)) return seatName(v);
  if (name === "rules") return rulesName(v);
  if ((name === "key" || name === "keys") && typeof args.rules === "string") return optionMeaning(args.rules, { key: v, meaning: v });
  return v;
}

/** A `{key, args}` message in words; `english` when the catalogue has no string for the key. */
export function said(m, english = "") {
  if (!m || typeof m.key !== "string" || m.key === "" || m.key === "text" || !has(m.key)) {
    const text = m && m.key === "text" && m.args ? m.args.text : english;
    return String(text ?? "");
  }
  const args = m.args || {};
  const words = {};
  for (const [name, v] of Object.entries(args)) words[name] = valueText(name, v, args);
  return t(m.key, words);
}

/** A message from the server in the chosen language: a WebSocket `error` (`message`), an
 * HTTP refusal (`error`), or a scoring answer's not-a-win reason (`why` beside `reason`). */
export function serverText(body) {
  if (body == null) return "";
  if (typeof body !== "object") return String(body);
  if (body.why && typeof body.why === "object") return said(body.why, body.reason);
  return said(body, body.message ?? body.error ?? body.reason ?? "");
}
