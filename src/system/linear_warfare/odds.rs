//! The Age of Linear Warfare's odds sheet (`morale-lab odds linear-warfare`).

use crate::exact::enumerate;
use crate::frac::Frac;
use crate::odds::{Odds, OddsCell, OddsSection, cell, to_frac};

/// LW-4 and LW-2: the opposed-roll table (win, draw, lose by modifier difference −3 to +3) and
/// the volley table (hits from 1 to 6 dice at 4+, with cover −1 and flanking +1).
pub fn linear_warfare() -> Odds {
    use crate::dice::Weights;
    use crate::system::linear_warfare::rules as lw;
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
}
