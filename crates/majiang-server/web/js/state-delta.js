// A `state_delta` applied to the `state` the page holds (PROTOCOL.md): each field it gives
// replaces the state's; `observation_delta` replaces fields of the observation, and its `table`
// the public hands of the chairs it names. The state held is never changed in place.

/** The state `state` becomes with `delta` applied. */
export function applyStateDelta(state, delta) {
  const next = { ...state };
  for (const [k, v] of Object.entries(delta)) {
    if (k === "type") continue;
    if (k !== "observation_delta") { next[k] = v; continue; }
    const obs = { ...next.observation };
    for (const [ok, ov] of Object.entries(v)) {
      if (ok !== "table") { obs[ok] = ov; continue; }
      obs.table = [...obs.table];
      for (const [chair, hand] of Object.entries(ov)) obs.table[Number(chair)] = hand;
    }
    next.observation = obs;
  }
  next.type = "state";
  return next;
}
