//! Publishable odds tables: exact pass chances as fractions and percentages, computed by the
//! rules' own code and enumerated exactly (no sampling).

use serde::Serialize;

use crate::exact::enumerate;
use crate::frac::Frac;
use crate::report::Format;
use crate::rules::rank_and_file as rf;

/// One cell: an exact chance, or a dash with a reason.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsCell {
    /// The chance as a reduced fraction (`None` where the rules forbid the test).
    pub fraction: Option<String>,
    /// The chance as a number.
    pub p: f64,
    /// What the cell shows: `5/9 (55.6%)`.
    pub text: String,
}

/// One table of an odds sheet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsSection {
    /// The table's title.
    pub title: String,
    /// What the rows are.
    pub row_header: String,
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows: a label and one cell per column.
    pub rows: Vec<(String, Vec<OddsCell>)>,
}

/// An odds sheet: a few tables and the notes that say how to read them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Odds {
    /// The rule system.
    pub system: String,
    /// The tool's version.
    pub version: String,
    /// The sheet's title.
    pub title: String,
    /// The tables.
    pub sections: Vec<OddsSection>,
    /// Notes (rule ids, what a dash means).
    pub notes: Vec<String>,
}

/// A cell from an exact fraction.
pub fn cell(f: Frac) -> OddsCell {
    OddsCell {
        fraction: Some(f.to_string()),
        p: f.value(),
        text: format!("{} ({:.1}%)", f, 100.0 * f.value()),
    }
}

/// An exact probability (a multiple of 1/6^k) as a reduced fraction.
pub fn to_frac(p: f64, den: u64) -> Frac {
    Frac::new((p * den as f64).round() as u64, den).expect("den > 0")
}

