//! The battles every system plays (`engagement`, `line`) as far as they are the same in each:
//! their parameter table, the sides' unit specs, each side's fire and the job built around a
//! system's `Army`. It sits with the systems rather than in `scenario/battle/` because its
//! parameter table is a `params` table, and `params` stands above `scenario` (its tables name
//! the scenarios they apply to).

use crate::chain::Chain;
use crate::error::{Error, Result};
use crate::params::{How, Kind};
use crate::scenario::battle::{Army, Battle, Policy, SERIES, Shape, Volley};
use crate::scenario::fire::{FireParams, fire_model};
use crate::scenario::{ChainJob, Job, MetricDef, OutcomeDef, Scenario, TableDef};
use crate::system::Setup;

const ENGAGEMENT_OUTCOMES: [&str; 4] = [
    "side_a_holds",
    "side_b_holds",
    "both_gone",
    "undecided_at_cap",
];
const LINE_OUTCOMES: [&str; 4] = ["side_a_wins", "side_b_wins", "both_broken", "draw_at_cap"];

/// The scenarios that play whole fights.
pub const BATTLES: &[Scenario] = &[Scenario::Engagement, Scenario::Line];
const LINE: &[Scenario] = &[Scenario::Line];

crate::params::param_table! {
/// Parameters of `engagement` and `line`, the same in every system.
    pub static BATTLE_PARAMS;
    /// The battle parameters, typed, read once when a battle is built.
    pub struct BattleParams;
    /// How each battle parameter was set.
    how BattleHow;
    b_fire: String {
            flag: None,
            kind: Kind::Spec("DICE on TO_HIT, e.g. \"6 on 5\" (dice at full strength, hitting on TO_HIT+)"),
            default: "",
            meaning: "side B's fire when it differs from side A's: DICE on TO_HIT at full strength, e.g. \"6 on 5\" (unset: the same as side A's fire_dice, fire_to_hit or fire_loss; not for linear-warfare, whose units fire a die per stand)",
            rule: "§4",
            scenarios: BATTLES,
    },
    range: u8 {
            flag: None,
            kind: Kind::Int { min: 1, max: 20 },
            default: "1",
            meaning: "moves between the lines at the start; side A advances a move a turn when it means to charge",
            rule: "§4",
            scenarios: BATTLES,
    },
    fire_range: u8 {
            flag: None,
            kind: Kind::Int { min: 0, max: 20 },
            default: "2",
            meaning: "units fire when the lines are this many moves apart or closer (0: no fire)",
            rule: "§4",
            scenarios: BATTLES,
    },
    charge_at_turn: u32 {
            flag: None,
            kind: Kind::Int { min: 0, max: 1000 },
            default: "0",
            meaning: "side A charges from this turn on whenever able (0: not on this account)",
            rule: "RF-13, EF-3, LW-3",
            scenarios: BATTLES,
    },
    charge_when_shaken: bool {
            flag: None,
            kind: Kind::Bool,
            default: "true",
            meaning: "side A charges a target that is shaken (unsteady, retreating, falling back)",
            rule: "RF-13, EF-3, LW-3",
            scenarios: BATTLES,
    },
    units: usize {
            flag: None,
            kind: Kind::Int { min: 1, max: 12 },
            default: "6",
            meaning: "units a side in the line when a side's spec names one unit without a count",
            rule: "§4",
            scenarios: LINE,
    },
    supports: usize {
            flag: None,
            kind: Kind::Int { min: 0, max: 12 },
            default: "0",
            meaning: "files (from the left) with a supporting unit of the same spec behind: it blocks retreats (EF-4), gives +1 (EF-2) and steps up when the unit in front is gone",
            rule: "EF-2, EF-4",
            scenarios: LINE,
    },
}

/// The count of a part `N behind` of a side's spec (its supports), if it is one.
fn behind(part: &str) -> Option<&str> {
    let n = part.strip_suffix("behind")?.trim();
    (!n.is_empty() && n.chars().all(|c| c.is_ascii_digit())).then_some(n)
}

