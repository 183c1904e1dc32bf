// The expert's facts and values in words, for the table's hints and the review: how far a
// hand is from ready after an action and the useful tiles it keeps, how often the tile deals
// in, what it is worth in chips a hand, and how an alternative compares with the expert's
// choice ("about equal", "slightly worse", …). The standard errors stay in the JSON: a bare
// "±" is a figure a player cannot use (issue 50), the band says which differences are noise.

import { t } from "./i18n.js";

/** A signed number with two decimals: "+1.40", "−0.35", and "0.00" unsigned (a "±" there
 * would read as an uncertainty). */
export function signed2(x) {
  const v = Number(x) || 0;
  const s = Math.abs(v).toFixed(2);
  return (v > 0.005 ? "+" : v < -0.005 ? "−" : "") + s;
}

/** An estimate's value in words: its mean, "+1.40" (its standard error is the band's job). */
export function valueText(e) {
  return e ? signed2(e.mean) : "";
}

/** The bands of `majiang::review::Band`, as the review's JSON spells them. */
const BANDS = ["expert", "about_equal", "slightly_worse", "clearly_worse", "better"];

/** An alternative's band in words: "about equal", "slightly worse", "clearly worse", "better
 * in the playouts", "the expert's choice"; "not compared" when the review has none. */
export function bandText(band) {
  return t(BANDS.includes(band) ? "expert.band_" + band : "expert.band_none");
}

/** Whether a band calls the alternative a loss: worse than the expert's choice beyond noise. */
export function isLossBand(band) {
  return band === "slightly_worse" || band === "clearly_worse";
}

/** What an action does with an extra wind (`majiang::review::ExtraWindMove`, as the JSON spells it). */
const EXTRA_WIND_MOVES = ["throw_lone", "break_pair", "make_set", "let_go"];

/** The facts of an alternative in a few words, joined by the list separator. */
export function factsParts(f) {
  if (!f) return [];
  const parts = [];
  const s = f.shanten, u = f.useful_unseen;
  if (s === -1) parts.push(t("expert.complete"));
  else if (s === 0 && u != null) parts.push(t("expert.ready_on", { n: u }));
  else if (s != null && u != null) parts.push(t("expert.from_ready", { s, n: u }));
  else if (s === 0) parts.push(t("expert.ready_after_discard"));
  else if (s != null) parts.push(t("expert.from_ready_after_discard", { s }));
  if (f.deal_in != null) parts.push(t("expert.deals_in", { pct: Math.round(f.deal_in * 100) }));
  // Classic's extra winds at five and six players: what the action does with them.
  if (EXTRA_WIND_MOVES.includes(f.extra_wind)) parts.push(t("expert.extra_wind_" + f.extra_wind));
  return parts;
}

/** The facts and the value: "ready on 6 unseen tiles, deals in 2 %, worth +1.40 chips a hand". */
export function reasonText(f, value) {
  const parts = factsParts(f);
  if (value) parts.push(t("expert.worth", { value: valueText(value) }));
  return parts.join(t("expert.sep"));
}
