// majiang browser UI: lobby, table, replay viewer. Plain JS, no build step.
"use strict";

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
};

const SEAT_NAMES = { east: "East", south: "South", west: "West", north: "North", north_east: "North-East", south_west: "South-West" };
const WIND_NAMES = { east: "East", south: "South", west: "West", north: "North" };
const SEAT_ORDER = {
  3: ["east", "south", "north"],
  4: ["east", "south", "west", "north"],
  5: ["east", "south", "west", "north", "north_east"],
  6: ["east", "south", "south_west", "west", "north", "north_east"],
};

// The rule sets as the server describes them (GET /api/rulesets), by name.
let RULESETS = {};
const rulesetsLoaded = fetch("/api/rulesets")
  .then((res) => (res.ok ? res.json() : []))
  .then((list) => { for (const r of list) RULESETS[r.name] = r; })
  .catch(() => {});

// ---------- tiles ----------

/** "123m55z" -> ["1m","2m","3m","5z","5z"] */
function parseTiles(s) {
  const out = [];
  let digits = [];
  for (const c of s || "") {
    if (c >= "0" && c <= "9") digits.push(c);
    else { for (const d of digits) out.push(d + c); digits = []; }
  }
  return out;
}

function tileImg(t, cls = "") {
  const img = el("img", { class: "tile " + cls, src: "/tile/" + t + ".svg", alt: t, title: t, "data-tile": t });
  return img;
}

function backImg(cls = "") { return el("img", { class: "tile " + cls, src: "/tile/back.svg", alt: "?" }); }

function actionKey(a) { return JSON.stringify(a); }

function actionLabel(a) {
  if (typeof a === "string") return { win: "Win", pass: "Pass", pung: "Pung", kong: "Kong" }[a] || a;
  if (a.discard) return "Discard " + a.discard;
  if (a.chow) return "Chow " + a.chow.tiles.join(" ");
  if (a.concealed_kong) return "Concealed kong " + a.concealed_kong;
  if (a.added_kong) return "Added kong " + a.added_kong;
  return JSON.stringify(a);
}

/** Keys: w win, p pung, k kong, x pass, c/v/b the chows, 1-9 the declared kongs. */
function actionHotkeys(actions) {
  const chowKeys = ["c", "v", "b", "n"];
  let chows = 0, kongs = 0;
  return actions.map((a) => {
    if (a === "win") return "w";
    if (a === "pass") return "x";
    if (a === "pung") return "p";
    if (a === "kong") return "k";
    if (a.chow) return chowKeys[chows++] || "";
    kongs += 1;
    return kongs <= 9 ? String(kongs) : "";
  });
}

// ---------- lobby ----------

function parseOptions(text) {
  const options = {};
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const m = line.match(/^([A-Za-z0-9_]+)\s*=\s*(.+)$/);
    if (!m) throw new Error("house rules: cannot read " + JSON.stringify(line));
    let v = m[2].trim();
    try { v = JSON.parse(v); } catch (_) { /* a bare word is a string */ }
    options[m[1]] = v;
  }
  return options;
}

/** The chosen rule set's description, if the server sent it. */
function chosenRuleset() {
  return RULESETS[$("#rules").value] || null;
}

/** Seats at the table: the rule set's `players` option when it has one (within its seat
 * counts), else its default. */
function seatCount() {
  const r = chosenRuleset();
  if (!r) return 4;
  let players = r.default_players;
  try {
    const o = parseOptions($("#options").value);
    if (Number.isInteger(o.players) && r.seat_counts.includes(o.players)) players = o.players;
  } catch (_) { /* unreadable options: the default; creating the room will say why */ }
  return players;
}

/** A valid example for the house-rules box: the first non-seat option set to its default. */
function exampleOptions(r) {
  const o = r.options.find((x) => x.key !== "players") || r.options[0];
  return o ? o.key + " = " + JSON.stringify(o.default) : "";
}

/** The house-rule help under the box: each option of the chosen set, default and meaning. */
function renderRulesHelp() {
  const r = chosenRuleset();
  const box = $("#rules-help");
  if (!box) return;
  box.innerHTML = "";
  if (!r) return;
  $("#options").placeholder = exampleOptions(r);
  const seats = r.seat_counts.length > 1 ? r.seat_counts[0] + "–" + r.seat_counts[r.seat_counts.length - 1] : String(r.seat_counts[0]);
  box.append(el("p", {}, r.english + " (" + r.chinese + "): " + seats + " players, scored in " + r.unit + (r.lao ? ", with lao" : "") + "."));
  const list = el("dl");
  for (const o of r.options) {
    list.append(el("dt", {}, el("code", {}, o.key + " = " + JSON.stringify(o.default))), el("dd", {}, o.meaning + " (" + o.allowed_text + ")"));
  }
  box.append(list);
}

