//! Rank & File's odds sheet (`morale-lab odds rank-and-file`).

use super::rules as rf;
use crate::exact::enumerate;
use crate::odds::{Odds, OddsCell, OddsSection, cell, to_frac};

/// RF-2, RF-3, RF-6: the chance a Rank & File unit passes a test, condensed to one table for a
/// rulebook: by stands lost (rows) and class with a leader bonus of 0, +1 and +2 (columns), then
/// a small table that turns any of its chances into the chance with a re-roll. Without `stands`,
/// a first column marks each row's 50% rule for the usual unit sizes ("always fails if it began with 4 stands
/// or fewer"); with `stands`, the rows at that loss show the automatic failure. Where
/// the rule parameters make a re-roll's effect depend on more than the chance it re-rolls, the
/// sheet keeps one table per leader bonus with the re-roll columns. The numbers are the rule
/// parameters' (`numbers`; [`rf::Numbers::default`] for the source's).
pub fn rank_and_file(stands: Option<u8>, max_lost: u8, numbers: rf::Numbers) -> Odds {
    let size = stands.unwrap_or(u8::MAX);
    // A re-roll's effect as a function of the chance alone (one row per chance), if it is one.
    let (reroll, consistent) = reroll_by_chance(max_lost, numbers);
    let sections = if consistent {
        condensed_sections(stands, max_lost, numbers, size, reroll)
    } else {
        per_leader_sections(max_lost, numbers, size)
    };
    let notes = notes(stands, numbers, consistent);
    Odds::new(
        "rank-and-file",
        "Rank & File odds: tests and rallies",
        sections,
        notes,
    )
}

/// The cell of a unit that fails automatically (RF-3), named by the break share's rule.
fn auto_fail(numbers: rf::Numbers) -> OddsCell {
    OddsCell::note(if numbers.break_fraction == (1, 2) {
        "fails (50% rule)"
    } else {
        "fails (RF-3)"
    })
}

/// The chance to pass, or None where the unit fails automatically (RF-3).
fn chance(
    numbers: rf::Numbers,
    class: rf::Class,
    lost: u8,
    leader: i8,
    reroll: bool,
    size: u8,
) -> Option<crate::frac::Frac> {
    let unit = rf::Unit {
        class,
        kind: rf::Kind::Formed,
        stands: size,
        elite: reroll,
        leader,
        in_buildings: false,
        buildings_bonus: 0,
        modifier: 0,
        hit_points: 1,
        numbers,
    };
    let need = unit.need(lost);
    if need == rf::Need::AutoFail {
        return None;
    }
    let mut p = 0.0;
    enumerate(
        |o| unit.test(need, &mut 0, o),
        |pass, q| {
            if pass {
                p += q
            }
        },
    );
    Some(to_frac(p, 36))
}

/// Each chance with its chance after a re-roll (one row per chance), and whether a re-roll's
/// effect is a function of the chance alone.
fn reroll_by_chance(
    max_lost: u8,
    numbers: rf::Numbers,
) -> (Vec<(crate::frac::Frac, crate::frac::Frac)>, bool) {
    let mut reroll: Vec<(crate::frac::Frac, crate::frac::Frac)> = Vec::new();
    let mut consistent = true;
    for class in rf::Class::ALL {
        for leader in 0..=2i8 {
            for lost in 0..=max_lost {
                if let (Some(p), Some(r)) = (
                    chance(numbers, class, lost, leader, false, u8::MAX),
                    chance(numbers, class, lost, leader, true, u8::MAX),
                ) {
                    match reroll.iter().find(|(q, _)| *q == p) {
                        Some((_, r0)) if *r0 != r => consistent = false,
                        Some(_) => {}
                        None => reroll.push((p, r)),
                    }
                }
            }
        }
    }
    (reroll, consistent)
}

