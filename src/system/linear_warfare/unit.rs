//! The Age of Linear Warfare's units as its unit specs give them (LW-1 to LW-6), the dice of a
//! volley, and the general's coin in words.

use super::params::{FireFrom, Params, SPEC_KEYWORDS};
use super::rules::{self as lw, Side, UnitType};
use crate::error::{Error, Result};
use crate::params::parse_int;

/// Parse a unit spec such as `guards pips=7 double-move` (LW-1, LW-2, LW-3, LW-4, LW-6).
///
/// # Errors
/// [`Error::Invalid`] naming `what` (the flag) and the keyword at fault, with the allowed ones.
pub fn parse_side(what: &str, spec: &str, numbers: lw::Numbers) -> Result<Side> {
    let bad = |value: &str, allowed: String| Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed,
    };
    let mut kind = None;
    let (mut pips, mut stands) = (None, 6u8);
    let (mut charging, mut double_move, mut obstacle, mut general) = (false, false, false, false);
    for token in spec.split([' ', ',']).filter(|t| !t.is_empty()) {
        if let Some(t) = UnitType::parse(token) {
            if kind.replace(t).is_some() {
                return Err(bad(
                    token,
                    "give one unit type: line, guards, light or cavalry".into(),
                ));
            }
            continue;
        }
        match token.split_once('=') {
            Some(("pips", v)) => {
                pips = Some(
                    parse_int(v)
                        .filter(|p| (1..=12).contains(p))
                        .ok_or_else(|| {
                            bad(token, "pips=N takes a whole number from 1 to 12".into())
                        })? as u8,
                )
            }
            Some(("stands", v)) => {
                stands = parse_int(v)
                    .filter(|p| (1..=24).contains(p))
                    .ok_or_else(|| {
                        bad(token, "stands=N takes a whole number from 1 to 24".into())
                    })? as u8
            }
            Some(_) => {
                return Err(bad(
                    token,
                    format!("unknown keyword; allowed: {SPEC_KEYWORDS}"),
                ));
            }
            None => match token {
                "charging" => charging = true,
                "double-move" => {
                    charging = true;
                    double_move = true;
                }
                "obstacle" => obstacle = true,
                "general" => general = true,
                _ => {
                    return Err(bad(
                        token,
                        format!("unknown keyword; allowed: {SPEC_KEYWORDS}"),
                    ));
                }
            },
        }
    }
    let kind = kind.unwrap_or(UnitType::Line);
    let pips = pips.unwrap_or(numbers.pips(kind));
    let cost = numbers.double_move_cost;
    // LW-1: once it has paid, a charger must have more than its last pip left.
    if double_move && pips <= cost + 1 {
        return Err(bad(
            spec,
            format!(
                "a double move costs {} (LW-3, double_move_cost), and a unit on its last pip may take no offensive action (LW-1), the charge included: give pips={} or more",
                if cost == 1 {
                    "a pip".to_string()
                } else {
                    format!("{cost} pips")
                },
                cost + 2
            ),
        ));
    }
    Ok(Side {
        kind,
        pips,
        stands,
        charging,
        double_move,
        obstacle,
        general,
        numbers,
    })
}

/// The dice of a volley and the roll each needs (LW-2): artillery by range band; else the
/// unit's own stands (`own`, a `test`: no more dice than pips under `dice-follow-pips`) or the
/// enemy's `fire_dice` (`under-fire`).
pub(super) fn volley_dice(
    (p, n): (&Params, &lw::Numbers),
    own: bool,
    dice_follow_pips: bool,
) -> Result<(u32, u8)> {
    let to_hit = n.fire_to_hit(p.cover, p.flanking);
    let dice = if p.fire_from == FireFrom::Artillery {
        n.artillery_dice(p.range_band)
            .ok_or_else(|| Error::Invalid {
                what: p.how.range_band.what.clone(),
                value: p.range_band.to_string(),
                allowed: "a range band from 1 to 4".into(),
            })?
    } else if own {
        if !p.unit_type.shoots() {
            return Err(Error::Invalid {
                what: p.how.unit_type.what.clone(),
                value: p.unit_type.name().into(),
                allowed: "cavalry do not shoot (LW-2): a volley test takes line, guards or light, or fire_from=artillery".into(),
            });
        }
        lw::infantry_dice(p.stands, p.pips, dice_follow_pips)
    } else {
        p.fire_dice
    };
    Ok((dice, to_hit))
}

/// How the general's coin is flipped, in words.
pub(super) fn coin_words(how: lw::GeneralCoin) -> &'static str {
    match how {
        lw::GeneralCoin::PerAttack => "once per attack (a volley, a melee round)",
        lw::GeneralCoin::PerPip => "once per pip lost",
    }
}