/** Fills the rule-set menu from the server's list, keeping the current choice. */
function renderRulesetMenu() {
  const list = Object.values(RULESETS);
  if (!list.length) return;
  const select = $("#rules");
  const current = select.value;
  select.innerHTML = "";
  for (const r of list) select.append(el("option", { value: r.name }, r.english + " · " + r.chinese));
  if (RULESETS[current]) select.value = current;
}

function onRulesChange() {
  renderRulesHelp();
  renderSeatRows();
}

function renderSeatRows() {
  const box = $("#seats");
  const n = seatCount();
  const old = [...box.querySelectorAll(".seat-row")].map((r) => ({ name: r.querySelector("input").value, who: r.querySelector("select").value }));
  box.querySelectorAll(".seat-row").forEach((r) => r.remove());
  for (let i = 0; i < n; i++) {
    const prev = old[i] || { name: i === 0 ? "You" : "Bot " + i, who: i === 0 ? "person" : "efficient" };
    const select = el("select", { name: "seat-kind-" + i },
      el("option", { value: "person" }, "person"), el("option", { value: "efficient" }, "bot (efficient)"), el("option", { value: "random" }, "bot (random)"));
    select.value = prev.who;
    box.append(el("div", { class: "seat-row" }, el("input", { name: "seat-name-" + i, value: prev.name, maxlength: "32" }), select));
  }
}

async function createRoom(ev) {
  ev.preventDefault();
  const out = $("#created");
  out.hidden = false;
  let options;
  try { options = parseOptions($("#options").value); } catch (e) { out.textContent = e.message; return; }
  const seats = [...document.querySelectorAll("#seats .seat-row")].map((r) => {
    const who = r.querySelector("select").value;
    const s = { name: r.querySelector("input").value, bot: who !== "person" };
    if (s.bot) s.bot_kind = who;
    return s;
  });
  const body = { rules: $("#rules").value, options, seats, bot_delay_ms: Number($("#bot-delay").value || 0) };
  if ($("#hands").value) body.hands = Number($("#hands").value);
  if ($("#claim-timeout").value) body.claim_timeout_ms = Number($("#claim-timeout").value) * 1000;
  const res = await fetch("/api/rooms", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) { out.textContent = "Refused: " + data.error; return; }
  out.innerHTML = "";
  out.append(el("h2", {}, "Room " + data.room));
  const list = el("ul");
  for (const s of data.seats) {
    if (!s.link) { list.append(el("li", {}, s.name + ": bot")); continue; }
    const url = location.origin + s.link;
    list.append(el("li", {}, s.name + ": ", el("a", { href: s.link, class: "seat-link", "data-seat": String(s.seat) }, "open seat"), " — invite link: ", el("code", {}, url)));
  }
  out.append(list, el("p", {}, "Spectators: ", el("a", { href: data.spectate }, location.origin + data.spectate)));
  loadRooms();
}

async function loadRooms() {
  const res = await fetch("/api/rooms");
  const rooms = await res.json();
  const body = $("#room-list tbody");
  body.innerHTML = "";
  for (const r of rooms.reverse()) {
    const seats = r.seats.map((s) => s.name + (s.bot ? " (bot)" : s.connected ? " ●" : "")).join(", ");
    const act = r.status === "finished" ? el("a", { href: "/?replay=" + r.id }, "replay") : el("a", { href: "/?room=" + r.id }, "watch");
    body.append(el("tr", {}, el("td", { class: "mono" }, r.id), el("td", {}, r.rules), el("td", {}, r.status + (r.hand_number ? " (hand " + r.hand_number + ")" : "")), el("td", {}, seats), el("td", {}, act)));
  }
}

function showLobby() {
  $("#lobby").hidden = false;
  renderSeatRows();
  rulesetsLoaded.then(() => { renderRulesetMenu(); onRulesChange(); });
  $("#rules").addEventListener("change", onRulesChange);
  $("#options").addEventListener("change", renderSeatRows);
  $("#options").addEventListener("input", renderSeatRows);
  $("#create-form").addEventListener("submit", createRoom);
  loadRooms();
  setInterval(loadRooms, 5000);
}

// ---------- table ----------

