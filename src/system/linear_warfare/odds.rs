//! The Age of Linear Warfare's odds sheet (`morale-lab odds linear-warfare`).

use crate::exact::enumerate;
use crate::frac::Frac;
use crate::odds::{Odds, OddsCell, OddsSection, cell, to_frac};
use crate::system::linear_warfare::rules as lw;

/// LW-4 and LW-2: the opposed-roll table (win, draw, lose by modifier difference −3 to +3) and
/// the volley table (hits from 1 to 6 dice at 4+, with cover −1 and flanking +1). The numbers
/// are the rule parameters' ([`lw::Numbers::default`] for the source's).
pub fn linear_warfare(numbers: lw::Numbers) -> Odds {
    use crate::dice::Weights;
    use crate::odds::signed;
    let n = &numbers;
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
                crate::odds::signed(d),
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
        foot: Vec::new(),
    }];
    for (what, cover, flanking) in [
        ("cover, ", true, false),
        ("", false, false),
        ("flanking, ", false, true),
    ] {
        let to_hit = n.fire_to_hit(cover, flanking);
        let modifier = i32::from(n.to_hit) - i32::from(to_hit);
        let label = format!(
            "modifier {} ({what}{})",
            signed(modifier),
            if to_hit > 6 {
                "no die hits".to_string()
            } else {
                format!("{to_hit}+")
            }
        );
        let mut columns: Vec<String> = (0..=6)
            .map(|k| format!("{k} hit{}", if k == 1 { "" } else { "s" }))
            .collect();
        columns.push("mean".into());
        let rows = (1..=6u32)
            .map(|dice| {
                let t = Weights::hits(dice, to_hit);
                let mut cells: Vec<OddsCell> = (0..=6usize)
                    .map(|k| {
                        if k < t.len() {
                            cell(Frac::new(t.weight(k), t.total()).expect("total > 0"))
                        } else {
                            OddsCell::note("—")
                        }
                    })
                    .collect();
                let hitting = u64::from(7u8.saturating_sub(to_hit));
                let mean = Frac::new(u64::from(dice) * hitting, 6).expect("den > 0");
                cells.push(crate::odds::mean_cell(mean));
                (dice.to_string(), cells)
            })
            .collect();
        sections.push(OddsSection {
            title: format!("Volley hits by dice, {label}"),
            row_header: "dice".into(),
            columns,
            rows,
            foot: Vec::new(),
        });
    }
    Odds::new(
        "linear-warfare",
        "The Age of Linear Warfare: melee rounds and volleys",
        sections,
        vec![
            format!(
                "LW-4: each side rolls a D6 and adds {} for Guards, {} for defending a linear obstacle, {} for charging into melee, {} for {} or more pips more than the opponent, {} for following up; the higher total wins, equal totals are a draw (both pushed back).",
                signed(n.guards_bonus.into()),
                signed(n.obstacle_bonus.into()),
                signed(n.charge_bonus.into()),
                signed(n.pip_gap_bonus.into()),
                n.pip_gap,
                signed(n.follow_up_bonus.into())
            ),
            format!(
                "LW-2: a die per stand (artillery {} by range band); each die hits on {}+, {} for cover, {} for flanking fire; each hit removes a pip.",
                n.artillery_dice.map(|d| d.to_string()).join("/"),
                n.to_hit,
                signed(-i32::from(n.cover_penalty)),
                signed(n.flank_bonus.into())
            ),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_warfare_table_values() {
        let o = linear_warfare(lw::Numbers::default());
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
