//! The effectiveness rules' odds sheet (`morale-lab odds effectiveness`).

use crate::exact::enumerate;
use crate::frac::Frac;
use crate::odds::{Odds, OddsSection, cell, to_frac};

/// EF-2 and EF-5: the chance an effectiveness-rules unit passes its test, by modifiers (rows)
/// and class with and without `natural-one-fails` (columns); and the chance a retreating unit
/// has returned to action by each move, with and without a general.
pub fn effectiveness() -> Odds {
    use crate::system::effectiveness::rules as ef;
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
                            troop: crate::system::effectiveness::rules::Troop::Infantry,
                            return_roll: true,
                            retreat_turns: 1,
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
        title:
            "Chance a retreating unit is back in action by its k-th move (EF-5, option return-roll)"
                .into(),
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
            "EF-5 (option return-roll, the amendment's second addition): a retreating unit rolls at the start of each move, returning to normal action on 5+ (+1 with a general); Elite units roll like any other. Without it a retreating unit is back after retreat_turns turns.".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