/// The condensed sheet: one table by stands lost, class and leader bonus (with the break
/// share's column where no unit size is given), and the table read with a re-roll.
fn condensed_sections(
    stands: Option<u8>,
    max_lost: u8,
    numbers: rf::Numbers,
    size: u8,
    mut reroll: Vec<(crate::frac::Frac, crate::frac::Frac)>,
) -> Vec<OddsSection> {
    let mut sections = Vec::new();
    let mut columns = Vec::new();
    let rule = if numbers.break_fraction == (1, 2) {
        "50% rule".to_string()
    } else {
        format!(
            "{}/{} rule",
            numbers.break_fraction.0, numbers.break_fraction.1
        )
    };
    // Without a unit size, a first column: at each loss, the units the break share fails
    // outright, read before any cell of its row, so that "Regular, 4 lost: 1/6" is not read
    // for a unit of 8 that cannot pass (a writer's trial read it so when it came last).
    if stands.is_none() {
        columns.push(format!("{rule} fails units of"));
    }
    for c in rf::Class::ALL {
        for leader in 0..=2i8 {
            // A class by its name in the rules, capitalised as they write it ("Veteran").
            let class = crate::labels::capitalised(c.name());
            columns.push(if leader == 0 {
                class
            } else {
                format!("{class} {} leader", crate::odds::signed(leader.into()))
            });
        }
    }
    let mut rows = Vec::new();
    for lost in 0..=max_lost {
        let mut cells = Vec::new();
        if stands.is_none() {
            // The largest unit that has lost its break share at this loss (RF-3).
            let largest = (1..=60u8)
                .rev()
                .find(|&s| chance(numbers, rf::Class::Veteran, lost, 0, false, s).is_none());
            cells.push(OddsCell::note(&match largest {
                Some(1) => "1 stand".to_string(),
                Some(s) => format!("{s} stands or fewer"),
                None => "\u{2014}".to_string(),
            }));
        }
        for class in rf::Class::ALL {
            for leader in 0..=2i8 {
                cells.push(
                    chance(numbers, class, lost, leader, false, size)
                        .map_or_else(|| auto_fail(numbers), cell),
                );
            }
        }
        rows.push((lost.to_string(), cells));
    }
    // A test taken for fire follows the stand just lost: it counts (said under the table, so
    // that the row head stays two words on paper).
    let mut foot = vec![
        "Stands lost include any lost this turn: a test for losses is taken after the stand has gone."
            .to_string(),
    ];
    // Why neighbouring columns agree: the natural 1 and 6 cap every chance (RF-2), where the
    // rules are as written.
    if (numbers.always_fails, numbers.always_passes) == (1, 6) {
        foot.push(format!(
            "A 1 always fails and a 6 always passes, so no bonus lifts a chance above 5/6 and, short of the {rule}, no loss drops it below 1/6: that is why neighbouring cells often agree."
        ));
    }
    if stands.is_none() {
        foot.push(format!(
            "The first column: a unit that has lost {} of its starting stands or more fails every test ({rule}), whatever the cells beside it say. At each number of stands lost it gives the unit sizes that already fail: read it first.",
            if numbers.break_fraction == (1, 2) {
                "half".to_string()
            } else {
                format!("{}/{}", numbers.break_fraction.0, numbers.break_fraction.1)
            }
        ));
    }
    sections.push(OddsSection {
        title: match stands {
            Some(n) => format!(
                "Chance to pass a test (morale, rally or waiver) for a unit of {}, by stands lost, class and leader bonus",
                crate::labels::count(u32::from(n), "stand", "stands")
            ),
            None => "Chance to pass a test (morale, rally or waiver), by stands lost, class and leader bonus"
                .into(),
        },
        row_header: "stands lost".into(),
        columns,
        rows,
        foot,
    });
    reroll.sort_by(|a, b| a.0.value().total_cmp(&b.0.value()));
    sections.push(OddsSection {
        title:
            "With a re-roll: each chance above, after one re-roll (an Elite unit's, or an attached commander's)"
                .into(),
        row_header: "chance".into(),
        columns: vec!["with a re-roll".into()],
        rows: reroll
            .into_iter()
            .map(|(p, r)| (cell(p).text, vec![cell(r)]))
            .collect(),
        foot: Vec::new(),
    });
    sections
}

