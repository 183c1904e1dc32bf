// What the server still says in English (errors, refusals), put in the chosen language: each
// known sentence is matched by a pattern and worded by the catalogue's `server.*` key with the
// parts it carries (names, numbers). A sentence no pattern knows is shown as the server wrote it.
// The server sends keys for payment reasons already (see words.js `reasonText`); these are the
// messages that do not have keys yet.

import { t, has } from "./i18n.js";

/** The server's English sentences: a pattern and the catalogue key that words it. */
const PATTERNS = [
  [/^no such room$/, "server.no_such_room"],
  [/^no such ledger$/, "server.no_such_ledger"],
  [/^the ledger changed meanwhile/, "server.ledger_changed"],
  [/^the match is not finished/, "server.replay_not_finished"],
  [/^that token opens no seat here$/, "server.bad_token"],
  [/^spectators cannot act$/, "server.spectators_cannot_act"],
  [/^spectators cannot start the match$/, "server.spectators_cannot_start"],
  [/^the match has not started$/, "server.not_started"],
  [/^the match has already started$/, "server.already_started"],
  [/^the hand is over: send continue for the next one$/, "server.hand_over"],
  [/^only the room's creator \(seat 0\) may fill the empty seats with bots$/, "server.only_creator_fills"],
  [/^waiting for (?<names>.+) to join; the creator may start now with the empty seats played by bots$/, "server.waiting_to_join"],
  [/^not stored, try again/, "server.not_stored"],
  [/^only a seated player continues$/, "server.only_seated_continue"],
  [/^no hand result is waiting for continue$/, "server.nothing_to_continue"],
  [/^options \((?<rules>\w+)\): (?<key>\w+) = (?<value>.+) is not allowed; \w+ takes (?<allowed>.+)$/, "server.option_not_allowed"],
  [/^options \((?<rules>\w+)\): unknown field `(?<key>[^`]+)`; the options are (?<keys>.+)$/, "server.unknown_option"],
  [/^options\.flowers: a (?<n>\d)-player table uses the flower tiles as extra winds/, "server.flowers_are_winds"],
  [/^rules: "(?<name>[^"]*)" is not a rule set \((?<names>.+)\)$/, "server.unknown_rules"],
  [/^seats: (?<given>\d+) given, but (?<rules>\w+) plays with (?<need>[\d, or-]+)$/, "server.seat_count"],
  [/^(?:illegal|not a legal|not legal)/i, "server.illegal_action"],
  // Why a hand is not a win (the scoring page): the library's `Invalid` reasons.
  [/^not a winning hand/, "invalid.not_a_winning_hand"],
  [/^(?<fan>\d+) fan is below the minimum of (?<min>\d+) fan$/, "invalid.below_minimum"],
  [/^the hand is worth (?<fan>\d+) fan, below the minimum of (?<min>\d+) fan$/, "invalid.below_minimum"],
  [/^(?<meld>.+): chows cannot be claimed in this game/, "invalid.no_chows"],
  [/^a hand has at most four declared melds$/, "invalid.four_melds"],
  [/^with (?<melds>\d+) declared meld\(s\) the concealed hand must be (?<n>\d+) tiles with the winning tile, not (?<held>\d+)$/, "invalid.tile_count"],
  [/^more than four (?<tile>\S+) in one hand$/, "invalid.more_than_four"],
  [/^a win on a discard needs the discarder$/, "invalid.needs_discarder"],
  [/^a Kong Blossom win is self-drawn/, "invalid.kong_blossom_self_drawn"],
  [/^(?:Hong Kong|Hangzhou) mahjong is played by four/, "invalid.played_by_four"],
  [/too many messages|rate limit/i, "server.rate_limited"],
];

/** A message from the server in the chosen language (the English text when no pattern knows it). */
export function serverText(message) {
  const text = String(message ?? "");
  for (const [re, key] of PATTERNS) {
    const m = text.match(re);
    if (m && has(key)) return t(key, m.groups || {});
  }
  return text;
}

/** Whether `message` is one the catalogue words (for the test and the report). */
export function isWorded(message) {
  return PATTERNS.some(([re, key]) => re.test(String(message ?? "")) && has(key));
}
