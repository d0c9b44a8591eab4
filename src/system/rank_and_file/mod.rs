//! Rank & File (RF-1 to RF-13) as the command line and experiments see it: what it is
//! ([`About`]) and, for each scenario, the file that builds its job from a [`Ctx`]. Its tables
//! (parameters, rule parameters, optional rules) are in `params.rs`, its units in `unit.rs`.

pub mod army;
mod cases;
pub mod invariants;
pub mod melee;
pub mod odds;
mod params;
pub mod rally;
mod reference;
pub mod rules;
pub mod test;
pub mod under_fire;
mod unit;

use crate::error::Result;
use crate::odds::Odds;
use crate::params::{Input, Resolved};
use crate::scenario::{Job, Scenario};

use super::{About, RuleSystem, Setup, Size};
use params::Rules;
pub use params::{
    HOLES, NAME, NOT_MODELLED, OPTIONS, PARAMS, Params, RULES, SCENARIOS, SPEC_KEYWORDS, Switches,
};

/// What every Rank & File job is built from: the scenario, every parameter in force (typed in
/// `p`), the optional rules switched on.
pub(super) struct Ctx<'a> {
    /// The system, the scenario, every parameter in force and the optional rules' names.
    pub setup: Setup<'a>,
    /// The parameters, typed.
    pub p: Params,
    /// The optional rules switched on.
    pub on: Switches,
}

/// Rank & File (RF-1 to RF-13): morale classes, the 50% rule, unsteady and routing units, rally, re-rolls, single stands, melee, charges and the supplement's optional rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct RankAndFile;

/// What RankAndFile is, for `list` and the registry.
static ABOUT: About = About {
    name: NAME,
    title: "Rank & File: morale classes, the 50% rule, unsteady/routing, rally, re-rolls, single stands, melee, charges and the supplement's options",
    rules: "RF-1 to RF-12",
    scenarios: SCENARIOS,
    params: &PARAMS,
    rule_params: &RULES,
    options: &OPTIONS,
    holes: HOLES,
    specs: SPEC_KEYWORDS,
    bench: cases::CASES,
    exact_bench: cases::EXACT_CASES,
    references: &[reference::RALLY, reference::UNDER_FIRE, reference::MELEE],
    helps: &[],
    edge_specs: &[
        (
            "veteran cavalry stands=40 elite leader=3 rerolls=9 frontage=40 hit=3 shock uncontrolled=6",
            "veteran infantry stands=40 lost=19 leader=3 rerolls=9 frontage=40 hit=3 square obstacle",
        ),
        (
            "green infantry stands=1 leader=-3 hit=-3 frontage=1",
            "green skirmisher stands=1 leader=-3 hit=-3 frontage=1",
        ),
    ],
    not_modelled: NOT_MODELLED,
};

/// What a points budget buys of a Rank & File unit: stands (RF-2).
static SIZES: [Size; 1] = [Size {
    key: "stands",
    one: "stand",
    min: 1,
    max: 40,
    rule: "RF-2",
}];

