// The room's WebSocket: JSON in and out, reconnecting with the same token (with a growing
// pause) when it drops; the server then sends welcome, history and a full state again. In a
// cluster a server that does not run the room answers `moved` with the URL of the one that
// does: followed at once; a later drop starts again from this page's own server. A socket the
// server refuses before it opens (no such room, a token that opens no seat) is looked into
// with `GET /api/rooms/{id}`: a link that cannot work stops the retries and is said in words.

/** A connection to room `room` (seat `token`, or a spectator without one). `onMessage` gets every
 * parsed message; `onDrop(seconds)` is told when a reconnect is scheduled; `finished()` says
 * whether to stop reconnecting; `onBadLink(reason)` is told once, with `no_room` or `bad_token`,
 * when the link cannot work (the connection then stops). `deltas`: ask for `state_delta`s
 * (`?deltas=1`: after a whole `state`, only what changed) instead of every state whole.
 * `device`: this tab's device id (`?device=`): the seat opened elsewhere with another id is
 * taken from there (the other page is sent `taken_over`). */
export class Connection {
  constructor(room, token, { onMessage, onDrop, finished, onBadLink = () => {}, deltas = false, device = null }) {
    this.room = room;
    this.token = token;
    this.deltas = deltas;
    this.device = device;
    this.onMessage = onMessage;
    this.onDrop = onDrop;
    this.finished = finished;
    this.onBadLink = onBadLink;
    this.ws = null;
    this.seq = 0;
    this.stopped = false;
    this.open(0);
  }

  /** Stops for good: closes the socket and schedules no reconnect. */
  stop() {
    this.stopped = true;
    if (this.ws) { try { this.ws.close(); } catch (_) { /* already closed */ } }
  }

  /** Connects again after `stop` (a seat taken back from another device). */
  resume() {
    if (!this.stopped) return;
    this.stopped = false;
    this.open(0);
  }

  /** After a socket refused before opening: whether the room exists and the token opens a seat
   * in it (`null` when the server cannot be asked now: keep retrying). */
  async diagnose() {
    let res;
    try { res = await fetch("/api/rooms/" + encodeURIComponent(this.room)); } catch (_) { return null; }
    if (res.status === 404 || res.status === 400) return "no_room";
    if (!res.ok) return null;
    // The room is there: a socket refused with a token means the token opens no seat.
    return this.token ? "bad_token" : null;
  }

  open(attempt, movedTo = null, hops = 0) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const params = new URLSearchParams();
    if (this.token) params.set("token", this.token);
    if (this.deltas) params.set("deltas", "1");
    if (this.device && this.token) params.set("device", this.device);
    const query = params.toString() ? "?" + params.toString() : "";
    const ws = new WebSocket(movedTo || proto + "//" + location.host + "/ws/" + this.room + query);
    this.ws = ws;
    let next = null;
    let opened = false;
    ws.onopen = () => { attempt = 0; opened = true; };
    ws.onmessage = (m) => {
      let msg;
      try { msg = JSON.parse(m.data); } catch (_) { return; }
      if (msg.type === "moved") { next = msg.url; return; }
      // The seat plays on another device now: the server closes this socket; no reconnect
      // (it would take the seat back) until the person asks (`resume`).
      if (msg.type === "taken_over") this.stopped = true;
      hops = 0;
      this.onMessage(msg);
    };
    ws.onclose = async () => {
      if (this.stopped || this.finished()) return;
      if (next && hops < 3) { this.open(attempt, next, hops + 1); return; }
      if (!opened) {
        const bad = await this.diagnose();
        if (bad) { this.stop(); this.onBadLink(bad); return; }
      }
      const wait = Math.min(10000, 500 * 2 ** attempt);
      this.onDrop(Math.round(wait / 1000));
      setTimeout(() => { if (!this.stopped) this.open(attempt + 1); }, wait);
    };
  }

  /** Sends one message if the socket is open; returns whether it went. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== 1) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Sends an action with the next sequence number. */
  act(action) {
    this.seq += 1;
    return this.send({ type: "action", seq: this.seq, action });
  }
}

/** This tab's device id: kept for the tab's life (a reload resumes the seat); another tab or
 * another browser is another device. Without session storage, one for the page's life. */
export function deviceId() {
  const fresh = () => (crypto.randomUUID ? crypto.randomUUID() : Math.random().toString(36).slice(2) + Date.now().toString(36));
  try {
    let id = sessionStorage.getItem("majiang.device");
    if (!id) { id = fresh(); sessionStorage.setItem("majiang.device", id); }
    return id;
  } catch (_) {
    deviceId.memory = deviceId.memory || fresh();
    return deviceId.memory;
  }
}