const game = { ws: null, seat: null, config: null, state: null, seq: 0, pending: false, queued: [], timerEnd: null };

function nameOf(chair) {
  const s = game.state && game.state.seats.find((x) => x.player === chair);
  return s ? s.name : "chair " + chair;
}

function describeEvent(e) {
  const who = (p) => nameOf(p);
  switch (e.type) {
    case "seats_chosen": return "Seats chosen; " + who(e.dealer) + " deals first";
    case "hand_started": return "Hand " + e.hand_number + ": " + who(e.dealer) + " deals, " + WIND_NAMES[e.prevailing_wind] + " wind" + (e.lao > 1 ? ", lao " + e.lao : "");
    case "wall_broken": return "Wall broken on side " + e.side + ", stack " + e.stack;
    case "flower_declared": return who(e.player) + " declares " + e.tile;
    case "indicator_revealed": return "Indicator " + e.tile + ": " + e.wildcard + " is wild";
    case "drew": return who(e.player) + " draws" + (e.tile ? " " + e.tile : "");
    case "replacement_drawn": return who(e.player) + " draws a replacement" + (e.tile ? " " + e.tile : "");
    case "discarded": return who(e.player) + " discards " + e.tile + (e.gambit ? " (Fortune Gambit)" : "");
    case "claimed": return who(e.player) + " claims " + e.tile + " from " + who(e.from) + " (" + e.meld.kind + ")";
    case "kong_declared": return who(e.player) + " declares a " + e.kind + " kong of " + e.tile;
    case "kong_robbed": return who(e.player) + " robs the kong of " + who(e.from);
    case "won": return who(e.player) + " wins (" + e.win.replace("_", " ") + ") on " + e.tile + ": " + e.scored.total;
    case "exhaustive_draw": return "The wall is exhausted: a drawn hand";
    case "hand_ended": return "Hand over";
    default: return null;
  }
}

function connectTable(room, token) {
  $("#table").hidden = false;
  $("#start").addEventListener("click", () => send({ type: "start" }));
  document.addEventListener("keydown", onKey);
  setInterval(tickTimer, 250);
  openSocket(room, token, 0);
}

/** Opens the room's WebSocket; when it drops, reconnects with the same token (the server sends
 * the whole state again). */
function openSocket(room, token, attempt) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const url = proto + "//" + location.host + "/ws/" + room + (token ? "?token=" + encodeURIComponent(token) : "");
  const ws = new WebSocket(url);
  game.ws = ws;
  ws.onopen = () => { attempt = 0; };
  ws.onmessage = (m) => onMessage(JSON.parse(m.data));
  ws.onclose = () => {
    game.pending = false;
    if (game.state && game.state.status === "finished") return;
    const wait = Math.min(10000, 500 * 2 ** attempt);
    $("#status-line").textContent = "disconnected — reconnecting in " + Math.round(wait / 1000) + " s";
    setTimeout(() => openSocket(room, token, attempt + 1), wait);
  };
}

function send(msg) { if (game.ws && game.ws.readyState === 1) game.ws.send(JSON.stringify(msg)); }

function act(action) {
  if (game.pending) return;
  game.pending = true;
  game.seq += 1;
  send({ type: "action", seq: game.seq, action });
}

function onMessage(m) {
  switch (m.type) {
    case "welcome":
      game.seat = m.seat; game.config = m.config;
      $("#status-line").textContent = (m.seat === null ? "Watching" : "Seat " + m.seat) + " in room " + m.room + " · " + m.config.rules;
      break;
    case "state":
      game.state = m; game.pending = false;
      // Events that came before the seats were known: describe them now, with names.
      for (const e of game.queued.splice(0)) { const t = describeEvent(e); if (t) addEvent(t); }
      game.timerEnd = m.claim_deadline_ms != null ? Date.now() + m.claim_deadline_ms : null;
      renderTable();
      break;
    case "events":
      if (!game.state || game.state.seats.some((x) => x.player === null)) { game.queued.push(...m.events); break; }
      for (const e of m.events) { const t = describeEvent(e); if (t) addEvent(t); }
      break;
    case "ack": game.pending = false; break;
    case "error": game.pending = false; addEvent("⚠ " + m.message); break;
    case "hand_result": showHandResult(m.settlement); break;
    case "match_over": showMatchOver(m); break;
  }
}

function addEvent(text) {
  const list = $("#events");
  list.append(el("li", {}, text));
  while (list.children.length > 60) list.firstChild.remove();
  list.scrollTop = list.scrollHeight;
}

