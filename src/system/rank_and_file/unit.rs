//! Rank & File's units as its parameters and unit specs give them (RF-1 to RF-12), and the
//! enemy's fire.

use super::Ctx;
use super::params::{Params, Player, Rules, SPEC_KEYWORDS, Switches};
use super::rules as rf;
use crate::error::{Error, Result};
use crate::params;
use crate::scenario::fire::FireParams;

/// What a run of Rank & File needs beyond the resolved parameters.
pub(super) struct Built {
    /// The unit.
    pub unit: rf::Unit,
    /// Its state at the start.
    pub start: rf::UnitState,
    /// The optional rules in force.
    pub options: rf::Options,
}

/// The unit of a single-unit scenario from its parameters.
fn build_unit(p: &Params, rules: &Rules, on: &Switches) -> Result<Built> {
    let kind = p.kind;
    let stands = p.stands;
    let lost = p.lost;
    if kind.is_single_stand() && stands > 8 {
        return Err(Error::Invalid {
            what: p.how.stands.what.clone(),
            value: stands.to_string(),
            allowed: format!(
                "a {} is a single stand: --stands counts its models, from 1 to 8",
                kind.name()
            ),
        });
    }
    if lost >= stands {
        return Err(Error::Invalid {
            what: p.how.lost.what.clone(),
            value: lost.to_string(),
            allowed: format!(
                "stands lost must be less than {} = {stands} (a unit with every stand lost is gone)",
                p.how.stands.what
            ),
        });
    }
    let options = rules.options(on, Player::of(p));
    let status = p.state;
    if kind == rf::Kind::Artillery && status == rf::Status::Routing && !options.artillery_may_rally
    {
        return Err(Error::Conflict(format!(
            "{} routing is not a state an artillery battery can be in: a routed battery is removed (RF-7) unless --option artillery-may-rally",
            p.how.state.what
        )));
    }
    if kind == rf::Kind::Wagon
        && status == rf::Status::Routing
        && rules.numbers.routed_wagons == rf::RoutedWagons::Leave
    {
        return Err(Error::Conflict(format!(
            "{} routing is not a state wagons can be in: routed wagons leave the table, fled or captured (RF-7); give --rule routed_wagons=rout to have them rout and rally",
            p.how.state.what
        )));
    }
    let hit_points = rules.hit_points(kind);
    let mut unit = rf::Unit {
        class: p.class,
        kind,
        stands,
        elite: p.elite,
        leader: p.leader,
        in_buildings: p.in_buildings,
        buildings_bonus: rules.q.buildings_bonus,
        modifier: p.modifier,
        hit_points,
        numbers: rules.numbers,
    };
    let mut start = rf::UnitState {
        status,
        lost: if kind.is_single_stand() {
            lost * hit_points
        } else {
            lost
        },
        rerolls: p.rerolls,
        removal: None,
        // A battery that starts Unsteady under `battery_stays` stayed in its place (RF-7).
        in_place: status == rf::Status::Unsteady
            && kind == rf::Kind::Artillery
            && options.battery_stays,
    };
    rules.apply(&mut unit, &mut start);
    Ok(Built {
        unit,
        start,
        options,
    })
}

/// What a test needs at the start, in words.
fn need_note(b: &Built) -> String {
    let numbers = &b.unit.numbers;
    let naturals = numbers.naturals();
    let said = match b.unit.need(b.start.lost) {
        rf::Need::AutoFail if numbers.break_fraction == (1, 2) => {
            "at the start the unit is at 50% losses: every test fails (RF-3)".into()
        }
        rf::Need::AutoFail => {
            let (num, den) = numbers.break_fraction;
            format!(
                "at the start the unit has lost {num}/{den} of its stands (break_fraction): every test fails (RF-3)"
            )
        }
        rf::Need::Natural(7) => {
            format!("at the start no roll passes a test ({naturals}; RF-2)")
        }
        rf::Need::Natural(n) => {
            format!("at the start a test needs a natural {n}+ ({naturals}; RF-2)")
        }
    };
    match b.unit.rally_need(b.start.lost) {
        rf::Need::Natural(n) if b.unit.modifier != 0 => {
            format!("{said}; a rally test, without the situational modifier, a natural {n}+ (RF-5)")
        }
        _ => said,
    }
}

/// The unit of `test`, `rally` and `under-fire`, with its notes (what a test needs at the
/// start, Elite's re-rolls).
///
/// # Errors
/// Rule parameters that do not fit together, and a unit its parameters cannot make.
pub(super) fn single(ctx: &Ctx) -> Result<(Built, Vec<String>)> {
    let p = &ctx.p;
    let rules = Rules::read(ctx.setup.resolved)?;
    let b = build_unit(p, &rules, &ctx.on)?;
    let mut notes = vec![need_note(&b)];
    if p.elite {
        notes.push(match rules.q.elite_rerolls {
            rf::EliteRerolls::Unlimited => {
                "Elite: a re-roll of every failed test, all battle (the tool's unlimited reading; RF-6)".to_string()
            }
            rf::EliteRerolls::Limited(n) => format!(
                "Elite: {n} re-roll{} in the battle, spent before the commander's, at most one a test (RF-6)",
                if n == 1 { "" } else { "s" }
            ),
        });
    }
    Ok((b, notes))
}