/// One table per leader bonus, each class with and without a re-roll, where a re-roll's
/// effect is not a function of the chance alone.
fn per_leader_sections(max_lost: u8, numbers: rf::Numbers, size: u8) -> Vec<OddsSection> {
    let mut sections = Vec::new();
    for leader in 0..=2i8 {
        let mut columns = Vec::new();
        for c in rf::Class::ALL {
            let class = crate::labels::capitalised(c.name());
            columns.push(format!("{class} + re-roll"));
            columns.insert(columns.len() - 1, class);
        }
        let mut rows = Vec::new();
        for lost in 0..=max_lost {
            let mut cells = Vec::new();
            for class in rf::Class::ALL {
                for reroll in [false, true] {
                    cells.push(
                        chance(numbers, class, lost, leader, reroll, size)
                            .map_or_else(|| auto_fail(numbers), cell),
                    );
                }
            }
            rows.push((lost.to_string(), cells));
        }
        sections.push(OddsSection {
            title: format!("Leader bonus {}", crate::odds::signed(leader.into())),
            row_header: "stands lost".into(),
            columns,
            rows,
            foot: Vec::new(),
        });
    }
    sections
}

/// The sheet's notes: RF-2's roll, RF-6's re-roll (as the tables read it) and RF-3's break share.
fn notes(stands: Option<u8>, numbers: rf::Numbers, consistent: bool) -> Vec<String> {
    let n = &numbers;
    let [vet, reg, green] = n.base;
    let (num, den) = n.break_fraction;
    let share = if (num, den) == (1, 2) {
        "half".to_string()
    } else {
        format!("{num}/{den}")
    };
    let mut notes = vec![
        format!(
            "RF-2: roll a D6, {} per stand lost, + leader bonus; pass on the class's base number or more (Veteran {vet}, Regular {reg}, Green {green}); {}.",
            crate::odds::signed(n.loss_modifier.into()),
            n.naturals()
        ),
        // "Waiver" in the first table's title, said for a player who has not read the
        // supplement (writer trial 74).
        "RF-10: a waiver test (an optional rule from Rank & File's Supplement 1) is the test a unit takes at the end of the charge phase when charged in flank or rear, or, on foot, charged frontally by shock troops of a better class (none in square, or defending a linear obstacle or a building); it is read from the first table like any other test.".to_string(),
        match (n.rerolls_per_test, consistent) {
            (1, true) => "RF-6: a re-roll (an optional rule: an Elite unit has them, and so does a unit whose attached commander holds re-rolls) is one re-roll of a failed test, never more than one per test, and none is spent on a test the 50% rule fails (no roll could pass it). To read a test with a re-roll, find its chance in the first table, then look that chance up in the re-roll table.".to_string(),
            (1, false) => "RF-6: \"+ re-roll\" is one re-roll of a failed test (an Elite unit's, or one held by a commander attached to the unit); never more than one per test.".to_string(),
            (k, true) => format!("RF-6: a re-roll re-rolls a failed test, up to {k} times on one test (an Elite unit's, or those held by a commander attached to the unit). To read a test with re-rolls, find its chance in the first table, then look that chance up in the re-roll table."),
            (k, false) => format!("RF-6: \"+ re-roll\" re-rolls a failed test, up to {k} times on one test (an Elite unit's, or those held by a commander attached to the unit)."),
        },
    ];
    match stands {
        Some(s) => notes.push(format!(
            "RF-3: a unit of {s} stands with {share} or more of them lost fails every test (the row marked \u{201c}fails\u{201d})."
        )),
        None => {
            // The usual unit sizes, with the first loss at which each fails every test.
            let at: Vec<String> = [4u8, 6, 8, 10, 12]
                .into_iter()
                .filter_map(|size| {
                    let unit = rf::Unit {
                        class: rf::Class::Regular,
                        kind: rf::Kind::Formed,
                        stands: size,
                        elite: false,
                        leader: 0,
                        in_buildings: false,
                        buildings_bonus: 0,
                        modifier: 0,
                        hit_points: 1,
                        numbers,
                    };
                    (0..=size)
                        .find(|&lost| unit.need(lost) == rf::Need::AutoFail)
                        .map(|lost| {
                            // "an 8-stand", "an 11-stand", "an 18-stand": said with a vowel.
                            let an = matches!(size, 8 | 11 | 18) || (80..90).contains(&size);
                            let a = if an { "an" } else { "a" };
                            format!("{a} {size}-stand unit once {lost} are lost")
                        })
                })
                .collect();
            notes.push(format!(
                "RF-3: a unit that has lost {share} or more of its starting stands fails every test automatically: {} (the first table's first column).",
                at.join(", ")
            ))
        }
    }
    notes
}