function tickTimer() {
  const t = $("#timer");
  if (!game.timerEnd) { t.textContent = ""; return; }
  const left = Math.max(0, Math.ceil((game.timerEnd - Date.now()) / 1000));
  t.textContent = "Claim: " + left + " s";
}

/** Where the claimed tile of a meld sits: left neighbour -> first, opposite -> middle, right -> last. */
function turnedIndex(meld, ownerSeat, n) {
  if (!meld.from) return -1;
  const order = SEAT_ORDER[n] || SEAT_ORDER[4];
  const i = order.indexOf(ownerSeat), j = order.indexOf(meld.from);
  if (i < 0 || j < 0) return -1;
  const rel = (j - i + n) % n;
  const size = meld.kind === "kong" ? 4 : 3;
  if (rel === n - 1) return 0;
  if (rel === 1) return size - 1;
  return 1;
}

function meldTiles(meld) {
  const suit = meld.tile.slice(-1), rank = Number(meld.tile.slice(0, -1));
  if (meld.kind === "chow") return [0, 1, 2].map((k) => (rank + k) + suit);
  return Array(meld.kind === "pung" ? 3 : 4).fill(meld.tile);
}

function renderMeld(meld, ownerSeat, n, small) {
  const box = el("span", { class: "meld", "data-kind": meld.kind });
  let tiles = meldTiles(meld);
  const cls = small ? "small" : "";
  if (meld.kind === "concealed_kong") {
    box.append(backImg(cls), tileImg(tiles[1], cls), tileImg(tiles[2], cls), backImg(cls));
    return box;
  }
  const turned = turnedIndex(meld, ownerSeat, n);
  if (meld.kind === "chow" && meld.claimed) {
    // The claimed tile goes where its source sits; the other two keep their order.
    const rest = tiles.filter((t) => t !== meld.claimed);
    tiles = turned === 0 ? [meld.claimed, ...rest] : turned === 2 ? [...rest, meld.claimed] : [rest[0], meld.claimed, rest[1]];
  }
  tiles.forEach((t, k) => box.append(tileImg(t, cls + (k === turned ? " turned" : ""))));
  return box;
}

function renderPlayerBox(pub, obs, opts) {
  const n = obs.table.length;
  const box = el("div", { class: "player-box" + (obs.turn === pub.player ? " on-turn" : ""), "data-chair": String(pub.player) });
  const head = el("div", {}, el("span", { class: "player-name" }, nameOf(pub.player)), " · " + SEAT_NAMES[pub.seat]);
  if (obs.dealer === pub.player) head.append(el("span", { class: "dealer-mark" }, "dealer"));
  if (pub.gambit_run) head.append(" · gambits " + pub.gambit_run);
  box.append(head);
  if (opts.concealed) {
    const row = el("div", { class: "concealed" });
    for (const t of opts.concealed) row.append(tileImg(t, "small"));
    box.append(row);
  } else if (!opts.self) {
    const row = el("div", { class: "concealed" });
    for (let i = 0; i < pub.concealed_count; i++) row.append(backImg("small"));
    box.append(row);
  }
  const melds = el("div", { class: "melds" });
  for (const m of pub.melds) melds.append(renderMeld(m, pub.seat, n, !opts.self));
  for (const f of pub.flowers) melds.append(tileImg(f, "small"));
  box.append(melds);
  const d = el("div", { class: "discards" });
  for (const r of pub.discards) d.append(tileImg(r.tile, "small" + (r.claimed ? " claimed" : "") + (r.gambit ? " gambit" : "")));
  box.append(d);
  return box;
}

/** Positions of the other chairs around the viewer: right (next), top (opposite), left (previous). */
function seatsAround(me, n) {
  const right = (me + 1) % n, left = (me + n - 1) % n;
  if (n === 3) return { right, top: null, left };
  return { right, top: (me + 2) % n, left };
}

function renderBoard(obs, me, concealedAll) {
  const n = obs.table.length;
  const around = seatsAround(me, n);
  const slots = { top: $("#seat-top"), left: $("#seat-left"), right: $("#seat-right") };
  for (const [pos, node] of Object.entries(slots)) {
    node.innerHTML = "";
    const chair = around[pos];
    if (chair === null) continue;
    node.append(renderPlayerBox(obs.table[chair], obs, { concealed: concealedAll ? parseTiles(concealedAll[chair]) : null }));
  }
  const meBox = $("#me");
  meBox.innerHTML = "";
  meBox.append(renderPlayerBox(obs.table[me], obs, { self: game.seat !== null, concealed: concealedAll ? parseTiles(concealedAll[me]) : null }));
  $("#wall-count").textContent = "Wall: " + obs.live_wall + " tiles";
  const offer = $("#offer");
  offer.innerHTML = "";
  if (obs.on_offer) offer.append(nameOf(obs.on_offer[0]) + " offers ", tileImg(obs.on_offer[1]));
}

