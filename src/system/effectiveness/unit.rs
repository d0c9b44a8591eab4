//! The effectiveness rules' units as their parameters and unit specs give them (EF-1, EF-2,
//! EF-5), the enemy's fire and blocked retreats (EF-4).

use super::Ctx;
use super::params::{Params, RuleParams, Rules, SPEC_KEYWORDS, StartState, Switches};
use super::rules as ef;
use crate::dice::Weights;
use crate::error::{Error, Result};
use crate::params;
use crate::scenario::fire::FireParams;

/// Parse an effectiveness unit spec such as `elite general lost=1` into the unit, its start
/// and its melee dice (`None`: the default).
///
/// # Errors
/// [`Error::Invalid`] naming `what` and the keyword at fault, with the allowed ones.
pub fn parse_unit(
    what: &str,
    spec: &str,
    natural_one_fails: bool,
    numbers: ef::Numbers,
) -> Result<(ef::Unit, ef::UnitState, Option<u32>)> {
    let bad = |value: &str, allowed: String| Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed,
    };
    let (mut class, mut lost, mut dice, mut troop) = (None, 0u8, None, None);
    let (mut general, mut supported) = (false, false);
    for token in spec.split([' ', ',']).filter(|t| !t.is_empty()) {
        if let Some(c) = ef::Class::parse(token) {
            if class.replace(c).is_some() {
                return Err(bad(token, "give one class: elite, regular or poor".into()));
            }
            continue;
        }
        if let Some(t) = ef::Troop::parse(token) {
            if troop.replace(t).is_some() {
                return Err(bad(
                    token,
                    "give one troop type: infantry, cavalry, light or artillery".into(),
                ));
            }
            continue;
        }
        match (token, token.split_once('=')) {
            (_, Some(("lost", v))) => {
                let most = i64::from(numbers.steps) - 1;
                lost = params::parse_int(v)
                    .filter(|x| (0..=most).contains(x))
                    .ok_or_else(|| {
                        bad(
                            token,
                            format!(
                                "lost= takes steps (quarters) lost, 0 to {most} (steps = {})",
                                numbers.steps
                            ),
                        )
                    })? as u8
            }
            (_, Some(("dice", v))) => {
                dice = Some(
                    params::parse_int(v)
                        .filter(|x| (1..=20).contains(x))
                        .ok_or_else(|| {
                            bad(token, "dice= takes a whole number from 1 to 20".into())
                        })? as u32,
                )
            }
            ("general", None) => general = true,
            ("supported", None) => supported = true,
            _ => {
                return Err(bad(
                    token,
                    format!("unknown keyword; allowed: {SPEC_KEYWORDS}"),
                ));
            }
        }
    }
    let unit = ef::Unit {
        class: class.unwrap_or(ef::Class::Regular),
        general,
        supported,
        natural_one_fails,
        return_on: 5,
        troop: troop.unwrap_or_default(),
        return_roll: true,
        retreat_turns: 1,
        numbers,
    };
    let start = ef::UnitState {
        status: ef::Status::InLine,
        quarters: numbers.steps - lost,
        hits: 0,
        out: 0,
    };
    Ok((unit, start, dice))
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

/// The chance that a retreat is blocked (EF-4), as a table to pick from (`None`: never).
pub(super) fn blocked_table(p: &Params) -> Option<Weights> {
    let f = p.p_blocked;
    (f.num > 0)
        .then(|| Weights::new(vec![f.den - f.num, f.num]))
        .flatten()
}

/// How a retreating unit comes back into action (EF-5), in words.
pub(super) fn return_words(p: &RuleParams, on: &Switches) -> String {
    if on.return_roll {
        format!(
            "Return Roll: a retreating unit returns to normal action on a roll of {}+ ({:+} with a general) at the start of each move (EF-5)",
            p.return_on, p.return_general_bonus
        )
    } else {
        format!(
            "a retreating unit is out of the line for {} turn{} and then back in action (without the amendment's return roll)",
            p.retreat_turns,
            if p.retreat_turns == 1 { "" } else { "s" }
        )
    }
}