/// Why a routing unit's table starts at its second rally phase (RF-5).
const TWICE: &str = "A routing unit must pass twice, first to unsteady, then to good order, so none is back at its first rally phase: the table starts at the second.";

/// Under the table from unsteady by stands already lost: why it falls more slowly than the
/// routing one (each stand lost is −1 on the roll, RF-5, and a failed rally while unsteady costs
/// none).
const UNSTEADY_LOST: &str = "A failed rally while unsteady costs no stand: each stand already lost only takes 1 off every roll, so the chance falls more slowly with losses than a routing unit's.";

/// The turns of the "rallies within k turns" tables.
pub const RALLY_TURNS: u32 = 8;

/// The unit size of a sheet not asked for another: its test table's and its rally tables'.
pub const RALLY_STANDS: u8 = 8;

/// A help a rally table's column gives a class: its label and the settings it adds.
type Help = (&'static str, &'static [(&'static str, &'static str)]);

/// The helps a rally table's columns give each class: none, a +1 or +2 leader, and Elite with
/// its re-roll (the column's label, the settings it adds).
const HELPS: [Help; 4] = [
    ("", &[]),
    (" +1 leader", &[("leader", "1")]),
    (" +2 leader", &[("leader", "2")]),
    ("Elite ", &[("elite", "true")]),
];

/// What an Elite column counts, under the first rally table, from the rules' number of
/// re-rolls being Elite gives (RF-6; one unless the rules here say otherwise).
fn elite_note(rules: &crate::params::Resolved) -> String {
    match rules
        .rules_json()
        .iter()
        .find(|(k, _)| k.as_str() == "elite_rerolls")
        .map(|(_, v)| crate::report::json_text(v))
        .as_deref()
    {
        None | Some("1") => {
            "An Elite column counts the unit's one re-roll for the battle (RF-6), spent on its first failed test, here a rally.".to_string()
        }
        Some("unlimited") => {
            "An Elite column re-rolls every failed test once, here each failed rally (RF-6, with unlimited re-rolls for being Elite).".to_string()
        }
        Some(n) => format!(
            "An Elite column counts the unit's {n} re-rolls for the battle (RF-6), spent on its first failed tests, here rallies."
        ),
    }
}

/// The Elite re-rolls a sheet's Elite columns count, in a column head's words: "one re-roll"
/// (RF-6; the rules give Elite units re-rolls but no number, and one is assumed).
fn elite_words(rules: &crate::params::Resolved) -> String {
    match rules
        .rules_json()
        .iter()
        .find(|(k, _)| k.as_str() == "elite_rerolls")
        .map(|(_, v)| crate::report::json_text(v))
        .as_deref()
    {
        None | Some("1") => "one re-roll".into(),
        Some("unlimited") => "a re-roll a test".into(),
        Some(n) => format!("{n} re-rolls"),
    }
}

/// The rally tables' column heads: "Veteran", "Veteran +1 leader", …, and the Elite column
/// "Elite Veteran (one re-roll)" as a player says it, with the re-rolls it counts (`elite`,
/// [`elite_words`]): an assumption said only in the notes was missed (writer trial 62).
fn rally_columns(elite: &str) -> Vec<String> {
    columns_in_order()
        .into_iter()
        .map(|(class, (label, _))| {
            let class = crate::labels::capitalised(class.name());
            match label.strip_suffix(' ') {
                // "no leader" said in the head: page 2 of a printed sheet does not show the
                // note that says so (writer trial 74).
                Some(before) => format!("{before} {class} ({elite}, no leader)"),
                None => format!("{class}{label}"),
            }
        })
        .collect()
}