/// The unit specs of one side of a battle: `SPEC`, `N x SPEC`, or several of those separated
/// by `;` (at most 12 units). A single spec without a count in a line is repeated `units` times.
/// A part `N behind` gives this side's supports (see [`side_supports`]), not a unit.
///
/// # Errors
/// [`Error::Invalid`] naming the flag, for an engagement without exactly one unit, a bad count,
/// or more than 12 units.
pub(crate) fn side_specs(side: &SideSpec, b: &BattleParams, line: bool) -> Result<Vec<String>> {
    let what = side.how.what.clone();
    let spec = side.spec;
    let bad = |value: &str, allowed: String| Error::Invalid {
        what: what.clone(),
        value: value.into(),
        allowed,
    };
    let mut units = Vec::new();
    let mut counted = false;
    for part in spec.split(';').map(str::trim) {
        if part.is_empty() {
            return Err(bad(
                spec,
                "a unit spec may not be empty (between ';')".into(),
            ));
        }
        if behind(part).is_some() {
            if !line {
                return Err(bad(
                    part,
                    "supports stand behind a line's files; an engagement has one unit a side (use the line scenario)".into(),
                ));
            }
            continue;
        }
        let (n, unit) = match part.split_once(['x', '×']) {
            Some((n, rest))
                if n.trim().chars().all(|c| c.is_ascii_digit()) && !n.trim().is_empty() =>
            {
                let n: usize = n
                    .trim()
                    .parse()
                    .ok()
                    .filter(|n| (1..=12).contains(n))
                    .ok_or_else(|| {
                        bad(
                            part,
                            "a count before 'x' must be a whole number from 1 to 12".into(),
                        )
                    })?;
                counted = true;
                (n, rest.trim())
            }
            _ => (1, part),
        };
        if unit.is_empty() {
            return Err(bad(
                part,
                "give a unit spec after the count, e.g. 6 x regular infantry".into(),
            ));
        }
        units.extend(std::iter::repeat_n(unit.to_string(), n));
        if units.len() > 12 {
            return Err(bad(spec, "a side has at most 12 units in the line".into()));
        }
    }
    if !line {
        if units.len() != 1 {
            return Err(bad(
                spec,
                "an engagement has one unit a side; use the line scenario for more".into(),
            ));
        }
        return Ok(units);
    }
    if units.len() == 1 && !counted {
        units = vec![units.remove(0); b.units];
    } else if b.how.units.given && units.len() != b.units {
        return Err(Error::Conflict(format!(
            "{what} lists {} units but units={} was given: give one of them",
            units.len(),
            b.units
        )));
    }
    Ok(units)
}

/// Each side's supports in a line: the files (from the left) with a supporting unit of the same
/// spec behind (EF-2, EF-4) — a side's own `N behind` where its spec gives one, else `supports`
/// — at most `files`. None in an engagement.
///
/// # Errors
/// [`Error::Invalid`] for a count that is not a whole number from 0 to 12, or given twice;
/// [`Error::Conflict`] for a side's count beside `supports` given too.
pub(crate) fn side_supports(
    sides: [SideSpec; 2],
    b: &BattleParams,
    scenario: Scenario,
    files: usize,
) -> Result<[usize; 2]> {
    if scenario != Scenario::Line {
        return Ok([0, 0]);
    }
    let mut out = [b.supports.min(files); 2];
    for (side, s) in sides.iter().enumerate() {
        let mut given: Option<usize> = None;
        for part in s.spec.split(';').map(str::trim) {
            let Some(n) = behind(part) else { continue };
            let bad = |allowed: &str| Error::Invalid {
                what: s.how.what.clone(),
                value: part.into(),
                allowed: allowed.into(),
            };
            let n: usize = n
                .parse()
                .ok()
                .filter(|n| *n <= 12)
                .ok_or_else(|| bad("N behind: a whole number of supports from 0 to 12"))?;
            if given.replace(n).is_some() {
                return Err(bad("give a side's supports (N behind) once"));
            }
        }
        if let Some(n) = given {
            if b.how.supports.given {
                return Err(Error::Conflict(format!(
                    "{} gives {n} behind and supports={} was given too: give one of them",
                    s.how.what, b.supports
                )));
            }
            out[side] = n.min(files);
        }
    }
    Ok(out)
}