/// The unit of `test`, `rally` and `under-fire`.
fn unit(p: &Params, rules: &Rules, on: &Switches) -> ef::Unit {
    ef::Unit {
        class: p.class,
        general: p.general,
        supported: p.supported,
        natural_one_fails: on.natural_one_fails,
        return_on: rules.q.return_on,
        troop: ef::Troop::Infantry,
        return_roll: on.return_roll,
        retreat_turns: rules.q.retreat_turns,
        numbers: rules.numbers,
    }
}

/// The enemy it exchanges fire with under `retreat-on-fire` (EF-5): it never retreats here, so
/// its return roll is never taken.
pub(super) fn enemy_unit(p: &Params, rules: &Rules, on: &Switches) -> ef::Unit {
    ef::Unit {
        class: p.enemy_class,
        general: p.enemy_general,
        supported: p.enemy_supported,
        natural_one_fails: on.natural_one_fails,
        return_on: rules.q.return_on,
        troop: ef::Troop::Infantry,
        return_roll: true,
        retreat_turns: 1,
        numbers: rules.numbers,
    }
}

/// The unit's state at the start.
///
/// # Errors
/// [`Error::Invalid`] for `lost` not below the rule's `steps`.
fn start(p: &Params, u: &ef::Unit) -> Result<ef::UnitState> {
    let steps = u.numbers.steps;
    if p.lost >= steps {
        return Err(Error::Invalid {
            what: p.how.lost.what.clone(),
            value: p.lost.to_string(),
            allowed: format!(
                "allowed: a whole number from 0 to {} (below steps = {steps}: a unit with every step lost is eliminated)",
                steps - 1
            ),
        });
    }
    let s = ef::UnitState {
        status: ef::Status::InLine,
        quarters: steps - p.lost,
        hits: 0,
        out: 0,
    };
    Ok(if p.state == StartState::Retreating {
        u.retreating(s)
    } else {
        s
    })
}

/// What a test needs, in words.
fn need_note(u: &ef::Unit) -> String {
    match u.needs() {
        Some(1) => "a test always passes: no roll fails it (EF-2 has no automatic failure)".into(),
        // What the two bonuses are, where a unit has neither: the steps "general attached"
        // and "supported from behind" met a reader who had not been told (writer trial 74);
        // the general's second bonus said too, or the two steps' different numbers read as a
        // contradiction (writer trial 74, fifth round).
        Some(n) if !u.general && !u.supported => format!(
            "a test needs a natural {n}+: no general attached ({:+} to tests, {:+} to the amendment's roll to return), no friendly unit behind in support ({:+} to tests) (EF-2, EF-5)",
            u.numbers.general_bonus, u.numbers.return_general_bonus, u.numbers.support_bonus
        ),
        Some(n) => format!("a test needs a natural {n}+ (EF-2)"),
        None => "no roll passes a test".into(),
    }
}

/// The unit of `test`, `rally` and `under-fire` with its start and its first note (what a
/// test needs), and the rule parameters it plays.
///
/// # Errors
/// A start its parameters cannot make.
pub(super) fn single(ctx: &Ctx) -> Result<(Rules, ef::Unit, ef::UnitState, Vec<String>)> {
    let p = &ctx.p;
    let rules = Rules::read(ctx.setup.resolved)?;
    let u = unit(p, &rules, &ctx.on);
    let s = start(p, &u)?;
    let notes = vec![need_note(&u)];
    Ok((rules, u, s, notes))
}

impl Rules {
    /// A unit spec's unit, playing these rules (EF-5's return and EF-1, EF-2's numbers).
    pub(super) fn unit(
        &self,
        what: &str,
        spec: &str,
        on: &Switches,
    ) -> Result<(ef::Unit, ef::UnitState, Option<u32>)> {
        let (mut u, s, d) = parse_unit(what, spec, on.natural_one_fails, self.numbers)?;
        u.return_on = self.q.return_on;
        u.return_roll = on.return_roll;
        u.retreat_turns = self.q.retreat_turns;
        Ok((u, s, d))
    }
}