function renderTable() {
  const st = game.state;
  const info = $("#info");
  info.innerHTML = "";
  const obs = st.observation;
  info.append(el("span", {}, "Status: " + st.status));
  if (st.hand_number) info.append(el("span", {}, "Hand " + st.hand_number + (st.hands ? " of at most " + st.hands : "")));
  $("#start").hidden = !(st.status === "waiting" && game.seat !== null);
  const scores = $("#scores");
  scores.innerHTML = "";
  st.seats.forEach((s) => {
    const chair = s.player;
    const pts = chair === null ? 0 : st.ledger[chair];
    scores.append(el("tr", {}, el("td", {}, s.name + (s.bot ? " (bot)" : s.connected ? "" : " (away)")), el("td", { class: "mono " + (pts > 0 ? "pos" : pts < 0 ? "neg" : "") }, pts)));
  });
  if (!obs) { $("#hand").innerHTML = ""; $("#actions").innerHTML = ""; return; }
  info.append(el("span", {}, "Dealer: " + nameOf(obs.dealer)));
  info.append(el("span", {}, "Prevailing wind: " + WIND_NAMES[obs.prevailing_wind]));
  if (game.config && RULESETS[game.config.rules] && RULESETS[game.config.rules].lao) info.append(el("span", {}, "Lao: " + obs.lao));
  if (obs.indicator) info.append(el("span", {}, "Indicator: ", tileImg(obs.indicator, "small")));
  if (obs.wildcard) info.append(el("span", {}, "Wild: ", tileImg(obs.wildcard, "small")));
  if (obs.gambit_round) info.append(el("span", {}, "Fortune Gambit round"));
  const me = game.seat === null ? (obs.turn ?? 0) : obs.player;
  renderBoard(obs, game.seat === null ? 0 : me, null);
  renderHand(obs);
}

function renderHand(obs) {
  const hand = $("#hand");
  const actions = $("#actions");
  hand.innerHTML = ""; actions.innerHTML = "";
  if (game.seat === null) return;
  const legal = obs.legal_actions || [];
  const discardable = new Set(legal.filter((a) => a.discard).map((a) => a.discard));
  let tiles = parseTiles(obs.concealed);
  // The drawn tile sits apart on the right.
  let drawn = null;
  if (obs.drawn) { const i = tiles.lastIndexOf(obs.drawn); if (i >= 0) { tiles.splice(i, 1); drawn = obs.drawn; } }
  const add = (t, extra) => {
    const img = tileImg(t, (discardable.has(t) ? "playable " : "") + (t === obs.wildcard ? "wild " : "") + extra);
    if (discardable.has(t)) img.addEventListener("click", () => act({ discard: t }));
    hand.append(img);
  };
  tiles.forEach((t) => add(t, ""));
  if (drawn) add(drawn, "drawn");
  const others = legal.filter((a) => !a.discard);
  const keys = actionHotkeys(others);
  others.forEach((a, i) => {
    const key = keys[i];
    const b = el("button", { class: "action", "data-action": actionKey(a), "data-key": key }, actionLabel(a), el("kbd", {}, key));
    b.addEventListener("click", () => act(a));
    actions.append(b);
  });
  if (discardable.size) actions.append(el("span", { class: "hint" }, "Click a tile to discard it" + (obs.wildcard_discard_is_gambit ? " (discarding the wildcard is a Fortune Gambit)" : "")));
}

function onKey(ev) {
  if (!$("#modal").hidden) { if (ev.key === "Enter" || ev.key === "Escape") closeModal(); return; }
  if (ev.target && ev.target.tagName === "INPUT") return;
  const b = document.querySelector('#actions button[data-key="' + ev.key + '"]');
  if (b) { b.click(); ev.preventDefault(); return; }
  // Left/right select a discardable tile, Enter discards it.
  const playable = [...document.querySelectorAll("#hand .tile.playable")];
  if (!playable.length) return;
  if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
    const cur = playable.findIndex((t) => t.classList.contains("selected"));
    playable.forEach((t) => t.classList.remove("selected"));
    const next = cur < 0 ? (ev.key === "ArrowLeft" ? playable.length - 1 : 0) : (cur + (ev.key === "ArrowLeft" ? -1 : 1) + playable.length) % playable.length;
    playable[next].classList.add("selected");
  } else if (ev.key === "Enter") {
    const sel = playable.find((t) => t.classList.contains("selected"));
    if (sel) act({ discard: sel.dataset.tile });
  }
}

