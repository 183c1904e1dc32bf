//! The JSON scoring request (`majiang score --json`), read into a [`WinSituation`].
//!
//! ```
//! use majiang::scoring::request::ScoreRequest;
//! let req = ScoreRequest::from_json(r#"{"rules": "hongkong", "concealed": "123m456p789s11z55z",
//!     "winning_tile": "5z", "win": "self_draw", "seat": "south"}"#).unwrap();
//! assert_eq!(req.rules, "hongkong");
//! assert_eq!(req.situation.full_concealed().len(), 14);
//! ```
//!
//! Input that cannot be read (bad JSON, unknown names, bad tile notation, a fifth copy of a
//! tile) is a [`Malformed`] error. Whether the hand wins is the rule set's question, not this
//! module's.

use super::{Circumstances, OtherHand, WinKind, WinSituation};
use crate::config::TableConfig;
use crate::counts::TileCounts;
use crate::meld::{Meld, MeldKind};
use crate::notation::format_in_order;
use crate::seat::Seat;
use crate::tile::{Tile, Wind};
use crate::words::Words;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use tiles::{tile as parse_tile, tiles as parse_tiles};

mod tiles;

/// Input that is not a readable scoring request (or house rules that are refused), as a
/// catalogue key and its values (the house-rule ones: [`option_table::WORDS`]; the rest are
/// plain text, [`Malformed::text`]). `Display` writes the English.
///
/// [`option_table::WORDS`]: crate::rules::option_table::WORDS
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed(pub Words);

impl Malformed {
    /// A message with no catalogue key of its own (shown as it is).
    pub fn text(text: impl Into<String>) -> Malformed {
        Malformed(Words::text(text))
    }

    /// The catalogue key.
    pub fn key(&self) -> &'static str {
        self.0.key()
    }
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Malformed {}

/// A scoring request: which rule set, its house-rule options (still as JSON, for the rule set to
/// read), and the situation.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreRequest {
    /// The rule set's name (`hongkong`, ...; the registry of rule sets knows them).
    pub rules: String,
    /// House-rule options, as given.
    pub options: serde_json::Map<String, serde_json::Value>,
    /// The win to score.
    pub situation: WinSituation,
    /// Whether the answer lists each payment with its reason (`"itemise": true`; the §6
    /// answer without it).
    pub itemise: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMeld {
    kind: String,
    tiles: String,
    from: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawOther {
    #[serde(default)]
    concealed: String,
    #[serde(default)]
    melds: Vec<RawMeld>,
    #[serde(default)]
    flowers: Vec<String>,
}

/// Unknown fields are refused with their name (a misspelt field must not score silently).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRequest {
    rules: String,
    #[serde(default)]
    options: serde_json::Map<String, serde_json::Value>,
    concealed: String,
    #[serde(default)]
    melds: Vec<RawMeld>,
    winning_tile: String,
    win: String,
    discarder: Option<String>,
    seat: Option<String>,
    dealer: Option<String>,
    prevailing_wind: Option<String>,
    #[serde(default)]
    flowers: Vec<String>,
    #[serde(default)]
    situation: Vec<String>,
    #[serde(default)]
    kong_chain: u8,
    #[serde(default)]
    gambits: u8,
    lao: Option<u8>,
    wildcard: Option<String>,
    balances: Option<BTreeMap<String, i64>>,
    #[serde(default)]
    others: BTreeMap<String, RawOther>,
    #[serde(default)]
    itemise: bool,
}

/// A scoring request's fields as given, before any of them is read: what
/// [`ScoreRequest::from_fields`] checks and reads. For a reader of another format than JSON
/// (the Python package reads a dict's common fields straight into it); JSON text and serde's
/// deserializers end here too, so every reader gives the same request and the same messages.
#[derive(Debug, Clone, Default)]
pub struct RequestFields<'a> {
    /// `rules`: the rule set's name.
    pub rules: &'a str,
    /// `options`: house rules, as given.
    pub options: serde_json::Map<String, serde_json::Value>,
    /// `concealed`: the concealed tiles, the winning tile not included.
    pub concealed: &'a str,
    /// `melds`: the declared melds.
    pub melds: Vec<MeldFields<'a>>,
    /// `winning_tile`.
    pub winning_tile: &'a str,
    /// `win`: `self_draw`, `discard` or `robbing_kong`.
    pub win: &'a str,
    /// `discarder` (for a win on a discard or a robbed kong).
    pub discarder: Option<&'a str>,
    /// `seat` (default east).
    pub seat: Option<&'a str>,
    /// `dealer` (default east).
    pub dealer: Option<&'a str>,
    /// `prevailing_wind` (default east).
    pub prevailing_wind: Option<&'a str>,
    /// `flowers`: the winner's flowers and seasons.
    pub flowers: Vec<&'a str>,
    /// `situation`: the circumstances' names.
    pub situation: Vec<&'a str>,
    /// `kong_chain` (Hangzhou).
    pub kong_chain: u8,
    /// `gambits` (Hangzhou).
    pub gambits: u8,
    /// `lao` (default 1).
    pub lao: Option<u8>,
    /// `wildcard` (Hangzhou).
    pub wildcard: Option<&'a str>,
    /// `balances` by seat name (Hangzhou's zero floor).
    pub balances: Option<BTreeMap<String, i64>>,
    /// `others` by seat name, in the order they are checked (JSON: by name).
    pub others: Vec<(&'a str, OtherFields<'a>)>,
    /// `itemise`: list each payment with its reason.
    pub itemise: bool,
}

