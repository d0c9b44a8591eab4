use super::*;

#[test]
fn a_metric_counted_in_turns_or_losses_says_its_unit() {
    assert_eq!(metric_unit("empty_turns"), Some("turns"));
    assert_eq!(metric_unit("strength_turns"), Some("turns"));
    assert_eq!(metric_unit("b_weak_turns"), Some("turns"));
    assert_eq!(metric_unit("turns_to_recover"), Some("turns"));
    assert_eq!(metric_unit("turn_eliminated"), Some("turns"));
    assert_eq!(metric_unit("attacker_stands_lost"), Some("stands"));
    assert_eq!(metric_unit("quarters_lost"), Some("quarters"));
    // A product of places and turns, a count of re-rolls and a chance have none.
    assert_eq!(metric_unit("a_hole_turns"), None);
    assert_eq!(metric_unit("rerolls_used"), None);
    assert_eq!(metric_unit("p_stampede"), None);
}

#[test]
fn a_unit_specs_field_is_said_as_the_units() {
    assert_eq!(param("defender.stands"), "Defending unit's stands");
    assert_eq!(param_in_prose("defender.stands"), "defending unit's stands");
    assert_eq!(
        param("attacker.lost"),
        "Attacking unit's stands already lost"
    );
    assert_eq!(param("attacker.leader"), "Attacking unit's leader's bonus");
    // A weakly-held measure says the share its run counted.
    assert_eq!(
        at_weak_share("turns its place held under half strength", Some("1/3")),
        "turns its place held under a third of full strength"
    );
    assert_eq!(
        at_weak_share("turns its place held under half strength", Some("0.4")),
        "turns its place held under 40% of full strength"
    );
    assert_eq!(
        at_weak_share("turns its place held under half strength", Some("1/2")),
        "turns its place held under half strength"
    );
}

#[test]
fn ordinals_read_as_written() {
    let got: Vec<String> = [1, 2, 3, 4, 8, 11, 12, 13, 21, 22, 112]
        .into_iter()
        .map(ordinal)
        .collect();
    assert_eq!(
        got,
        [
            "1st", "2nd", "3rd", "4th", "8th", "11th", "12th", "13th", "21st", "22nd", "112th"
        ]
    );
}

#[test]
fn outcomes_and_metrics_read_in_words() {
    assert_eq!(outcome("eliminated").noun, "the chance of being eliminated");
    assert_eq!(outcome("eliminated").better, Better::Lower);
    assert_eq!(outcome("side_a_wins").head, "side A wins");
    assert_eq!(outcome("hits_1").head, "1 hit");
    assert_eq!(outcome("hits_4").noun, "the chance of 4 hits");
    assert_eq!(
        metric("empty_turns").noun,
        "the average number of turns the unit's place in the line stood empty"
    );
    assert_eq!(
        metric("a_ends_in_line").head,
        "side A ends still in the line"
    );
    assert_eq!(metric("turns_in_square").head, "turns in square");
    assert_eq!(outcome("a_thing").head, "side A's thing");
    assert!(!has_label("turns_in_square"));
}

/// No head or noun carries a key's underscore.
#[test]
fn a_value_with_a_meaning_of_its_own_and_an_outcome_say_it() {
    assert_eq!(
        value_note("always_passes", "7"),
        Some("no roll always passes")
    );
    assert_eq!(value_note("always_passes", "6"), None);
    assert_eq!(
        value_note("always_fails", "0"),
        Some("no roll always fails")
    );
    // A system's own reading first, else the scenario's for any system; nothing guessed.
    assert!(
        outcome_meaning("rank-and-file", "under-fire", "removed")
            .is_some_and(|m| m.contains("50% rule"))
    );
    assert_eq!(
        outcome_meaning("linear-warfare", "under-fire", "removed"),
        Some("gone by the last turn")
    );
    assert_eq!(
        outcome_meaning("effectiveness", "melee", "attacker_wins"),
        Some("the melee ends with the defender beaten")
    );
    assert_eq!(outcome_meaning("rank-and-file", "rally", "no_such"), None);
    assert_eq!(outcome_meaning("effectiveness", "rally", "recovered"), None);
}

#[test]
fn no_label_is_a_key() {
    for (k, head, after, _) in OUTCOMES {
        assert!(!head.contains('_') && !after.contains('_'), "{k}");
    }
    for (k, head, noun, _) in METRICS {
        assert!(!head.contains('_') && !noun.contains('_'), "{k}");
    }
}

#[test]
fn rules_cited_keys_each_id_once_in_number_order() {
    assert_eq!(
        rules_cited("a test (EF-2); retreating (EF-5, EF-3) and again (EF-2), RF-10 and RF-2"),
        Some("EF-2 the test, EF-3 melee, EF-5 the retreat amendment, RF-2 the test, RF-10 waiver tests".into())
    );
    assert_eq!(rules_cited("no ids here, nor XEF-2 or EF-99"), None);
}