/// One side's spec as given (`--attacker`, `--defender`) and how it was given.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SideSpec<'a> {
    /// The spec text.
    pub spec: &'a str,
    /// Where it came from.
    pub how: &'a How,
}

impl<'a> SideSpec<'a> {
    /// Side A's and side B's specs (`attacker`, `defender`), each with how it was set.
    pub(crate) fn pair(a: (&'a str, &'a How), b: (&'a str, &'a How)) -> [SideSpec<'a>; 2] {
        [
            SideSpec {
                spec: a.0,
                how: a.1,
            },
            SideSpec {
                spec: b.0,
                how: b.1,
            },
        ]
    }
}

/// The specs of both sides, checked to face each other one to one.
pub(crate) fn battle_specs(
    sides: [SideSpec; 2],
    battle: &BattleParams,
    scenario: Scenario,
) -> Result<[Vec<String>; 2]> {
    let line = scenario == Scenario::Line;
    let a = side_specs(&sides[0], battle, line)?;
    let b = side_specs(&sides[1], battle, line)?;
    if a.len() != b.len() {
        return Err(Error::Conflict(format!(
            "side A has {} units and side B {}: in a line each unit faces an opponent, so give both sides the same number",
            a.len(),
            b.len()
        )));
    }
    Ok([a, b])
}

/// What every system's battle job takes besides its army: the system's [`Setup`] (its
/// scenario, `engagement` or `line`, the parameters in force and the optional rules), the battle
/// parameters, the turn cap, whose number the break point is and each side's supports.
pub(crate) struct BattleSetup<'a> {
    /// The system, the scenario, every parameter in force and the optional rules' names.
    pub setup: Setup<'a>,
    /// The battle parameters.
    pub battle: &'a BattleParams,
    /// The turn cap.
    pub turns: u32,
    /// Whose number the army break point is (`line`), in the system's words.
    pub break_point: BreakPointSource,
    /// Each side's supports ([`side_supports`]).
    pub supports: [usize; 2],
}

/// Whose number a system's army break point is: its source's, or the tool's where the source
/// gives none. A `line` report's note says which.
#[derive(Debug, Clone, Copy)]
pub(crate) enum BreakPointSource {
    /// The source's number.
    Source {
        /// The rule id (`LW-7`).
        rule: &'static str,
        /// The source's percentage.
        percent: u32,
        /// The rule in words, when the run plays it as written.
        as_written: &'static str,
        /// What the source says, when the run plays another number.
        says: &'static str,
    },
    /// None in the source: the number is the tool's assumption, for this reason.
    Assumed(&'static str),
}

/// The battle of `army` as set by the battle parameters, with its report.
pub(crate) fn battle_job<A: Army + 'static>(
    army: A,
    files: usize,
    setup: BattleSetup,
    mut notes: Vec<String>,
) -> Result<Box<dyn Job>> {
    let BattleSetup {
        setup,
        break_point: whose_number,
        battle: p,
        turns,
        supports,
    } = setup;
    let (scenario, resolved) = (setup.scenario, setup.resolved);
    let line = scenario == Scenario::Line;
    // The army break point is a rule parameter of every system (LW-7's number, the tool's
    // assumption elsewhere).
    let break_point: u32 = resolved.typed(&[], "break_point")?;
    let supports = if line {
        supports.map(|s| s.min(files))
    } else {
        [0, 0]
    };
    let policy = Policy {
        charge_at_turn: p.charge_at_turn,
        when_shaken: p.charge_when_shaken,
    };
    let shape = Shape {
        files,
        supports,
        turns,
        line,
        break_point_percent: if line { break_point } else { 100 },
        range: p.range,
        fire_range: p.fire_range,
        policy,
        weak_share: resolved.typed(&[], "weak_share")?,
    };
    let battle = Battle::new(army, shape);
    if line {
        notes.push(line_note(
            &battle,
            whose_number,
            break_point,
            files,
            supports,
        ));
    }
    notes.push(play_note(&battle, policy, line, files));
    let names = if line {
        LINE_OUTCOMES
    } else {
        ENGAGEMENT_OUTCOMES
    };
    // Three decisions, each its class; the last outcome is still fighting at the cap.
    let c = battle.classes();
    let [a, b, both, at_cap] = names;
    let mut outcomes = OutcomeDef::each(c, &[a, b, both]);
    outcomes.push(OutcomeDef::of(c, at_cap, &["fighting"]));
    let metrics = battle_metrics(&battle, c, [a, b, both]);
    debug_assert_eq!(battle.series().len(), SERIES.len());
    Ok(Box::new(ChainJob::new(
        battle,
        setup.describe(notes),
        outcomes,
        metrics,
        vec![
            TableDef::PerTurn {
                name: "per_turn",
                title: "Decided after each turn",
            },
            TableDef::Series {
                name: "lines",
                title: "Each line after each turn (means): positions empty (gaps), units gone (lost), units shaken",
            },
        ],
    )))
}

