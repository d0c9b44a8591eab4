//! The effectiveness rules' odds sheet (`morale-lab odds effectiveness`).

use crate::exact::enumerate;
use crate::frac::Frac;
use crate::odds::{Odds, OddsSection, cell, to_frac};

/// EF-2 and EF-5: the chance an effectiveness-rules unit passes its test, by modifiers (rows)
/// and class with and without `natural-one-fails` (columns); and the chance a retreating unit
/// has returned to action by each move, with and without a general. The numbers are the rule
/// parameters' (`numbers` and the return roll `return_on`; the source's: the defaults and 5).
pub fn effectiveness(numbers: crate::system::effectiveness::rules::Numbers, return_on: u8) -> Odds {
    use crate::odds::signed;
    use crate::system::effectiveness::rules as ef;
    let n = &numbers;
    let (g, sup) = (i32::from(n.general_bonus), i32::from(n.support_bonus));
    let mut columns = Vec::new();
    for c in ef::Class::ALL {
        // A class by its name in the rules, capitalised as they write it ("Elite").
        let class = crate::labels::capitalised(c.name());
        columns.push(format!("{class} (natural 1 fails)"));
        columns.insert(columns.len() - 1, class);
    }
    let mods = [
        ("none".to_string(), false, false),
        (format!("{} general", signed(g)), true, false),
        (format!("{} supported", signed(sup)), false, true),
        (
            format!("{} general and supported", signed(g + sup)),
            true,
            true,
        ),
    ];
    let rows = mods
        .iter()
        .map(|(label, general, supported)| {
            let (general, supported) = (*general, *supported);
            let cells = ef::Class::ALL
                .into_iter()
                .flat_map(|class| {
                    [false, true].map(|natural_one_fails| {
                        let unit = ef::Unit {
                            class,
                            general,
                            supported,
                            natural_one_fails,
                            return_on,
                            troop: crate::system::effectiveness::rules::Troop::Infantry,
                            return_roll: true,
                            retreat_turns: 1,
                            numbers,
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
        title: "Chance to pass the test (after a quarter lost to fire, or a lost melee)".into(),
        row_header: "modifiers".into(),
        columns,
        rows,
        foot: Vec::new(),
    };
    // The natural roll a return needs, without and with a general (7: none returns).
    let need = |general: bool| {
        let bonus = if general {
            i32::from(n.return_general_bonus)
        } else {
            0
        };
        (i32::from(return_on) - bonus).clamp(1, 7) as u64
    };
    let needs = [need(false), need(true)];
    let mut rows = Vec::new();
    for k in 1..=8u32 {
        let cells = needs
            .map(|need| {
                // Misses on every move so far: each move misses on a roll below `need`.
                let miss = need - 1;
                let den = 6u64.pow(k);
                cell(Frac::new(den - miss.pow(k), den).expect("den > 0"))
            })
            .to_vec();
        rows.push((k.to_string(), cells));
    }
    let roll = |need: u64| match need {
        1 => "always".to_string(),
        7 => "never".to_string(),
        n => format!("{n}+"),
    };
    let back = OddsSection {
        title:
            "Chance a retreating unit is back in action by its k-th move (EF-5, the optional return roll)"
                .into(),
        row_header: "move".into(),
        columns: vec![
            format!("no general ({})", roll(needs[0])),
            format!("general ({})", roll(needs[1])),
        ],
        rows,
        foot: Vec::new(),
    };
    Odds::new(
        "effectiveness",
        "25% effectiveness rules: test and return-to-action chances",
        vec![test, back],
        vec![
            format!(
                "EF-2: roll a D6, {} with a general, {} when supported; pass on elite {}, regular {}, poor {}. The source has no automatic failure: an Elite unit with +2 never fails; the optional rule Natural One Fails adds one.",
                signed(g),
                signed(sup),
                n.scores[0],
                n.scores[1],
                n.scores[2]
            ),
            format!(
                "EF-5 (the optional return roll, the amendment's second addition): a retreating unit rolls at the start of each move, returning to normal action on {return_on}+ ({} with a general); Elite units roll like any other. Without the roll a retreating unit is back in action after its retreat (one turn, as the tool plays it), rolling nothing.",
                signed(n.return_general_bonus.into())
            ),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effectiveness_table_values() {
        let o = effectiveness(crate::system::effectiveness::rules::Numbers::default(), 5);
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
        assert_eq!(back.columns, ["no general (5+)", "general (4+)"]);
        // The rule parameters reach the sheet: a return on 4+ with a +2 general.
        let numbers = crate::system::effectiveness::rules::Numbers {
            return_general_bonus: 2,
            ..Default::default()
        };
        let o = effectiveness(numbers, 4);
        let back = &o.sections[1];
        assert_eq!(back.columns, ["no general (4+)", "general (2+)"]);
        assert_eq!(back.rows[0].1[0].fraction.as_deref(), Some("1/2"));
        assert_eq!(back.rows[0].1[1].fraction.as_deref(), Some("5/6"));
    }
}