/// Parse a Rank & File unit spec such as `veteran cavalry stands=6 lost=1 shock` (RF-1, RF-9 to
/// RF-12) into the fighter and its starting state.
///
/// # Errors
/// [`Error::Invalid`] naming `what` (the flag) and the keyword at fault, with the allowed ones.
pub fn parse_fighter(
    what: &str,
    spec: &str,
    on: &Switches,
) -> Result<(rf::Fighter, rf::UnitState)> {
    let bad = |value: &str, allowed: String| Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed,
    };
    let num = |token: &str, v: &str, min: i64, max: i64| {
        params::parse_int(v)
            .filter(|x| (min..=max).contains(x))
            .ok_or_else(|| {
                bad(
                    token,
                    format!(
                        "{} takes a whole number from {min} to {max}",
                        token.split('=').next().unwrap_or(token)
                    ),
                )
            })
    };
    let (mut class, mut troop) = (None, None);
    let (mut stands, mut lost, mut leader, mut rerolls, mut frontage, mut hit, mut uncontrolled) =
        (None, 0i64, 0i64, 0i64, 0i64, 0i64, 0i64);
    let (mut modifier, mut buildings) = (0i64, false);
    let mut status = rf::Status::Good;
    let (mut elite, mut blown, mut shock, mut square, mut obstacle, mut routs_loser) =
        (false, false, false, false, false, false);
    for token in spec.split([' ', ',']).filter(|t| !t.is_empty()) {
        if let Some(c) = rf::Class::parse(token) {
            if class.replace(c).is_some() {
                return Err(bad(
                    token,
                    "give one class: veteran, regular or green".into(),
                ));
            }
            continue;
        }
        if let Some(t) = rf::Troop::parse(token) {
            if troop.replace(t).is_some() {
                return Err(bad(
                    token,
                    "give one troop type: infantry, cavalry, elephant or skirmisher".into(),
                ));
            }
            continue;
        }
        match token.split_once('=') {
            Some(("stands", v)) => stands = Some(num(token, v, 1, 40)?),
            Some(("lost", v)) => lost = num(token, v, 0, 39)?,
            Some(("leader", v)) => leader = num(token, v, -3, 3)?,
            Some(("rerolls", v)) => rerolls = num(token, v, 0, 9)?,
            Some(("frontage", v)) => frontage = num(token, v, 1, 40)?,
            Some(("hit", v)) => hit = num(token, v, -3, 3)?,
            Some(("uncontrolled", v)) => uncontrolled = num(token, v, 0, 6)?,
            Some(("modifier", v)) => modifier = num(token, v, -5, 5)?,
            Some(("state", v)) => {
                status = rf::Status::parse_start(v)
                    .ok_or_else(|| bad(token, "state= takes good, unsteady or routing".into()))?
            }
            Some(_) => {
                return Err(bad(
                    token,
                    format!("unknown keyword; allowed: {SPEC_KEYWORDS}"),
                ));
            }
            None => match token {
                "elite" => elite = true,
                "blown" => blown = true,
                "shock" => shock = true,
                "square" => square = true,
                "obstacle" => obstacle = true,
                "routs-loser" => routs_loser = true,
                "buildings" => buildings = true,
                _ => {
                    return Err(bad(
                        token,
                        format!("unknown keyword; allowed: {SPEC_KEYWORDS}"),
                    ));
                }
            },
        }
    }
    let troop = troop.unwrap_or(rf::Troop::Infantry);
    let kind = if troop == rf::Troop::Elephant {
        rf::Kind::Elephant
    } else {
        rf::Kind::Formed
    };
    let stands = stands.unwrap_or(if kind == rf::Kind::Elephant { 1 } else { 8 }) as u8;
    if kind == rf::Kind::Elephant && stands > 8 {
        return Err(bad(
            spec,
            "an elephant is a single stand: stands= counts its models, 1 to 8".into(),
        ));
    }
    if lost >= i64::from(stands) {
        return Err(bad(
            spec,
            format!("lost={lost} must be less than stands={stands}"),
        ));
    }
    if status == rf::Status::Routing {
        return Err(bad(
            spec,
            "a routing unit does not fight a melee (RF-5: it routs)".into(),
        ));
    }
    if blown && !(troop == rf::Troop::Cavalry && on.blown_cavalry) {
        return Err(bad(
            "blown",
            "a Blown marker needs cavalry and --option blown-cavalry (RF-11)".into(),
        ));
    }
    let hit_points = 3;
    let unit = rf::Unit {
        class: class.unwrap_or(rf::Class::Regular),
        kind,
        stands,
        elite,
        leader: leader as i8,
        in_buildings: buildings,
        buildings_bonus: 1,
        modifier: modifier as i8,
        hit_points,
        numbers: rf::Numbers::default(),
    };
    let fighter = rf::Fighter {
        unit,
        troop,
        frontage: frontage as u8,
        hit_modifier: hit as i8,
        blown,
        shock,
        square,
        obstacle,
        uncontrolled: uncontrolled as u8,
        routs_loser,
    };
    let start = rf::UnitState::new(status, lost as u8, rerolls as u8);
    Ok((fighter, start))
}

/// A fighter from its unit spec, with the rule parameters that reach into it (RF-2's
/// in-buildings bonus, RF-6's Elite allowance, RF-7's hit points and RF-1 to RF-8's numbers).
pub(super) fn fighter_of(
    rules: &Rules,
    what: &str,
    spec: &str,
    on: &Switches,
) -> Result<(rf::Fighter, rf::UnitState)> {
    let (mut f, mut s) = parse_fighter(what, spec, on)?;
    rules.apply(&mut f.unit, &mut s);
    Ok((f, s))
}

/// The enemy's fire of `under-fire` and of battles.
pub(super) fn fire_params(p: &Params) -> FireParams {
    FireParams {
        dice: p.fire_dice,
        to_hit: p.fire_to_hit,
        loss: p.fire_loss.clone(),
        dice_given: p.how.fire_dice.given.then(|| p.how.fire_dice.what.clone()),
        loss_what: p.how.fire_loss.what.clone(),
    }
}