/// The rally tables' columns in order: each class with no leader, a +1 and a +2 leader, then
/// the Elite columns together, under one head with the re-rolls they count (beside each
/// class, "Elite Veteran" wrapped to a head a line taller, and the sheet ran a page longer).
fn columns_in_order() -> Vec<(rf::Class, Help)> {
    let (leaders, elite) = HELPS.split_at(HELPS.len() - 1);
    let by_class = |helps: &'static [Help]| {
        rf::Class::ALL
            .into_iter()
            .flat_map(move |class| helps.iter().map(move |h| (class, *h)))
    };
    by_class(leaders).chain(by_class(elite)).collect()
}

/// The chance of being back in good order by each rally phase, a column per class and help
/// ([`rally_columns`]), for a unit of `stands` in `state` that has already lost `lost`, solved
/// exactly by the rally scenario under `rule_inputs`.
fn recovered_by(
    system: &dyn crate::system::RuleSystem,
    rule_inputs: &[crate::params::Input],
    stands: u8,
    phases: u32,
    state: &str,
    lost: u8,
) -> crate::error::Result<Vec<Vec<f64>>> {
    use crate::params::Input;
    use crate::scenario::{RunOptions, Scenario};
    let stands_text = stands.to_string();
    let lost_text = lost.to_string();
    let mut by_column: Vec<Vec<f64>> = Vec::new();
    for (class, (_, extra)) in columns_in_order() {
        {
            let mut inputs = rule_inputs.to_vec();
            for (k, v) in [
                ("class", class.name()),
                ("state", state),
                ("stands", stands_text.as_str()),
                ("lost", lost_text.as_str()),
                ("turns", &phases.to_string()),
            ]
            .into_iter()
            .chain(extra.iter().copied())
            {
                inputs.push(Input::parse_set(&format!("{k}={v}"))?);
            }
            let all = crate::system::all_params(system);
            let resolved = crate::params::resolve(
                &all,
                system.rule_params(),
                system.name(),
                Scenario::Rally,
                &inputs,
                &[],
            )?;
            let job = system.build(Scenario::Rally, &resolved, &[])?;
            let report = job.run(
                &RunOptions::new(1, 1).exact_only(true),
                &crate::engine::Control::new(),
            )?;
            let by: Vec<f64> = report
                .tables
                .iter()
                .find_map(|t| {
                    let i = t.columns.iter().position(|c| c == "recovered_by")?;
                    Some(
                        t.rows
                            .iter()
                            .map(|r| r.cells[i].exact.unwrap_or(f64::NAN))
                            .collect(),
                    )
                })
                .unwrap_or_default();
            by_column.push(by);
        }
    }
    Ok(by_column)
}