/// A line battle's note: the units a side, the supports behind, where each side breaks and
/// whose number the break point is.
fn line_note<A: Army + 'static>(
    battle: &Battle<A>,
    whose_number: BreakPointSource,
    break_point: u32,
    files: usize,
    supports: [usize; 2],
) -> String {
    // Whose number the break point is: the source's, or the tool's where there is none.
    let whose = match whose_number {
        BreakPointSource::Source {
            rule,
            percent,
            as_written,
            ..
        } if break_point == percent => format!("{rule}: {as_written}"),
        BreakPointSource::Source { rule, says, .. } => {
            format!(
                "an army breaks at {break_point}% gone (changed from the source: {rule} says {says})"
            )
        }
        BreakPointSource::Assumed(why) => {
            format!("an army breaks at {break_point}% gone, the tool's assumption: {why}")
        }
    };
    let units = |n: usize| {
        if n == 1 {
            "1 unit".to_string()
        } else {
            format!("{n} units")
        }
    };
    let behind = if supports[0] == supports[1] {
        format!("{} with a support behind", supports[0])
    } else {
        format!(
            "side A {} with a support behind, side B {}",
            supports[0], supports[1]
        )
    };
    format!(
        "{} a side ({behind}); a side breaks at {} gone (side A), {} (side B); {whose}",
        units(files),
        units(battle.break_at[0] as usize),
        battle.break_at[1]
    )
}

/// The note on how side A charges and how the battle is solved (exactly, or Monte Carlo only).
fn play_note<A: Army + 'static>(
    battle: &Battle<A>,
    policy: Policy,
    line: bool,
    files: usize,
) -> String {
    format!(
        "side A {}; {}",
        match (policy.charge_at_turn, policy.when_shaken) {
            (0, false) => "never charges".to_string(),
            // Why such a side A scores as one that never charges (writer trial 74: "as set"
            // tied with always holding, unexplained).
            (0, true) if battle.army.shaken_target_out_of_reach() => format!(
                "charges {} (never in reach: a retreating unit is out of the enemy's range)",
                battle.army.shaken_target()
            ),
            (0, true) => format!("charges {}", battle.army.shaken_target()),
            (t, false) => format!("charges from turn {t}"),
            (t, true) => format!(
                "charges from turn {t}, or earlier at {}",
                battle.army.shaken_target()
            ),
        },
        match (line, battle.exact()) {
            (false, _) => "exact: the whole fight worked out over every state the two units can be in, turn by turn, from the same rule code the dice play".to_string(),
            (true, true) => format!("exact: the whole line ({files} file{} a side) worked out over every state its units can be in, turn by turn, from the same rule code the dice play", if files == 1 { "" } else { "s" }),
            (true, false) => format!("Monte Carlo only: a line of {files} files a side has too many states to solve exactly ({})", battle.army.line_solves_words()),
        }
    )
}