/// A declared meld as given: `kind`, `tiles`, `from`.
#[derive(Debug, Clone, Copy, Default)]
pub struct MeldFields<'a> {
    /// `chow`, `pung`, `kong` or `concealed_kong`.
    pub kind: &'a str,
    /// Its tiles in notation.
    pub tiles: &'a str,
    /// Whose discard (not for a concealed kong).
    pub from: Option<&'a str>,
}

/// Another player's hand as given (`others`): concealed tiles, melds, flowers.
#[derive(Debug, Clone, Default)]
pub struct OtherFields<'a> {
    /// Concealed tiles.
    pub concealed: &'a str,
    /// Declared melds.
    pub melds: Vec<MeldFields<'a>>,
    /// Flowers and seasons.
    pub flowers: Vec<&'a str>,
}

impl RawMeld {
    fn fields(&self) -> MeldFields<'_> {
        MeldFields {
            kind: &self.kind,
            tiles: &self.tiles,
            from: self.from.as_deref(),
        }
    }
}

fn bad(msg: impl Into<String>) -> Malformed {
    Malformed::text(msg)
}

fn seat_in(name: &str, field: &str, seats: &[Seat]) -> Result<Seat, Malformed> {
    let seat = Seat::parse(name).ok_or_else(|| {
        bad(format!(
            "{field}: {name:?} is not a seat (east, south, west, north, north_east, south_west)"
        ))
    })?;
    if !seats.contains(&seat) {
        return Err(bad(format!(
            "{field}: there is no {seat} seat at a table of {} players",
            seats.len()
        )));
    }
    Ok(seat)
}

/// The physical tiles of a meld as written (an extra-wind set names its distinct bonus tiles).
fn meld_tiles(raw: &MeldFields<'_>, field: impl Fn() -> String) -> Result<Vec<Tile>, Malformed> {
    parse_tiles(raw.tiles).map_err(|e| bad(format!("{}: {e}", field())))
}

/// A declared meld; `field` names it in a message (written only for one).
fn meld(
    raw: &MeldFields<'_>,
    field: impl Fn() -> String,
    table: &Table,
) -> Result<Meld, Malformed> {
    let seats = table.seats;
    let kind = MeldKind::from_keyword(raw.kind).ok_or_else(|| {
        bad(format!(
            "{}: unknown meld kind {:?} (chow, pung, kong or concealed_kong)",
            field(),
            raw.kind
        ))
    })?;
    let tiles = meld_tiles(raw, &field)?;
    let mut m = if table.extra_winds > 0 && tiles.iter().any(|t| t.is_bonus()) {
        extra_wind_meld(kind, &tiles, &field(), table)?
    } else {
        Meld::parse(&format!("{} {}", kind.keyword(), raw.tiles))
            .map_err(|e| bad(format!("{}: {e}", field())))?
    };
    if let Some(from) = raw.from {
        m.from = Some(seat_in(from, &format!("{}.from", field()), seats)?);
    }
    Ok(m)
}

/// A set of extra winds at a five- or six-player classic table: a pung of three (or a kong of
/// four) different extra-wind tiles, stored as a meld of those tiles (named by the lowest).
fn extra_wind_meld(
    kind: MeldKind,
    tiles: &[Tile],
    field: &str,
    table: &Table,
) -> Result<Meld, Malformed> {
    let mut sorted = tiles.to_vec();
    sorted.sort();
    sorted.dedup();
    let ok = kind != MeldKind::Chow
        && tiles.len() == kind.size()
        && sorted.len() == tiles.len()
        && tiles.iter().all(|&t| table.is_extra_wind(t));
    if !ok {
        return Err(bad(format!(
            "{field}: a set of extra winds is a pung of three or a kong of four different \
             extra-wind tiles ({}), e.g. \"tiles\": \"123f\"",
            table.extra_wind_names()
        )));
    }
    let mut winds = crate::extra_winds::ExtraWinds::EMPTY;
    for &t in &sorted {
        winds.insert(t);
    }
    Meld::of_extra_winds(kind, winds).ok_or_else(|| {
        bad(format!(
            "{field}: {} is not a {} of extra winds",
            format_in_order(&sorted),
            kind.keyword()
        ))
    })
}