/// RF-4, RF-5: the chance a shaken unit is back in good order within k rally phases, from
/// routing and from unsteady (one table each), by class without help, with a +1 or +2 leader (as
/// the pass table has), and as an Elite unit with its re-roll: a unit of `ask.stands` (default 8) that has already lost
/// `ask.lost` (default none). Solved exactly by the rally scenario under the rule parameters of
/// `rules` (the sheet's).
///
/// # Errors
/// Rule parameters that do not fit together (never for values the sheet accepted).
pub fn rally_sections(
    system: &dyn crate::system::RuleSystem,
    rules: &crate::params::Resolved,
    ask: &crate::odds::OddsAsk,
) -> crate::error::Result<Vec<OddsSection>> {
    let stands = ask.stands.unwrap_or(RALLY_STANDS);
    let lost = ask.lost.unwrap_or(0);
    let phases = ask.phases.map_or(RALLY_TURNS, u32::from);
    if lost >= stands {
        return Err(crate::error::Error::Invalid {
            what: "--lost".into(),
            value: lost.to_string(),
            allowed: format!("fewer stands lost than the unit's {stands} (--stands)"),
        });
    }
    use crate::params::Input;
    let rule_inputs: Vec<Input> = rules
        .rules_json()
        .iter()
        .map(|(k, v)| Input::rule(k, crate::report::json_text(v)))
        .collect();
    let elite = elite_note(rules);
    let recovered_by =
        |state: &str, lost: u8| recovered_by(system, &rule_inputs, stands, phases, state, lost);
    let columns = rally_columns(&elite_words(rules));
    let mut sections = Vec::new();
    // A routing unit that has already lost stands, as a player meets one mid-game: its chance by
    // the last rally phase shown, a row per loss short of the 50% rule (RF-3, RF-5). It comes
    // first: the short table a player looks up most, and the one that fills a printed page
    // under the test tables, where the long tables by phase would leave it a third blank.
    let losses = 0..stands.div_ceil(2);
    let summary = losses.len() > 1;
    // Then the same from unsteady, a table of its own: a unit turns unsteady on failing the
    // test its losses call for, so a player meets it with stands lost more often than not
    // (writer trial 62); a note that sent the reader to "a weaker unit's column" named columns
    // the sheet does not have for a +2 leader, an Elite or a Green unit with losses (trial 66).
    for state in ["routing", "unsteady"].into_iter().filter(|_| summary) {
        let mut rows = Vec::new();
        for k in losses.clone() {
            let by = recovered_by(state, k)?;
            let cells = by
                .iter()
                .map(|col| match col.last().copied() {
                    Some(p) if p.is_finite() => OddsCell::chance(p),
                    _ => OddsCell::note("—"),
                })
                .collect();
            rows.push((k.to_string(), cells));
        }
        sections.push(OddsSection {
            title: format!(
                "Back in good order by the {} rally phase, from {state}, by stands lost (a unit of {stands} stands)",
                crate::labels::ordinal(phases)
            ),
            row_header: "stands lost".into(),
            columns: columns.clone(),
            rows,
            foot: match state {
                "routing" => vec![
                    "Each failed rally while routing costs another stand, so a unit that has lost stands has fewer tries before the 50% rule removes it, and each try is harder.".to_string(),
                    elite.clone(),
                ],
                _ => vec![UNSTEADY_LOST.to_string()],
            },
        });
    }
    // From routing with none lost, and, on the sheet for a whole unit, with one already lost
    // too: a unit routs after losses, so that is the table a player meets most (writer trial
    // 50 asked for the lost ones by phase; one fills the second page, more would start a third).
    let mut tables: Vec<(&str, u8)> = vec![("routing", lost)];
    if lost == 0 && summary {
        tables.push(("routing", 1));
    }
    tables.push(("unsteady", lost));
    for (state, lost) in tables {
        let columns = columns.clone();
        let by_column = recovered_by(state, lost)?;
        // A routing unit needs two passes, so no chance in its first rally phase is above 0:
        // that row is left out, and the note under the table says why in one sentence.
        let first = match state {
            "routing" => 1,
            _ => 0,
        };
        let rows = (first..phases as usize)
            .map(|k| {
                let cells = by_column
                    .iter()
                    .map(|col| match col.get(k).copied() {
                        Some(p) if p.is_finite() => OddsCell::chance(p),
                        _ => OddsCell::note("—"),
                    })
                    .collect();
                ((k + 1).to_string(), cells)
            })
            .collect();
        sections.push(OddsSection {
            title: format!(
                "Back in good order by each rally phase, from {state} (a unit of {stands} stands, {})",
                match lost {
                    0 => "none lost".to_string(),
                    1 => "1 lost".to_string(),
                    n => format!("{n} lost"),
                }
            ),
            row_header: "rally phase".into(),
            columns,
            rows,
            // Why the first rows of the routing table are nought (RF-5); what an Elite column
            // counts, under the first table that has one.
            foot: match (state, summary, lost) {
                // The last row of each table by phase is a row of the tables by stands lost
                // above: said once, so the repeat reads as meant (writer trial 74).
                ("routing", true, 0) => vec![
                    TWICE.to_string(),
                    format!(
                        "These tables by phase end at the {} phase, whose chances the tables by stands lost above already give: here they show how fast the chance builds.",
                        crate::labels::ordinal(phases)
                    ),
                ],
                ("routing", true, _) => Vec::new(),
                ("routing", false, _) => vec![TWICE.to_string(), elite.clone()],
                _ => Vec::new(),
            },
        });
    }
    Ok(sections)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Format;

    /// A loose printed page says which sheet it is: the title at every page's foot, as a CSS
    /// string that a title's quotes, backslashes and `<` cannot leave.
    #[test]
    fn every_printed_page_names_its_sheet() {
        let mut o = rank_and_file(None, 6, rf::Numbers::default());
        o.set_title("Green \"rally\" \\ </style><odds>", None);
        let html = o.html();
        assert!(
            html.contains(
                "@bottom-left { content: \"Green \\\"rally\\\" \\\\ \\3c /style>\\3c odds>\";"
            ),
            "{html}"
        );
        assert_eq!(html.matches("</style>").count(), 1);
        assert!(html.contains("counter(page)"));
        // And its head credits what worked it out (writer trial 59).
        assert!(html.contains(
            "@page :first { @top-right { content: \"Figures worked out with morale-lab\""
        ));
    }

    #[test]
    fn rank_and_file_table_values() {
        let o = rank_and_file(Some(7), 4, rf::Numbers::default());
        // One table by class and leader bonus (veteran +0, +1, +2, regular …, green …), then
        // the re-roll table.
        assert_eq!(o.sections.len(), 2);
        let t = &o.sections[0];
        assert_eq!(t.columns[0], "Veteran");
        assert_eq!(t.columns[4], "Regular +1 leader");
        assert_eq!(t.columns.len(), 9, "no 50% column with --stands");
        // Leader 0, veteran, 2 lost: 5+ = 1/3.
        assert_eq!(t.rows[2].1[0].fraction.as_deref(), Some("1/3"));
        // Leader +1, veteran, 3 lost: 5+ = 1/3 (RF-2 worked example).
        assert_eq!(t.rows[3].1[1].fraction.as_deref(), Some("1/3"));
        // 4 of 7 lost: automatic failure.
        assert_eq!(t.rows[4].1[0].fraction, None);
        // Green, 0 lost, no leader: 5+ = 1/3. Regular +2 leader, 0 lost: 2+ = 5/6.
        assert_eq!(t.rows[0].1[6].fraction.as_deref(), Some("1/3"));
        assert_eq!(t.rows[0].1[5].fraction.as_deref(), Some("5/6"));
        // Re-rolled: 1/3 → 5/9, 5/6 → 35/36, 1/6 → 11/36, computed by the rules (RF-6).
        let rr = &o.sections[1];
        let with = |p: &str| {
            rr.rows
                .iter()
                .find(|r| r.0.starts_with(&format!("{p} (")))
                .and_then(|r| r.1[0].fraction.clone())
        };
        assert_eq!(with("1/3").as_deref(), Some("5/9"));
        assert_eq!(with("5/6").as_deref(), Some("35/36"));
        assert_eq!(with("1/6").as_deref(), Some("11/36"));
        assert_eq!(o.system, "rank-and-file");
        for f in [Format::Text, Format::Csv, Format::Markdown, Format::Json] {
            assert!(o.render(f).contains("5/9"));
        }
        // Without --stands, a first column gives the 50% rule for the usual unit sizes: at 1
        // lost a unit of 2 stands or fewer fails every test, at 2 one of 4, at 3 one of 6.
        let o = rank_and_file(None, 6, rf::Numbers::default());
        let t = &o.sections[0];
        assert_eq!(t.columns.len(), 10);
        assert_eq!(t.columns[0], "50% rule fails units of");
        let last: Vec<&str> = t.rows.iter().map(|r| r.1[0].text.as_str()).collect();
        assert_eq!(
            last[..4],
            [
                "\u{2014}",
                "2 stands or fewer",
                "4 stands or fewer",
                "6 stands or fewer"
            ]
        );
        assert!(
            t.foot.iter().any(
                |f| f.contains("has lost half of its starting stands or more fails every test")
            ),
            "{:?}",
            t.foot
        );
        // The rule parameters reach the sheet: Green on 4 is the Regular column.
        let four = rf::Numbers {
            base: [3, 4, 4],
            ..rf::Numbers::default()
        };
        let o = rank_and_file(Some(7), 4, four);
        for row in &o.sections[0].rows {
            for leader in 0..3 {
                assert_eq!(row.1[3 + leader].fraction, row.1[6 + leader].fraction);
            }
        }
        assert!(o.notes[0].contains("Green 4"));
    }
}