/// The battle's metrics: turns to a decision, each value's share or count, and the strength
/// and weak turns of each side's line after the hole-turns.
fn battle_metrics<A: Army + 'static>(
    battle: &Battle<A>,
    c: &[crate::chain::ClassInfo],
    [a, b, both]: [&'static str; 3],
) -> Vec<MetricDef> {
    let mut metrics = vec![MetricDef::end_turn(
        c,
        "turns_to_decision",
        &[a, b, both],
        "turns until decided, among fights decided",
    )];
    const MEANINGS: [(&str, &str); 6] = [
        (
            "a_units_lost",
            "side A's units gone (removed, eliminated, destroyed), supports included",
        ),
        ("b_units_lost", "side B's units gone, supports included"),
        (
            "a_strength_lost",
            "side A's losses in its own unit (stands, quarters or pips), supports included",
        ),
        ("b_strength_lost", "side B's losses in its own unit"),
        (
            "a_hole_turns",
            "holes in side A's line: positions empty, summed over the turns played",
        ),
        (
            "b_hole_turns",
            "holes in side B's line, summed over the turns played",
        ),
    ];
    let apart = battle.army.apart();
    for v in battle.values() {
        let meaning = MEANINGS
            .iter()
            .chain(apart.iter())
            .find(|(name, _)| *name == v.name);
        metrics.push(MetricDef::Value {
            name: v.name,
            meaning: meaning.map_or(
                if v.name.starts_with("a_") {
                    "share of fights in which side A's unit ends in this state"
                } else {
                    "share of fights in which side B's unit ends in this state"
                },
                |m| m.1,
            ),
        });
    }
    // Strength in the line (docs/RULES.md §4), summed over the turns, after the hole-turns.
    let at = metrics
        .iter()
        .position(|m| m.name() == "b_hole_turns")
        .map_or(metrics.len(), |i| i + 1);
    metrics.splice(
        at..at,
        [
            MetricDef::SeriesTotal {
                name: "a_strength_turns",
                series: "strength_a",
                share: true,
                meaning: "the strength side A's front line held, summed over the turns: each turn adds the share of the line's full strength it held there, so a line at full strength every turn scores the number of turns",
            },
            MetricDef::SeriesTotal {
                name: "b_strength_turns",
                series: "strength_b",
                share: true,
                meaning: "strength side B's front line held, in turns at full strength",
            },
            MetricDef::SeriesTotal {
                name: "a_weak_turns",
                series: "weak_a",
                share: false,
                meaning: "turns side A's front held less than the weak share of its full strength",
            },
            MetricDef::SeriesTotal {
                name: "b_weak_turns",
                series: "weak_b",
                share: false,
                meaning: "turns side B's front held less than the weak share of its full strength",
            },
        ],
    );
    metrics
}

/// Each side's fire in a battle: `fire_dice` dice at full strength on `fire_to_hit`+, fewer as
/// a unit loses strength, or the fixed `fire_loss` table; side B's may differ (`b_fire`).
///
/// # Errors
/// A bad `fire_loss` or `b_fire`.
pub(crate) fn battle_volleys(fire: &FireParams, p: &BattleParams) -> Result<[Volley; 2]> {
    let a = if fire.loss.is_empty() {
        Volley::dice(fire.dice, fire.to_hit)
    } else {
        Volley::fixed(fire_model(fire)?)
    };
    let b = match parse_b_fire(&p.b_fire) {
        None => Err(Error::Invalid {
            what: p.how.b_fire.what.clone(),
            value: p.b_fire.clone(),
            allowed: "DICE on TO_HIT, e.g. \"6 on 5\": dice from 0 to 200, to-hit from 1 to 6"
                .into(),
        })?,
        Some(None) => a.clone(),
        Some(Some((dice, to_hit))) => Volley::dice(dice, to_hit),
    };
    Ok([a, b])
}

