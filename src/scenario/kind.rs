//! The scenario axis: every kind of trial the tool runs, as a type. The command line's
//! subcommands, the parameter tables, the rule systems and the experiments all name a scenario
//! by this enum; its text form is parsed once, where it enters (an experiment file, the library's
//! [`crate::job`]).

use std::fmt;

use crate::error::{Error, Result};

/// The enum and its `ALL`, from one list of variants: a new scenario is in `ALL` (and so on the
/// command line, in `list` and in `parse`) by being declared, and the compiler then asks for its
/// name, its `about()` and its arm in every system's `build`.
macro_rules! scenarios {
    ($(#[$meta:meta])* pub enum Scenario { $($(#[$vmeta:meta])* $v:ident,)* }) => {
        $(#[$meta])*
        pub enum Scenario {
            $($(#[$vmeta])* $v,)*
        }

        impl Scenario {
            /// Every scenario, in the order `list` and `--help` show them (the order they are
            /// declared in): one unit's tests, then fights, then battles.
            pub const ALL: [Scenario; [$(Scenario::$v),*].len()] = [$(Scenario::$v),*];
        }
    };
}

scenarios! {
    /// A kind of trial (docs/RULES.md §4). Each rule system has some of them
    /// ([`crate::system::RuleSystem::scenarios`]).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Scenario {
        /// One morale / rally / waiver test of a unit in a given state.
        Test,
        /// A shaken unit rallies turn after turn.
        Rally,
        /// A unit holds its place in the line under fire.
        UnderFire,
        /// Two units fight a melee to its end.
        Melee,
        /// A Rank & File charge: waiver test, melee, the winner's uncontrolled test.
        Charge,
        /// Two units play the whole turn for some turns.
        Engagement,
        /// N units a side in a line.
        Line,
    }
}

/// What `list` and the help say of a scenario: what one trial is, and its outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScenarioAbout {
    /// Its line in the command line's help.
    pub help: &'static str,
    /// An example command line, for its `--help`.
    pub example: &'static str,
    /// What one trial is.
    pub what: &'static str,
    /// Its outcomes, each line naming the systems it belongs to where not all.
    pub outcomes: &'static [&'static str],
}

impl Scenario {
    /// Its name on the command line and in experiment files (`under-fire`).
    pub const fn name(self) -> &'static str {
        match self {
            Scenario::Test => "test",
            Scenario::Rally => "rally",
            Scenario::Melee => "melee",
            Scenario::Charge => "charge",
            Scenario::Engagement => "engagement",
            Scenario::Line => "line",
            Scenario::UnderFire => "under-fire",
        }
    }

    /// What it is in a reader's words, as a report's method line begins ("A battle line").
    pub const fn words(self) -> &'static str {
        match self {
            Scenario::Test => "One test",
            Scenario::Rally => "A unit out of the fight, rallying turn by turn",
            Scenario::UnderFire => "A unit holding its place in the line under fire",
            Scenario::Melee => "A melee fought to its end",
            Scenario::Charge => "A whole charge",
            Scenario::Engagement => {
                "Two units fighting each other turn by turn (only side A ever chooses to charge)"
            }
            Scenario::Line => "A battle line",
        }
    }

    /// The scenario named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Scenario> {
        Scenario::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The scenario named `name`.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the scenarios there are.
    pub fn parse(name: &str) -> Result<Scenario> {
        Scenario::from_name(name).ok_or_else(|| Error::Invalid {
            what: "scenario".into(),
            value: name.into(),
            allowed: format!("scenarios are {}", Scenario::names()),
        })
    }

    /// Every scenario's name, comma-separated, in [`Scenario::ALL`]'s order.
    pub fn names() -> String {
        Scenario::join(&Scenario::ALL, ", ")
    }

    /// The names of `list`, joined by `sep`.
    pub fn join(list: &[Scenario], sep: &str) -> String {
        list.iter().map(|s| s.name()).collect::<Vec<_>>().join(sep)
    }

    /// The error for running it on `system`, which has only `available`.
    pub fn unsupported(self, system: &str, available: &[Scenario]) -> Error {
        Error::Unsupported {
            scenario: self.name().into(),
            system: system.into(),
            available: Scenario::join(available, ", "),
        }
    }

    /// Whether it plays whole fights on a field: `engagement` (exact and Monte Carlo) and `line`
    /// (Monte Carlo only).
    pub const fn is_battle(self) -> bool {
        matches!(self, Scenario::Engagement | Scenario::Line)
    }

    /// What one trial is (docs/RULES.md §4), and its outcomes.
    pub const fn about(self) -> ScenarioAbout {
        match self {
            Scenario::Test => ScenarioAbout {
                help: "One morale, rally or waiver test: the chance to pass",
                example: "morale-lab test --system rank-and-file --class green --stands 6 --lost 1 --leader 1",
                what: "one morale / rally / waiver test of a unit in a given state; linear-warfare: one opposed round or one volley.",
                outcomes: &[
                    "pass, fail (rank-and-file, effectiveness)",
                    "win, draw, lose (linear-warfare test=round)",
                    "hits_0 to hits_N (linear-warfare test=volley: the volley's hits)",
                ],
            },
            Scenario::Rally => ScenarioAbout {
                help: "A shaken unit rallies each turn until recovered, removed, or the turn cap",
                example: "morale-lab rally --system rank-and-file --class veteran --stands 7 --lost 2 --state routing",
                what: "a shaken unit takes its rally test each turn until back in good order, removed, or the turn cap.",
                outcomes: &[
                    "recovered, removed, unsteady, routing (rank-and-file: where an unrecovered unit stands at the cap)",
                    "back_in_action, still_retreating (effectiveness)",
                ],
            },
            Scenario::Melee => ScenarioAbout {
                help: "Two units fight a melee to its end (every system)",
                example: "morale-lab melee --system linear-warfare --attacker \"guards pips=7 charging\" --defender \"line pips=5 obstacle\"",
                what: "two units fight a melee to its end: rank-and-file RF-9 rounds until one side causes more casualties; effectiveness EF-3 rounds a turn until one suffers more hits; linear-warfare charge, closing fire, opposed rounds with follow-up.",
                outcomes: &[
                    "attacker_wins",
                    "defender_wins",
                    "mutual_destruction (rank-and-file, effectiveness)",
                    "bounce (linear-warfare: a drawn round, the mutual push-back)",
                    "halted (linear-warfare: the closing fire left the charger on its last pip, so it did not charge home)",
                ],
            },
            Scenario::Charge => ScenarioAbout {
                help: "A whole charge: waiver test, melee, uncontrolled test (rank-and-file)",
                example: "morale-lab charge --attacker \"veteran cavalry stands=6 shock\" --defender \"regular stands=8\" --option waiver-tests",
                what: "a rank-and-file charge: waiver test (RF-10), melee (RF-9), uncontrolled test for the winner (RF-12), blown marker (RF-11).",
                outcomes: &[
                    "target_broke",
                    "attacker_wins",
                    "defender_wins",
                    "mutual_destruction",
                ],
            },
            Scenario::Engagement => ScenarioAbout {
                help: "Two units (--attacker is side A, --defender side B) play the full turn: fire, charge, tests, melee, rally, retreats (every system; exact and Monte Carlo)",
                example: "morale-lab engagement --system effectiveness --attacker regular --defender poor --option retreat-on-fire",
                what: "two units (side A = --attacker, side B = --defender) start some moves apart and play the system's whole turn for some turns: fire, side A's charge when its policy says, every test, melee, rally, retreat and fall-back (solved exactly, and by Monte Carlo with the dice).",
                outcomes: &[
                    "side_a_holds",
                    "side_b_holds",
                    "both_gone",
                    "undecided_at_cap",
                ],
            },
            Scenario::Line => ScenarioAbout {
                help: "N units a side, each facing an opponent: gaps in the line, units lost and shaken per turn, army break point (every system; exact for one file a side, Monte Carlo beyond)",
                example: "morale-lab line --system effectiveness --attacker \"6 x regular\" --defender \"6 x regular\" --option retreat-on-fire --set turns=12",
                what: "N units a side (--attacker and --defender specs, e.g. \"6 x regular infantry\"), each facing an opponent, optional supports behind, blocked retreats and the army break point; gaps, units lost and shaken per turn (solved exactly for one file a side, or two without supports in linear-warfare; Monte Carlo only beyond).",
                outcomes: &["side_a_wins", "side_b_wins", "both_broken", "draw_at_cap"],
            },
            Scenario::UnderFire => ScenarioAbout {
                help: "A unit holds its place in the line under enemy fire for some turns",
                example: "morale-lab under-fire --system rank-and-file --class regular --stands 8 --set fire_dice=6 --set fire_to_hit=5",
                what: "a unit holds its place in the line under enemy fire for some turns, with every test its rules call for; per-turn state shares and holes in the line.",
                outcomes: &[
                    "good, unsteady, routing, removed (rank-and-file)",
                    "in_line, retreating, eliminated (effectiveness)",
                    "in_line, falling_back, removed (linear-warfare)",
                ],
            },
        }
    }
}

/// Written as its name, as experiment files and reports write it.
impl serde::Serialize for Scenario {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_distinct() {
        for s in Scenario::ALL {
            assert_eq!(Scenario::from_name(s.name()), Some(s));
            assert_eq!(s.to_string(), s.name());
        }
        let mut names: Vec<&str> = Scenario::ALL.iter().map(|s| s.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Scenario::ALL.len());
        assert_eq!(Scenario::from_name("Rally"), None);
        assert_eq!(Scenario::from_name("underfire"), None);
    }

    #[test]
    fn an_unknown_name_is_refused_naming_every_scenario() {
        let e = Scenario::parse("retreat").unwrap_err().to_string();
        assert!(e.contains("'retreat'") || e.contains("retreat"), "{e}");
        for s in Scenario::ALL {
            assert!(e.contains(s.name()), "{e}");
        }
    }

    #[test]
    fn battles_are_engagement_and_line() {
        let battles: Vec<Scenario> = Scenario::ALL
            .into_iter()
            .filter(|s| s.is_battle())
            .collect();
        assert_eq!(battles, [Scenario::Engagement, Scenario::Line]);
    }
}
