use super::*;

/// A try skipped because the rules refuse it and one skipped because it was too large to
/// work out are told apart (both were "combinations the rules do not allow").
#[test]
fn skipped_tries_say_why() {
    assert_eq!(skipped_words(0, &[], 0, &[]), "");
    assert_eq!(
        skipped_words(2, &[], 0, &[]),
        " (2 combinations the rules do not allow were skipped)"
    );
    assert_eq!(
        skipped_words(1, &["Green base number: 1 instead of 2".into()], 1, &[]),
        " (1 combination the rules do not allow was skipped: Green base number: 1 instead of 2; 1 too large to work out within an experiment's bound was left out)"
    );
}

#[test]
fn a_meaning_that_says_its_label_again_is_not_said() {
    assert!(!says_more(
        "attacker's stands lost",
        "attacker's stands lost in the melee"
    ));
    assert!(!says_more(
        "turns to a decision (among fights decided)",
        "turns until decided, among fights decided"
    ));
    assert!(says_more(
        "turns its place stood empty",
        "turns (of all turns) the unit's place in the line stood empty"
    ));
    assert!(says_more(
        "recovered",
        "back in good order by the last turn"
    ));
}

#[test]
fn a_conditional_mean_keeps_its_condition() {
    assert_eq!(
        with_condition(
            "turns_to_recover",
            "rally phases until back in good order, among units that recovered",
            None
        ),
        "turns to recover (among units that recovered)"
    );
    assert_eq!(
        with_condition("stands_lost", "stands lost by the end", None),
        "stands lost"
    );
    assert_eq!(
        with_condition("weak_turns", "turns the place held less than…", Some("1/3")),
        "turns its place held under a third of full strength"
    );
    assert_eq!(
        with_condition("weak_turns", "turns the place held less than…", Some("1/2")),
        "turns its place held under half strength"
    );
}

#[test]
fn runs_pooled_are_checked_with_all_their_trials() {
    let z = crate::stats::z_for_confidence(0.95);
    let cell = |k: u64| {
        let (l, h) = crate::stats::wilson(k, 1000, z);
        Cell {
            count: Some(1000),
            p: k as f64 / 1000.0,
            ci_low: Some(l),
            ci_high: Some(h),
            exact: Some(0.5),
        }
    };
    // A chance: the Wilson interval of the counts added up.
    let c = pooled(&[cell(480), cell(530)], true, z);
    assert_eq!(c.count, Some(2000));
    assert!((c.p - 0.505).abs() < 1e-12);
    assert_eq!((c.ci_low, c.ci_high), {
        let (l, h) = crate::stats::wilson(1010, 2000, z);
        (Some(l), Some(h))
    });
    // An average: its standard error shrinks as one over the square root of the runs.
    let mean = |p: f64| Cell {
        count: Some(100),
        p,
        ci_low: Some(p - z * 0.2),
        ci_high: Some(p + z * 0.2),
        exact: Some(3.0),
    };
    let m = pooled(&[mean(3.1), mean(2.9), mean(3.0), mean(3.0)], false, z);
    assert!((m.p - 3.0).abs() < 1e-12);
    assert!(((m.ci_high.unwrap() - m.p) / z - 0.1).abs() < 1e-12);
    // Each run alone agrees; together they may not, and the cell says so with the figures.
    assert_eq!(
        pooled_check(&[cell(480), cell(530)], true, 0.95, z),
        "agrees"
    );
    let off = |k: u64| Cell {
        exact: Some(0.47),
        ..cell(k)
    };
    assert!(
        pooled_check(&[off(495), off(500), off(505)], true, 0.95, z).starts_with(
            "exact 47.00% outside its interval: 50.00% [48.21%, 51.79%] from its 3 runs together"
        )
    );
    // At the level of 100 checks taken together the interval widens to hold it.
    let z100 = crate::stats::z_for_confidence(1.0 - 0.05 / 100.0);
    assert!(z100 > 3.4 && z100 < 3.5, "{z100}");
    assert_eq!(
        pooled_check(&[off(495), off(500), off(505)], true, 0.95, z100),
        "agrees"
    );
}

#[test]
fn a_bar_in_a_cell_does_not_end_it() {
    let mut t = Tab::new(&[("variant", false), ("p", true)]);
    t.rows.push(vec!["A | B".into(), "0.5".into()]);
    assert_eq!(
        t.markdown(),
        "| variant | p |\n|---|---:|\n| A \\| B | 0.5 |\n"
    );
}

/// The rounding warning stays only where a printed change is not the difference of the
/// printed figures, in either layout of the answer's table.
#[test]
fn the_rounding_note_stays_only_where_rounding_shows() {
    let tab = |rows: &[&[&str]]| Tab {
        head: Vec::new(),
        rows: rows
            .iter()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .collect(),
        group: None,
    };
    let exact = tab(&[
        &["base", "85.37%", "3.05"],
        &["new", "71.43% (\u{2212}13.94 points)", "3.83 (+0.78 turns)"],
    ]);
    assert!(!rounding_shows(&exact, false));
    let moved = tab(&[
        &["base", "85.37%", "3.05"],
        &["new", "71.43% (\u{2212}13.95 points)", "3.83 (+0.78 turns)"],
    ]);
    assert!(rounding_shows(&moved, false));
    assert!(rounding_shows(&exact, true));
    let column = tab(&[
        &["Regular", "any", "90.15%", "\u{2014}"],
        &["Green", "4", "74.39%", "\u{2212}15.76 points"],
        &["Green", "3", "90.15%", "exactly the same"],
    ]);
    assert!(!rounding_shows(&column, false));
    let off = tab(&[
        &["Regular", "any", "90.15%", "\u{2014}"],
        &["Green", "4", "74.39%", "\u{2212}15.77 points"],
    ]);
    assert!(rounding_shows(&off, false));
}