fn bonus_tiles(list: &[&str], field: &str) -> Result<Vec<Tile>, Malformed> {
    let mut out = Vec::new();
    for s in list {
        let t = parse_tile(s).map_err(|e| bad(format!("{field}: {e}")))?;
        if !t.is_bonus() {
            return Err(bad(format!(
                "{field}: {t} is not a flower or season (1f–8f)"
            )));
        }
        if out.contains(&t) {
            return Err(bad(format!(
                "{field}: {t} given twice (there is one of each)"
            )));
        }
        out.push(t);
    }
    Ok(out)
}

/// Concealed tiles: the playing tiles, and (at a table with extra winds) the extra-wind tiles.
fn concealed(s: &str, field: &str, table: &Table) -> Result<(Vec<Tile>, Vec<Tile>), Malformed> {
    let tiles = parse_tiles(s).map_err(|e| bad(format!("{field}: {e}")))?;
    if !tiles.iter().any(|t| t.is_bonus()) {
        return Ok((tiles, Vec::new()));
    }
    let (bonus, playing): (Vec<Tile>, Vec<Tile>) = tiles.into_iter().partition(|t| t.is_bonus());
    if let Some(t) = bonus.iter().find(|&&t| !table.is_extra_wind(t)) {
        return Err(bad(if table.extra_winds > 0 {
            format!(
                "{field}: {t} is not an extra-wind tile at this table ({})",
                table.extra_wind_names()
            )
        } else {
            format!("{field}: {t} is a bonus tile; list it under flowers")
        }));
    }
    Ok((playing, bonus))
}

/// The table a request describes: its seats, and whether the bonus tiles are extra winds
/// (at five or six players, seed 003: only the classic game seats them, and another rule
/// set's options refuse such a table when the request is scored).
struct Table {
    seats: &'static [Seat],
    /// How many bonus tiles are extra winds: 0 (they are flowers, if in play), 4 (`1f`–`4f`, the
    /// North-East wind tiles of five players) or 8 (`1f`–`8f` at six).
    extra_winds: usize,
}

impl Table {
    fn is_extra_wind(&self, t: Tile) -> bool {
        t.is_bonus() && usize::from(t.rank()) <= self.extra_winds
    }

    fn extra_wind_names(&self) -> &'static str {
        match self.extra_winds {
            4 => "1f-4f",
            8 => "1f-8f",
            _ => "none",
        }
    }
}

fn wind(name: &str, field: &str) -> Result<Wind, Malformed> {
    match Seat::parse(name).and_then(Seat::wind) {
        Some(w) => Ok(w),
        None => Err(bad(format!("{field}: {name:?} is not a wind"))),
    }
}

impl ScoreRequest {
    /// Reads a request from JSON text.
    pub fn from_json(text: &str) -> Result<ScoreRequest, Malformed> {
        let raw: RawRequest =
            serde_json::from_str(text).map_err(|e| bad(format!("not a scoring request: {e}")))?;
        Self::from_raw(raw)
    }

    /// Reads a request from any self-describing serde [`Deserializer`](serde::Deserializer)
    /// (a Python dict through `pythonize`, a `serde_json::Value`, ...): the same fields and
    /// checks as [`ScoreRequest::from_json`], without JSON text in between.
    pub fn from_deserializer<'de, D: serde::Deserializer<'de>>(
        input: D,
    ) -> Result<ScoreRequest, Malformed> {
        let raw = RawRequest::deserialize(input)
            .map_err(|e| bad(format!("not a scoring request: {e}")))?;
        Self::from_raw(raw)
    }