function closeModal() { $("#modal").hidden = true; }

function paymentsTable(payments) {
  const t = el("table", { id: "payments" });
  payments.forEach((p, chair) => t.append(el("tr", {}, el("td", {}, nameOf(chair)), el("td", { class: "mono " + (p > 0 ? "pos" : p < 0 ? "neg" : "") }, (p > 0 ? "+" : "") + p))));
  return t;
}

function showHandResult(s) {
  const body = $("#modal-body");
  body.innerHTML = "";
  body.dataset.kind = "hand_result";
  const o = s.outcome;
  if (o.type === "win") {
    body.append(el("h2", { id: "result-title" }, nameOf(o.winner) + " wins hand " + s.hand_number + (o.discarder != null ? " on " + nameOf(o.discarder) + "'s tile" : " by self-draw")));
    const pats = el("table", { id: "patterns" });
    for (const p of o.scored.patterns) pats.append(el("tr", {}, el("td", {}, p.name), el("td", { class: "mono" }, p.value + " " + p.unit)));
    pats.append(el("tr", {}, el("th", {}, "Total"), el("th", { class: "mono" }, o.scored.total)));
    body.append(el("div", {}, "Winning tile ", tileImg(o.tile)), pats);
  } else {
    body.append(el("h2", { id: "result-title" }, "Hand " + s.hand_number + ": drawn (the wall ran out)"));
  }
  body.append(el("h3", {}, "Payments"), paymentsTable(s.payments));
  if (s.ended) body.append(el("p", {}, "The match is over (" + s.ended.replace("_", " ") + ")."));
  $("#modal").hidden = false;
}

function showMatchOver(m) {
  const body = $("#modal-body");
  const t = el("table", { id: "standings" });
  for (const s of m.standings) t.append(el("tr", {}, el("td", {}, s.rank + "."), el("td", {}, nameOf(s.player)), el("td", { class: "mono" }, s.points)));
  const room = new URLSearchParams(location.search).get("room");
  body.append(el("h2", {}, "Final standings"), t, el("p", {}, el("a", { href: "/?replay=" + room }, "Replay this match")));
  $("#modal").hidden = false;
}

// ---------- replay ----------

async function showReplay(room) {
  $("#replay").hidden = false;
  $("#replay-room").textContent = room;
  const res = await fetch("/api/rooms/" + room + "/replay");
  const frames = await res.json();
  if (!res.ok) { $("#replay-action").textContent = frames.error; return; }
  const cfg = await (await fetch("/api/rooms/" + room)).json();
  game.state = { seats: cfg.seats };
  // Reuse the table's board inside the replay section.
  const board = $("#board");
  $("#replay-board").append(board);
  let i = 0;
  const slider = $("#replay-slider");
  slider.max = String(frames.length - 1);
  const show = () => {
    const f = frames[i];
    slider.value = String(i);
    $("#replay-pos").textContent = (i + 1) + " / " + frames.length + " · hand " + f.hand_number;
    const a = f.action;
    const evs = f.events.map(describeEvent).filter((x) => x);
    $("#replay-action").textContent = (a ? nameOf(a.player) + ": " + actionLabel(a.action) + ". " : "") + evs.slice(-3).join(" · ");
    renderBoard(f.view, 0, f.concealed.length ? f.concealed : null);
  };
  const go = (k) => { i = Math.max(0, Math.min(frames.length - 1, k)); show(); };
  $("#replay-first").onclick = () => go(0);
  $("#replay-prev").onclick = () => go(i - 1);
  $("#replay-next").onclick = () => go(i + 1);
  $("#replay-last").onclick = () => go(frames.length - 1);
  slider.oninput = () => go(Number(slider.value));
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") go(i + 1); if (e.key === "ArrowLeft") go(i - 1); });
  show();
}

// ---------- start ----------

$("#modal-close").addEventListener("click", closeModal);
const params = new URLSearchParams(location.search);
if (params.get("replay")) showReplay(params.get("replay"));
else if (params.get("room")) connectTable(params.get("room"), params.get("token"));
else showLobby();
