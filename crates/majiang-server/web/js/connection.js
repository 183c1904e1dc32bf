// The room's WebSocket: JSON in and out, reconnecting with the same token (with a growing
// pause) when it drops; the server then sends welcome, history and a full state again. In a
// cluster a server that does not run the room answers `moved` with the URL of the one that
// does: followed at once; a later drop starts again from this page's own server.

/** A connection to room `room` (seat `token`, or a spectator without one). `onMessage` gets every
 * parsed message; `onDrop(seconds)` is told when a reconnect is scheduled; `finished()` says
 * whether to stop reconnecting. */
export class Connection {
  constructor(room, token, { onMessage, onDrop, finished }) {
    this.room = room;
    this.token = token;
    this.onMessage = onMessage;
    this.onDrop = onDrop;
    this.finished = finished;
    this.ws = null;
    this.seq = 0;
    this.open(0);
  }

  open(attempt, movedTo = null, hops = 0) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.token ? "?token=" + encodeURIComponent(this.token) : "";
    const ws = new WebSocket(movedTo || proto + "//" + location.host + "/ws/" + this.room + query);
    this.ws = ws;
    let next = null;
    ws.onopen = () => { attempt = 0; };
    ws.onmessage = (m) => {
      let msg;
      try { msg = JSON.parse(m.data); } catch (_) { return; }
      if (msg.type === "moved") { next = msg.url; return; }
      hops = 0;
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.finished()) return;
      if (next && hops < 3) { this.open(attempt, next, hops + 1); return; }
      const wait = Math.min(10000, 500 * 2 ** attempt);
      this.onDrop(Math.round(wait / 1000));
      setTimeout(() => this.open(attempt + 1), wait);
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