impl RuleSystem for RankAndFile {
    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn sizes(&self) -> &'static [Size] {
        &SIZES
    }
    fn defaults(&self, scenario: Scenario, _inputs: &[Input]) -> Vec<(&'static str, String)> {
        if scenario == Scenario::Rally {
            vec![("state", "routing".into())]
        } else {
            Vec::new()
        }
    }
    fn build(&self, scenario: Scenario, p: &Resolved, options: &[String]) -> Result<Box<dyn Job>> {
        let ctx = Ctx {
            setup: Setup {
                system: NAME,
                not_modelled: NOT_MODELLED,
                scenario,
                resolved: p,
                options,
            },
            p: Params::read(p)?,
            on: Switches::read(options),
        };
        match scenario {
            Scenario::Test => test::job(&ctx),
            Scenario::Rally => rally::job(&ctx),
            Scenario::UnderFire => under_fire::job(&ctx),
            Scenario::Melee | Scenario::Charge => melee::job(&ctx),
            Scenario::Engagement | Scenario::Line => army::job(&ctx),
        }
    }
    fn odds(&self, ask: &crate::odds::OddsAsk, rules: &Resolved) -> Result<Odds> {
        ask.only(
            "rank-and-file",
            &["--stands", "--max-lost", "--lost", "--phases"],
            "",
        )?;
        let read = Rules::read(rules)?;
        let numbers = read.numbers;
        let elite = match read.q.elite_rerolls {
            rules::EliteRerolls::Unlimited => {
                "an Elite unit that re-rolls every failed test, the tool's reading (RF-6)"
                    .to_string()
            }
            rules::EliteRerolls::Limited(1) => {
                "an Elite unit with one re-roll for the battle, spent on its first failed test (the rules give Elite units re-rolls but no number: one is this sheet's assumption)"
                    .to_string()
            }
            rules::EliteRerolls::Limited(n) => format!(
                "an Elite unit with its {n} re-rolls of the battle, one on each failed test until they are spent (RF-6)"
            ),
        };
        // A player's sheet is for a unit of a stated size (8 unless asked), so that no chance is
        // printed for a unit the 50% rule already fails (writers' trials 48 and 50 read
        // "Regular, 4 lost: 1/6" for a unit of 8); `any_size` keeps the table for every size.
        let stands = match ask.any_size {
            true => None,
            false => Some(ask.stands.unwrap_or(odds::RALLY_STANDS)),
        };
        let mut sheet = odds::rank_and_file(
            stands,
            // A unit of N stands can have lost up to N − 1: the rows the 50% rule fails run to
            // there (equal rows are folded into one).
            ask.max_lost
                .unwrap_or_else(|| stands.map_or(6, |s| s.saturating_sub(1).max(1))),
            numbers,
        );
        let mut rally = odds::rally_sections(self, rules, ask)?;
        crate::odds::drop_zero_rows(&mut rally);
        sheet.sections.extend(rally);
        let buildings = read.q.buildings_bonus;
        let lose = match numbers.rally_loss {
            0 => "loses no stand".to_string(),
            1 => "loses a stand".to_string(),
            n => format!("loses {n} stands"),
        };
        // The rally rules a player needs at the table, one to a line.
        // The sheet's own last phase, so the note counts what its tables show.
        let phases = ask.phases.map_or(odds::RALLY_TURNS, u32::from);
        // A +2 leader in buildings is off the table's columns: in the test table one stand
        // fewer lost is the same +1 (writer trial 74 asked where +3 is). Not in the rally
        // tables: there a row is also how near the 50% rule the unit stands, so a row up
        // overstates the chance (writer trial 74, fifth round: 87.9% read for a true 83.0%).
        let passes_at_plus_3 = |base: i8| {
            (1..=6u8)
                .filter(|&r| {
                    r >= numbers.always_passes
                        || (r > numbers.always_fails && i16::from(r) + 3 >= i16::from(base))
                })
                .count()
        };
        let beyond = match (buildings, numbers.base.map(passes_at_plus_3)) {
            (1, [5, 5, 5]) => {
                " In the test table, for a +2 leader read its column one row up (a stand fewer lost; with none lost, every class passes on 5/6), but a unit at the 50% rule still fails; the rally tables have no column for a +2 leader or an Elite unit in buildings."
            }
            (1, _) => {
                " In the test table, for a +2 leader read its column one row up (a stand fewer lost), but a unit at the 50% rule still fails; the rally tables have no column for a +2 leader or an Elite unit in buildings."
            }
            _ => "",
        };
        sheet.notes.extend([
            format!("Rallies: an unsteady or routing unit tests in each rally phase, one a turn (so the tables' {phases} rally phases are {phases} turns), with only its leader's bonus and stands lost changing the roll, and no fire, melee or charge in between (RF-5). A unit not back in good order by the {} phase may still come back later.", crate::labels::ordinal(phases)),
            format!("A routing unit must pass twice, first to unsteady, then to good order (RF-4). Each time a routing unit fails, it {lose}; once half its stands are lost it is removed (the 50% rule). An unsteady unit that fails loses nothing."),
            format!("The tables are for units in the open. In buildings this sheet assumes {buildings:+} (the rules give no number): read the column of a leader {buildings} higher.{beyond}"),
            format!("In the rally tables, the Elite columns are for {elite}, with no leader; Elite is a quality on top of the class (an Elite Green unit tests as Green, with the re-roll). Once the re-roll is spent, read the class's no-leader column."),
        ]);
        Ok(sheet)
    }
}