/// RF-2, RF-3, RF-6: the chance a Rank & File unit passes a test, by stands lost (rows) and
/// class with and without one re-roll (columns), one table per leader bonus 0, +1, +2.
/// With `stands` given, rows at 50% losses or more show the automatic failure of RF-3.
pub fn rank_and_file(stands: Option<u8>, max_lost: u8) -> Odds {
    let mut sections = Vec::new();
    for leader in 0..=2i8 {
        let mut columns = Vec::new();
        for c in rf::Class::ALL {
            columns.push(c.name().to_string());
            columns.push(format!("{} + re-roll", c.name()));
        }
        let mut rows = Vec::new();
        for lost in 0..=max_lost {
            let mut cells = Vec::new();
            for class in rf::Class::ALL {
                for reroll in [false, true] {
                    let unit = rf::Unit {
                        class,
                        kind: rf::Kind::Formed,
                        stands: stands.unwrap_or(u8::MAX),
                        elite: reroll,
                        leader,
                        in_buildings: false,
                        buildings_bonus: 0,
                        modifier: 0,
                        hit_points: 1,
                    };
                    let need = unit.need(lost);
                    if need == rf::Need::AutoFail {
                        cells.push(OddsCell {
                            fraction: None,
                            p: 0.0,
                            text: "— (50%)".into(),
                        });
                        continue;
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
                    cells.push(cell(to_frac(p, 36)));
                }
            }
            rows.push((lost.to_string(), cells));
        }
        sections.push(OddsSection {
            title: format!("Leader bonus {leader:+}"),
            row_header: "stands lost".into(),
            columns,
            rows,
        });
    }
    let mut notes = vec![
        "RF-2: roll a D6, −1 per stand lost, + leader bonus; pass on the class's base number or more (veteran 3, regular 4, green 5); a natural 1 always fails, a natural 6 always passes.".to_string(),
        "RF-6: \"+ re-roll\" is one re-roll of a failed test (an Elite unit, or a commander's re-roll); never more than one per test.".to_string(),
    ];
    match stands {
        Some(s) => notes.push(format!(
            "RF-3: a unit of {s} stands with half or more lost fails every test (shown —)."
        )),
        None => notes.push(
            "RF-3 is not applied here: a unit with half or more of its starting stands lost fails every test automatically (give --stands to mark those rows).".to_string(),
        ),
    }
    Odds {
        system: "rank-and-file".into(),
        version: crate::VERSION.into(),
        title: "Rank & File: chance to pass a morale, rally or waiver test".into(),
        sections,
        notes,
    }
}

/// EF-2 and EF-5: the chance an effectiveness-rules unit passes its test, by modifiers (rows)
/// and class with and without `natural-one-fails` (columns); and the chance a retreating unit
/// has returned to action by each move, with and without a general.
pub fn effectiveness() -> Odds {
    use crate::rules::effectiveness as ef;
    let mut columns = Vec::new();
    for c in ef::Class::ALL {
        columns.push(c.name().to_string());
        columns.push(format!("{} (natural 1 fails)", c.name()));
    }
    let mods = [
        ("none", false, false),
        ("+1 general", true, false),
        ("+1 supported", false, true),
        ("+2 general and supported", true, true),
    ];
    let rows = mods
        .iter()
        .map(|&(label, general, supported)| {
            let cells = ef::Class::ALL
                .into_iter()
                .flat_map(|class| {
                    [false, true].map(|natural_one_fails| {
                        let unit = ef::Unit {
                            class,
                            general,
                            supported,
                            natural_one_fails,
                            return_on: 5,
                        };
                        let mut p = 0.0;
                        enumerate(
                            |o| unit.test(o),
                            |pass, q| {
                                if pass {
                                    p += q
                                }
                            },
                        );
                        cell(to_frac(p, 6))
                    })
                })
                .collect();
            (label.to_string(), cells)
        })
        .collect();
    let test = OddsSection {
        title: "Chance to pass the test (EF-2)".into(),
        row_header: "modifiers".into(),
        columns,
        rows,
    };
    let mut rows = Vec::new();
    for k in 1..=8u32 {
        let cells = [false, true]
            .map(|general| {
                // Misses needed on every move so far: a return on 5+ (4+ with a general).
                let miss = if general { 3u64 } else { 4 };
                let den = 6u64.pow(k);
                cell(Frac::new(den - miss.pow(k), den).expect("den > 0"))
            })
            .to_vec();
        rows.push((k.to_string(), cells));
    }
    let back = OddsSection {
        title: "Chance a retreating unit is back in action by its k-th move (EF-5)".into(),
        row_header: "move".into(),
        columns: vec!["no general (5+)".into(), "general (4+)".into()],
        rows,
    };
    Odds {
        system: "effectiveness".into(),
        version: crate::VERSION.into(),
        title: "25% effectiveness rules: test and return-to-action chances".into(),
        sections: vec![test, back],
        notes: vec![
            "EF-2: roll a D6, +1 with a general, +1 when supported; pass on elite 3, regular 4, poor 5. The source has no automatic failure: an Elite unit with +2 never fails; option natural-one-fails adds one.".into(),
            "EF-5 (option retreat-on-fire): a retreating unit rolls at the start of each move, returning to normal action on 5+ (+1 with a general); Elite units roll like any other.".into(),
        ],
    }
}

/// LW-4 and LW-2: the opposed-roll table (win, draw, lose by modifier difference −3 to +3) and
/// the volley table (hits from 1 to 6 dice at 4+, with cover −1 and flanking +1).
pub fn linear_warfare() -> Odds {
    use crate::dice::Weights;
    use crate::rules::linear_warfare as lw;
    let rows = (-3..=3)
        .map(|d: i32| {
            let mut p = [0.0f64; 3];
            enumerate(
                |o| lw::opposed(d, o),
                |res, q| {
                    p[match res {
                        std::cmp::Ordering::Greater => 0,
                        std::cmp::Ordering::Equal => 1,
                        std::cmp::Ordering::Less => 2,
                    }] += q
                },
            );
            (
                format!("{d:+}"),
                p.iter().map(|&x| cell(to_frac(x, 36))).collect(),
            )
        })
        .collect();
    let mut sections = vec![OddsSection {
        title:
            "Opposed melee round: the side with the modifier difference wins, draws, loses (LW-4)"
                .into(),
        row_header: "difference".into(),
        columns: vec!["win".into(), "draw".into(), "lose".into()],
        rows,
    }];
    for (label, cover, flanking) in [
        ("modifier −1 (cover, 5+)", true, false),
        ("modifier 0 (4+)", false, false),
        ("modifier +1 (flanking, 3+)", false, true),
    ] {
        let to_hit = lw::fire_to_hit(cover, flanking);
        let mut columns: Vec<String> = (0..=6).map(|k| format!("{k} hits")).collect();
        columns.push("mean".into());
        let rows = (1..=6u32)
            .map(|dice| {
                let t = Weights::hits(dice, to_hit);
                let mut cells: Vec<OddsCell> = (0..=6usize)
                    .map(|k| {
                        if k < t.len() {
                            cell(Frac::new(t.weight(k), t.total()).expect("total > 0"))
                        } else {
                            OddsCell {
                                fraction: None,
                                p: 0.0,
                                text: "—".into(),
                            }
                        }
                    })
                    .collect();
                let hitting = u64::from(7 - to_hit);
                let mean = Frac::new(u64::from(dice) * hitting, 6).expect("den > 0");
                cells.push(OddsCell {
                    fraction: Some(mean.to_string()),
                    p: mean.value(),
                    text: format!("{mean} ({:.2})", mean.value()),
                });
                (dice.to_string(), cells)
            })
            .collect();
        sections.push(OddsSection {
            title: format!("Volley hits by dice, {label} (LW-2)"),
            row_header: "dice".into(),
            columns,
            rows,
        });
    }
    Odds {
        system: "linear-warfare".into(),
        version: crate::VERSION.into(),
        title: "The Age of Linear Warfare: melee rounds and volleys".into(),
        sections,
        notes: vec![
            "LW-4: each side rolls a D6 and adds +1 for each of Guards, defending a linear obstacle, charging into melee, two or more pips more than the opponent, following up; the higher total wins, equal totals are a draw (both pushed back).".into(),
            "LW-2: a die per stand (artillery 5/3/2/1 by range band); each die hits on 4+, −1 for cover, +1 for flanking fire; each hit removes a pip.".into(),
        ],
    }
}

impl Odds {
    /// Render in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Json => {
                let mut s = serde_json::to_string_pretty(self).expect("odds serialise");
                s.push('\n');
                s
            }
            Format::Csv => {
                let mut w = csv::Writer::from_writer(Vec::new());
                w.write_record(["table", "row", "column", "fraction", "p", "percent"])
                    .expect("in-memory CSV");
                for s in &self.sections {
                    for (label, cells) in &s.rows {
                        for (col, c) in s.columns.iter().zip(cells) {
                            w.write_record([
                                s.title.clone(),
                                label.clone(),
                                col.clone(),
                                c.fraction.clone().unwrap_or_default(),
                                c.p.to_string(),
                                format!("{:.1}", 100.0 * c.p),
                            ])
                            .expect("in-memory CSV");
                        }
                    }
                }
                String::from_utf8(w.into_inner().expect("in-memory CSV")).expect("UTF-8")
            }
            Format::Markdown => {
                let mut out = format!("## {}\n\n", self.title);
                for s in &self.sections {
                    out += &format!("### {}\n\n| {} |", s.title, s.row_header);
                    for c in &s.columns {
                        out += &format!(" {c} |");
                    }
                    out += "\n|---:|";
                    out += &"---:|".repeat(s.columns.len());
                    out += "\n";
                    for (label, cells) in &s.rows {
                        out += &format!("| {label} |");
                        for c in cells {
                            out += &format!(" {} |", c.text);
                        }
                        out += "\n";
                    }
                    out += "\n";
                }
                for n in &self.notes {
                    out += &format!("- {n}\n");
                }
                out
            }
            Format::Text => {
                let mut out = format!("{}\n", self.title);
                for s in &self.sections {
                    out += &format!("\n{}\n", s.title);
                    let mut widths: Vec<usize> = std::iter::once(s.row_header.chars().count())
                        .chain(s.columns.iter().map(|c| c.chars().count()))
                        .collect();
                    for (label, cells) in &s.rows {
                        widths[0] = widths[0].max(label.chars().count());
                        for (i, c) in cells.iter().enumerate() {
                            widths[i + 1] = widths[i + 1].max(c.text.chars().count());
                        }
                    }
                    let line = |first: &str, rest: Vec<&str>| {
                        let mut l = format!("{first:>w$}", w = widths[0]);
                        for (i, r) in rest.iter().enumerate() {
                            l += &format!("  {r:>w$}", w = widths[i + 1]);
                        }
                        l + "\n"
                    };
                    out += &line(
                        &s.row_header,
                        s.columns.iter().map(String::as_str).collect(),
                    );
                    for (label, cells) in &s.rows {
                        out += &line(label, cells.iter().map(|c| c.text.as_str()).collect());
                    }
                }
                out += "\n";
                for n in &self.notes {
                    out += &format!("{n}\n");
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_warfare_table_values() {
        let o = linear_warfare();
        let round = &o.sections[0];
        // Even: 15/36 win (5/12), 6/36 draw (1/6); +1: 21/36 (7/12) win, 5/36 draw.
        assert_eq!(round.rows[3].1[0].fraction.as_deref(), Some("5/12"));
        assert_eq!(round.rows[3].1[1].fraction.as_deref(), Some("1/6"));
        assert_eq!(round.rows[4].1[0].fraction.as_deref(), Some("7/12"));
        assert_eq!(round.rows[4].1[1].fraction.as_deref(), Some("5/36"));
        // 6 dice at 4+: no hits 1/64, mean 3.
        let volley = &o.sections[2];
        assert_eq!(volley.rows[5].1[0].fraction.as_deref(), Some("1/64"));
        assert_eq!(volley.rows[5].1[7].fraction.as_deref(), Some("3"));
    }

    #[test]
    fn effectiveness_table_values() {
        let o = effectiveness();
        let test = &o.sections[0];
        // Elite +2 never fails; with natural-one-fails 5/6.
        assert_eq!(test.rows[3].1[0].fraction.as_deref(), Some("1"));
        assert_eq!(test.rows[3].1[1].fraction.as_deref(), Some("5/6"));
        // Poor, no modifiers: 5+ = 1/3.
        assert_eq!(test.rows[0].1[4].fraction.as_deref(), Some("1/3"));
        // Back in action by move 1, 2, 3: 1/3, 5/9, 19/27.
        let back = &o.sections[1];
        let by: Vec<_> = back.rows[..3]
            .iter()
            .map(|r| r.1[0].fraction.clone().unwrap())
            .collect();
        assert_eq!(by, ["1/3", "5/9", "19/27"]);
        assert_eq!(back.rows[0].1[1].fraction.as_deref(), Some("1/2"));
    }

    #[test]
    fn rank_and_file_table_values() {
        let o = rank_and_file(Some(7), 4);
        // Leader 0, veteran, 2 lost: 5+ = 1/3; with re-roll 5/9.
        let row2 = &o.sections[0].rows[2].1;
        assert_eq!(row2[0].fraction.as_deref(), Some("1/3"));
        assert_eq!(row2[1].fraction.as_deref(), Some("5/9"));
        // Leader +1, veteran, 3 lost: 5+ = 1/3 (RF-2 worked example).
        assert_eq!(o.sections[1].rows[3].1[0].fraction.as_deref(), Some("1/3"));
        // 4 of 7 lost: automatic failure.
        assert_eq!(o.sections[0].rows[4].1[0].fraction, None);
        // Green, 0 lost, no leader: 5+ = 1/3; re-roll 5/9. Regular +2 leader, 0 lost: 2+ = 5/6.
        assert_eq!(o.sections[0].rows[0].1[4].fraction.as_deref(), Some("1/3"));
        assert_eq!(o.sections[2].rows[0].1[2].fraction.as_deref(), Some("5/6"));
        assert_eq!(
            o.sections[2].rows[0].1[3].fraction.as_deref(),
            Some("35/36")
        );
        assert_eq!(o.system, "rank-and-file");
        for f in [Format::Text, Format::Csv, Format::Markdown, Format::Json] {
            assert!(o.render(f).contains("5/9"));
        }
    }
}