/// `""` → `Some(None)`; `"6 on 5"` → `Some(Some((6, 5)))`; anything else → `None`.
fn parse_b_fire(text: &str) -> Option<Option<(u32, u8)>> {
    let text = text.trim();
    if text.is_empty() {
        return Some(None);
    }
    let (dice, to_hit) = text.split_once(" on ")?;
    let dice = crate::params::parse_int(dice.trim()).filter(|d| (0..=200).contains(d))?;
    let to_hit = crate::params::parse_int(to_hit.trim().trim_end_matches('+'))
        .filter(|t| (1..=6).contains(t))?;
    Some(Some((dice as u32, to_hit as u8)))
}

#[cfg(test)]
mod tests {
    use crate::params::{Input, Source};
    use crate::scenario::Scenario;

    fn set(pairs: &[(&str, &str)]) -> Vec<Input> {
        pairs
            .iter()
            .map(|(k, v)| Input {
                key: (*k).into(),
                value: (*v).into(),
                source: Source::Set,
            })
            .collect()
    }

    fn notes(system: &str, inputs: &[Input]) -> Vec<String> {
        crate::system::build(system, Scenario::Line, inputs, &[])
            .unwrap()
            .describe()
            .notes
            .clone()
    }

    /// A side's own `N behind` gives it supports the other side need not have (EF-2, EF-4): the
    /// larger army of points stands its extra units behind; the break point counts them.
    #[test]
    fn each_side_may_have_its_own_supports() {
        let n = notes(
            "effectiveness",
            &set(&[
                ("attacker", "4 x elite"),
                ("defender", "4 x poor; 3 behind"),
            ]),
        );
        let line = n.iter().find(|l| l.contains("a side breaks at")).unwrap();
        assert!(
            line.starts_with(
                "4 units a side (side A 0 with a support behind, side B 3); a side breaks at 2 units gone (side A), 4 (side B)"
            ),
            "{line}"
        );
        // The same count both sides reads as before.
        let n = notes(
            "rank-and-file",
            &set(&[
                ("attacker", "2 x regular stands=4; 2 behind"),
                ("defender", "2 x regular stands=4; 2 behind"),
            ]),
        );
        assert!(
            n.iter()
                .any(|l| l.starts_with("2 units a side (2 with a support behind)")),
            "{n:?}"
        );
    }

    #[test]
    fn supports_behind_are_refused_where_they_do_not_fit() {
        let err = |system: &str, scenario: Scenario, inputs: &[Input]| {
            crate::system::build(system, scenario, inputs, &[])
                .err()
                .expect("refused")
                .to_string()
        };
        let e = err(
            "effectiveness",
            Scenario::Engagement,
            &set(&[("attacker", "elite; 1 behind")]),
        );
        assert!(e.contains("supports stand behind a line's files"), "{e}");
        let e = err(
            "effectiveness",
            Scenario::Line,
            &set(&[
                ("attacker", "4 x elite; 1 behind"),
                ("defender", "4 x regular"),
                ("supports", "2"),
            ]),
        );
        assert!(e.contains("give one of them"), "{e}");
        let e = err(
            "linear-warfare",
            Scenario::Line,
            &set(&[
                ("attacker", "4 x line; 13 behind"),
                ("defender", "4 x line"),
            ]),
        );
        assert!(e.contains("from 0 to 12"), "{e}");
        let e = err(
            "linear-warfare",
            Scenario::Line,
            &set(&[
                ("attacker", "4 x line; 1 behind; 2 behind"),
                ("defender", "4 x line"),
            ]),
        );
        assert!(e.contains("once"), "{e}");
    }
}