    fn from_raw(mut raw: RawRequest) -> Result<ScoreRequest, Malformed> {
        let options = std::mem::take(&mut raw.options);
        let balances = raw.balances.take();
        fn melds(list: &[RawMeld]) -> Vec<MeldFields<'_>> {
            list.iter().map(RawMeld::fields).collect()
        }
        fn strs(list: &[String]) -> Vec<&str> {
            list.iter().map(String::as_str).collect()
        }
        Self::from_fields(RequestFields {
            rules: &raw.rules,
            options,
            concealed: &raw.concealed,
            melds: melds(&raw.melds),
            winning_tile: &raw.winning_tile,
            win: &raw.win,
            discarder: raw.discarder.as_deref(),
            seat: raw.seat.as_deref(),
            dealer: raw.dealer.as_deref(),
            prevailing_wind: raw.prevailing_wind.as_deref(),
            flowers: strs(&raw.flowers),
            situation: strs(&raw.situation),
            kong_chain: raw.kong_chain,
            gambits: raw.gambits,
            lao: raw.lao,
            wildcard: raw.wildcard.as_deref(),
            balances,
            others: raw
                .others
                .iter()
                .map(|(name, o)| {
                    let other = OtherFields {
                        concealed: &o.concealed,
                        melds: melds(&o.melds),
                        flowers: strs(&o.flowers),
                    };
                    (name.as_str(), other)
                })
                .collect(),
            itemise: raw.itemise,
        })
    }

    /// Reads a request from its fields as given: the checks and messages of
    /// [`ScoreRequest::from_json`] (which ends here).
    pub fn from_fields(raw: RequestFields<'_>) -> Result<ScoreRequest, Malformed> {
        let players = match raw.options.get("players") {
            None => 4,
            Some(v) => v
                .as_u64()
                .filter(|n| (3..=6).contains(n))
                .ok_or_else(|| bad("options.players: must be 3, 4, 5 or 6"))?
                as usize,
        };
        let seats = Seat::order(players).expect("3..=6");
        let table = Table {
            extra_winds: usize::from(TableConfig::extra_winds_at(players as u8)),
            seats,
        };
        let seat = seat_in(raw.seat.unwrap_or("east"), "seat", seats)?;
        let dealer = seat_in(raw.dealer.unwrap_or("east"), "dealer", seats)?;
        let prevailing_wind = wind(raw.prevailing_wind.unwrap_or("east"), "prevailing_wind")?;
        let win = match raw.win {
            "self_draw" => WinKind::SelfDraw,
            "discard" => WinKind::Discard,
            "robbing_kong" => WinKind::RobbingKong,
            other => {
                return Err(bad(format!(
                    "win: {other:?} is not self_draw, discard or robbing_kong"
                )));
            }
        };
        let discarder = match (raw.discarder, win) {
            (Some(d), WinKind::Discard | WinKind::RobbingKong) => {
                let d = seat_in(d, "discarder", seats)?;
                if d == seat {
                    return Err(bad("discarder: a player cannot win on their own discard"));
                }
                Some(d)
            }
            (None, WinKind::Discard | WinKind::RobbingKong) => {
                return Err(bad(format!(
                    "discarder: required for a {} win",
                    raw.win.replace('_', " ")
                )));
            }
            (_, WinKind::SelfDraw) => None,
        };
        let (concealed_tiles, extra_in_hand) = concealed(raw.concealed, "concealed", &table)?;
        let winning_tile =
            parse_tile(raw.winning_tile).map_err(|e| bad(format!("winning_tile: {e}")))?;
        if winning_tile.is_bonus() && !table.is_extra_wind(winning_tile) {
            return Err(bad(if table.extra_winds > 0 {
                format!(
                    "winning_tile: {winning_tile} is not an extra-wind tile at this table ({})",
                    table.extra_wind_names()
                )
            } else {
                "winning_tile: a bonus tile cannot win a hand".to_string()
            }));
        }
        let melds = raw
            .melds
            .iter()
            .enumerate()
            .map(|(i, m)| meld(m, || format!("melds[{i}]"), &table))
            .collect::<Result<Vec<_>, _>>()?;
        if table.extra_winds > 0 && !raw.flowers.is_empty() {
            return Err(bad(format!(
                "flowers: at a {players}-player table the bonus tiles are extra winds \
                 ({}), played like any tile: write them in concealed or melds",
                table.extra_wind_names()
            )));
        }
        // At a table with extra winds, `flowers` carries the extra-wind tiles of the concealed
        // hand (see `WinSituation::flowers`).
        let flowers = if table.extra_winds > 0 {
            extra_in_hand
        } else {
            bonus_tiles(&raw.flowers, "flowers")?
        };
        let mut circumstances = Circumstances::default();
        for &s in &raw.situation {
            let flag = match s {
                "last_wall_tile" => &mut circumstances.last_wall_tile,
                "last_discard" => &mut circumstances.last_discard,
                "kong_replacement" => &mut circumstances.kong_replacement,
                "heavenly" => &mut circumstances.heavenly,
                "earthly" => &mut circumstances.earthly,
                other => {
                    return Err(bad(format!(
                        "situation: {other:?} is not one of last_wall_tile, last_discard, \
                         kong_replacement, heavenly, earthly"
                    )));
                }
            };
            *flag = true;
        }
        let wildcard = raw
            .wildcard
            .map(|w| parse_tile(w).map_err(|e| bad(format!("wildcard: {e}"))))
            .transpose()?;
        if wildcard.is_some_and(Tile::is_bonus) {
            return Err(bad("wildcard: a bonus tile cannot be wild"));
        }
        let balances = raw
            .balances
            .map(|b| {
                b.into_iter()
                    .map(|(k, v)| Ok((seat_in(&k, "balances", seats)?, v)))
                    .collect::<Result<BTreeMap<_, _>, Malformed>>()
            })
            .transpose()?;
        let mut others = BTreeMap::new();
        // Every physical tile counted once: the winner's, then everyone else's. Extra-wind sets
        // are counted by the bonus tiles they name.
        let physical = |raw: &[MeldFields<'_>], field: &str, out: &mut (Vec<Tile>, Vec<Tile>)| {
            for (i, m) in raw.iter().enumerate() {
                let tiles = meld_tiles(m, || format!("{field}[{i}]"))?;
                let (bonus, playing): (Vec<Tile>, Vec<Tile>) =
                    tiles.into_iter().partition(|t| t.is_bonus());
                out.0.extend(playing);
                out.1.extend(bonus);
            }
            Ok::<(), Malformed>(())
        };
        // Room for the winner's tiles: the concealed ones, the winning tile, the melds'.
        let mut all = (
            Vec::with_capacity(concealed_tiles.len() + 1 + 4 * raw.melds.len()),
            flowers.clone(),
        );
        all.0.extend_from_slice(&concealed_tiles);
        if winning_tile.is_bonus() {
            all.1.push(winning_tile);
        } else {
            all.0.push(winning_tile);
        }
        physical(&raw.melds, "melds", &mut all)?;
        for (name, o) in &raw.others {
            let field = format!("others.{name}");
            let s = seat_in(name, &field, seats)?;
            if s == seat {
                return Err(bad(format!("{field}: that is the winner's seat")));
            }
            let (tiles, extra) = concealed(o.concealed, &format!("{field}.concealed"), &table)?;
            let ms = o
                .melds
                .iter()
                .enumerate()
                .map(|(i, m)| meld(m, || format!("{field}.melds[{i}]"), &table))
                .collect::<Result<Vec<_>, _>>()?;
            if table.extra_winds > 0 && !o.flowers.is_empty() {
                return Err(bad(format!(
                    "{field}.flowers: at a {players}-player table the bonus tiles are \
                     extra winds: write them in concealed or melds"
                )));
            }
            let fl = if table.extra_winds > 0 {
                extra
            } else {
                bonus_tiles(&o.flowers, &format!("{field}.flowers"))?
            };
            all.0.extend_from_slice(&tiles);
            all.1.extend_from_slice(&fl);
            physical(&o.melds, &format!("{field}.melds"), &mut all)?;
            others.insert(
                s,
                OtherHand {
                    concealed: TileCounts::from_tiles(&tiles)
                        .map_err(|e| bad(format!("{field}.concealed: {e}")))?,
                    melds: ms,
                    flowers: fl,
                },
            );
        }
        TileCounts::from_tiles(&all.0).map_err(|e| bad(format!("impossible tiles: {e}")))?;
        let mut sorted_bonus = all.1;
        sorted_bonus.sort();
        if sorted_bonus.windows(2).any(|w| w[0] == w[1]) {
            return Err(bad(
                "flowers: a bonus tile is given twice (there is one of each)",
            ));
        }
        let situation = WinSituation {
            concealed: TileCounts::from_tiles(&concealed_tiles)
                .map_err(|e| bad(format!("concealed: {e}")))?,
            melds,
            winning_tile,
            win,
            discarder,
            seat,
            dealer,
            prevailing_wind,
            flowers,
            circumstances,
            kong_chain: raw.kong_chain,
            gambits: raw.gambits,
            lao: raw.lao.unwrap_or(1),
            wildcard,
            balances,
            others,
            seats: seats.to_vec(),
        };
        Ok(ScoreRequest {
            rules: raw.rules.to_string(),
            options: raw.options,
            situation,
            itemise: raw.itemise,
        })
    }
}

#[cfg(test)]
mod tests;
