//! Plain words for the outcomes and metrics a reader meets in a report, a chart or a sheet:
//! a short head for a table's column or a chart's axis, the noun a sentence uses, and which
//! way is better where one is. Declared once, here, beside nothing else: the systems name
//! their outcomes and metrics by key (`eliminated`, `empty_turns`), and the keys stay what a
//! CSV or JSON column is called and what a command line or an experiment file says; what a
//! person reads comes from here. A key with no entry (a mechanic file's own) reads as its
//! words (`turns_in_square` → "turns in square").
//!
//! Parameters' labels are here too ([`param`]); `params` re-exports them.

/// Which way a change is better for the side the report follows (the unit under test, side A
/// of a fight), where one is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    /// More is better (recovered, still in the line).
    Higher,
    /// Less is better (eliminated, turns its place stood empty).
    Lower,
    /// Neither: it depends on whose side the reader is on (attacker wins).
    Neither,
}

/// How an outcome or a metric reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// A table's column head or a chart's axis: "eliminated", "turns its place stood empty".
    pub head: String,
    /// What a sentence calls it: "the chance of being eliminated", "the average number of
    /// turns its place stood empty".
    pub noun: String,
    /// Which way is better.
    pub better: Better,
}

use Better::{Higher, Lower, Neither};

/// Outcomes: key, head, what follows "the chance", better.
const OUTCOMES: &[(&str, &str, &str, Better)] = &[
    ("pass", "passes", "of passing", Higher),
    ("fail", "fails", "of failing", Lower),
    ("win", "wins the round", "of winning the round", Higher),
    ("draw", "draws the round", "of a drawn round", Neither),
    ("lose", "loses the round", "of losing the round", Lower),
    ("recovered", "recovered", "of recovering", Higher),
    ("removed", "removed", "of being removed", Lower),
    ("eliminated", "eliminated", "of being eliminated", Lower),
    ("good", "in good order", "of ending in good order", Higher),
    ("unsteady", "unsteady", "of ending unsteady", Lower),
    ("routing", "routing", "of ending routing", Lower),
    (
        "in_line",
        "still in the line",
        "of still being in the line",
        Higher,
    ),
    ("retreating", "retreating", "of ending in retreat", Neither),
    (
        "falling_back",
        "falling back",
        "of ending falling back",
        Neither,
    ),
    (
        "attacker_wins",
        "attacker wins",
        "that the attacker wins",
        Neither,
    ),
    (
        "defender_wins",
        "defender wins",
        "that the defender wins",
        Neither,
    ),
    (
        "mutual_destruction",
        "both destroyed",
        "that both are destroyed",
        Neither,
    ),
    ("bounce", "drawn push-back", "of a drawn push-back", Neither),
    ("halted", "charge halted", "that the charge halts", Neither),
    ("side_a_holds", "side A holds", "that side A holds", Higher),
    ("side_b_holds", "side B holds", "that side B holds", Lower),
    (
        "both_gone",
        "both units gone",
        "that both units are gone",
        Neither,
    ),
    (
        "undecided_at_cap",
        "undecided at the last turn",
        "that nothing is decided by the last turn",
        Neither,
    ),
    ("side_a_wins", "side A wins", "that side A wins", Higher),
    ("side_b_wins", "side B wins", "that side B wins", Lower),
    (
        "both_broken",
        "both sides break",
        "that both sides break",
        Neither,
    ),
    (
        "draw_at_cap",
        "undecided at the last turn",
        "that nothing is decided by the last turn",
        Neither,
    ),
    (
        "target_broke",
        "target broke",
        "that the target breaks",
        Neither,
    ),
];

/// Metrics: key, head, noun, better.
const METRICS: &[(&str, &str, &str, Better)] = &[
    (
        "removed_destroyed",
        "removed, every stand lost",
        "the chance of being removed, every stand lost",
        Neither,
    ),
    (
        "removed_dispersed",
        "removed, dispersed",
        "the chance of being removed, dispersed",
        Neither,
    ),
    (
        "removed_failed_while_routing",
        "removed, failing a test while routing",
        "the chance of being removed, failing a test while routing",
        Neither,
    ),
    (
        "removed_guns_abandoned",
        "removed, guns abandoned",
        "the chance of being removed, guns abandoned",
        Neither,
    ),
    (
        "removed_routed_with_guns",
        "removed, routed with its guns",
        "the chance of being removed, routed with its guns",
        Neither,
    ),
    (
        "removed_caught",
        "removed, caught while routing",
        "the chance of being removed, caught while routing",
        Neither,
    ),
    (
        "removed_wagons_fled",
        "removed, wagons fled",
        "the chance of being removed, wagons fled",
        Neither,
    ),
    (
        "removed_wagons_captured",
        "removed, wagons captured",
        "the chance of being removed, wagons captured",
        Neither,
    ),
    (
        "loser_unsteady",
        "loser unsteady",
        "the chance of the melee's loser ending unsteady",
        Neither,
    ),
    (
        "loser_routing",
        "loser routing",
        "the chance of the melee's loser ending routing",
        Neither,
    ),
    (
        "loser_removed",
        "loser removed",
        "the chance of the melee's loser ending removed",
        Neither,
    ),
    (
        "loser_removed_by_fifty_percent",
        "loser removed by the 50% rule",
        "the chance of the melee's loser being removed by the 50% rule",
        Neither,
    ),
    (
        "loser_removed_destroyed",
        "loser removed, every stand lost",
        "the chance of the melee's loser being removed, every stand lost",
        Neither,
    ),
    (
        "loser_removed_failed_while_routing",
        "loser removed, failing a test while routing",
        "the chance of the melee's loser being removed, failing a test while routing",
        Neither,
    ),
    (
        "empty_turns",
        "turns the unit's place stood empty",
        "the average number of turns the unit's place in the line stood empty",
        Lower,
    ),
    (
        "a_hole_turns",
        "side A's empty places × turns",
        "side A's empty places × turns (places empty in its line, summed over the turns)",
        Lower,
    ),
    (
        "b_hole_turns",
        "side B's empty places × turns",
        "side B's empty places × turns (places empty in its line, summed over the turns)",
        Higher,
    ),
    (
        "strength_turns",
        "strength held, in turns at full strength",
        "the strength the unit held in its place (in turns at full strength)",
        Higher,
    ),
    (
        "weak_turns",
        "turns its place held under half strength",
        "the average number of turns its place held less than half its full strength",
        Lower,
    ),
    (
        "a_strength_turns",
        "side A's strength held, in turns at full strength",
        "the strength side A's front line held (in turns at full strength)",
        Higher,
    ),
    (
        "b_strength_turns",
        "side B's strength held, in turns at full strength",
        "the strength side B's front line held (in turns at full strength)",
        Lower,
    ),
    (
        "a_weak_turns",
        "turns side A's front held under half strength",
        "the average number of turns side A's front held less than half its full strength",
        Lower,
    ),
    (
        "b_weak_turns",
        "turns side B's front held under half strength",
        "the average number of turns side B's front held less than half its full strength",
        Higher,
    ),
    (
        "a_units_lost",
        "side A's units lost",
        "the average number of side A's units lost",
        Lower,
    ),
    (
        "b_units_lost",
        "side B's units lost",
        "the average number of side B's units lost",
        Higher,
    ),
    (
        "a_strength_lost",
        "side A's losses",
        "side A's average losses (stands, quarters or pips)",
        Lower,
    ),
    (
        "b_strength_lost",
        "side B's losses",
        "side B's average losses (stands, quarters or pips)",
        Higher,
    ),
    (
        "a_double_move_pips",
        "side A's pips spent on double moves",
        "the average number of pips side A spends on double moves",
        Lower,
    ),
    (
        "turn_eliminated",
        "turn eliminated",
        "the average turn of elimination",
        Higher,
    ),
    (
        "turn_removed",
        "turn removed",
        "the average turn of removal",
        Higher,
    ),
    (
        "quarters_lost",
        "quarters lost",
        "the average number of quarters lost",
        Lower,
    ),
    (
        "stands_lost",
        "stands lost",
        "the average number of stands lost",
        Lower,
    ),
    (
        "pips_lost",
        "pips lost",
        "the average number of pips lost",
        Lower,
    ),
    (
        "turns_to_decision",
        "turns to a decision",
        "the average number of turns to a decision",
        Neither,
    ),
    (
        "turns_to_recover",
        "turns to recover",
        "the average number of turns to recover",
        Lower,
    ),
    (
        "turns_to_removal",
        "turns to removal",
        "the average number of turns to removal",
        Higher,
    ),
    (
        "rounds",
        "melee rounds",
        "the average number of melee rounds",
        Neither,
    ),
    (
        "attacker_stands_lost",
        "attacker's stands lost",
        "the attacker's average stands lost",
        Neither,
    ),
    (
        "defender_stands_lost",
        "defender's stands lost",
        "the defender's average stands lost",
        Neither,
    ),
    (
        "attacker_quarters_lost",
        "attacker's quarters lost",
        "the attacker's average quarters lost",
        Neither,
    ),
    (
        "defender_quarters_lost",
        "defender's quarters lost",
        "the defender's average quarters lost",
        Neither,
    ),
    (
        "attacker_pips_lost",
        "attacker's pips lost",
        "the attacker's average pips lost",
        Neither,
    ),
    (
        "defender_pips_lost",
        "defender's pips lost",
        "the defender's average pips lost",
        Neither,
    ),
    (
        "attacker_destroyed",
        "attacker destroyed",
        "the chance that the attacker is destroyed",
        Neither,
    ),
    (
        "defender_destroyed",
        "defender destroyed",
        "the chance that the defender is destroyed",
        Neither,
    ),
    (
        "rerolls_used",
        "re-rolls spent",
        "the average number of re-rolls spent",
        Neither,
    ),
    (
        "p_stampede",
        "elephant stampedes",
        "the chance that the elephant stampedes",
        Lower,
    ),
    (
        "must_charge_again",
        "winner must charge again",
        "the chance that the winner must charge again",
        Neither,
    ),
    (
        "waiver_failed",
        "target failed its waiver test",
        "the chance that the target fails its waiver test",
        Neither,
    ),
];

/// The words of a key: `turns_in_square` → "turns in square", `a_hole_turns` → "side A's hole
/// turns".
fn words(key: &str) -> String {
    for (prefix, side) in [("a_", "side A's "), ("b_", "side B's ")] {
        if let Some(rest) = key.strip_prefix(prefix) {
            return format!("{side}{}", words(rest));
        }
    }
    key.replace('_', " ")
}

/// An outcome's label (`hits_3` → "3 hits").
pub fn outcome(key: &str) -> Label {
    if let Some((_, head, after, better)) = OUTCOMES.iter().find(|o| o.0 == key) {
        return Label {
            head: (*head).into(),
            noun: format!("the chance {after}"),
            better: *better,
        };
    }
    if let Some(n) = key.strip_prefix("hits_") {
        let head = if n == "1" {
            "1 hit".to_string()
        } else {
            format!("{n} hits")
        };
        return Label {
            noun: format!("the chance of {head}"),
            head,
            better: Neither,
        };
    }
    let w = words(key);
    Label {
        noun: format!("the chance of {w}"),
        head: w,
        better: Neither,
    }
}

/// The unit a metric's value and differences are counted in, where it has one a reader would
/// say after a number ("+0.78 turns", "−0.31 turns"): turns for the turn counts and the
/// strength held in turns at full strength, and the losses in their own units. `None` for a
/// chance, a product such as "empty places × turns", and a count with no unit.
pub fn metric_unit(key: &str) -> Option<&'static str> {
    let key = key
        .strip_prefix("a_")
        .or_else(|| key.strip_prefix("b_"))
        .or_else(|| key.strip_prefix("attacker_"))
        .or_else(|| key.strip_prefix("defender_"))
        .unwrap_or(key);
    match key {
        "hole_turns" => None,
        k if k.ends_with("_turns") || k.starts_with("turns_to_") || k.starts_with("turn_") => {
            Some("turns")
        }
        "quarters_lost" => Some("quarters"),
        "stands_lost" => Some("stands"),
        "pips_lost" => Some("pips"),
        "units_lost" => Some("units"),
        "rounds" => Some("rounds"),
        _ => None,
    }
}

/// A metric's label; the ends of a fight (`a_ends_routing`) read as "side A ends routing".
pub fn metric(key: &str) -> Label {
    if let Some((_, head, noun, better)) = METRICS.iter().find(|m| m.0 == key) {
        return Label {
            head: (*head).into(),
            noun: (*noun).into(),
            better: *better,
        };
    }
    for (prefix, side) in [("a_ends_", "side A"), ("b_ends_", "side B")] {
        if let Some(state) = key.strip_prefix(prefix) {
            let end = outcome(state).head;
            return Label {
                noun: format!("the chance that {side} ends {end}"),
                head: format!("{side} ends {end}"),
                better: Neither,
            };
        }
    }
    let w = words(key);
    Label {
        noun: format!("the average {w}"),
        head: w,
        better: Neither,
    }
}

/// A rule system's name as a reader knows it: "Rank & File" for `rank-and-file`; a mechanic
/// file by its file name ("lw charger follows up" for `../mechanics/house/lw-charger-follows-up.rhai`).
pub fn system(name: &str) -> String {
    match name {
        "rank-and-file" => "Rank & File".into(),
        "effectiveness" => "the 25% effectiveness rules".into(),
        "linear-warfare" => "The Age of Linear Warfare".into(),
        other => {
            let file = other.rsplit(['/', '\\']).next().unwrap_or(other);
            let stem = file.strip_suffix(".rhai").unwrap_or(file);
            format!(
                "the mechanic file \u{201c}{}\u{201d}",
                stem.replace(['-', '_'], " ")
            )
        }
    }
}

/// `text` with its first letter in upper case, as a sentence begins.
pub fn capitalised(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// `text` with its first letter in lower case, as it continues a sentence ("Under Green" stays:
/// a word in capitals after the first letter, or a one-letter word, keeps its case).
pub fn lower_first(text: &str) -> String {
    let first = text.split(' ').next().unwrap_or("");
    if first.len() <= 1 || first.chars().skip(1).any(char::is_uppercase) {
        return text.to_string();
    }
    let mut c = text.chars();
    c.next()
        .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Settings given as `key=value` in a reader's words: "stands 8, morale class regular".
pub fn settings_in_words(settings: &[String]) -> String {
    settings
        .iter()
        // A measure asked for is no setting of the fight.
        .filter(|s| !s.split_once('=').is_some_and(|(k, _)| is_measurement(k)))
        .map(|s| match s.split_once('=') {
            Some((k, v)) => setting_in_words(k, &v.replace('_', " ")),
            None => s.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One setting as a phrase: a count before its noun ("8 turns", "3 enemy fire dice a turn"), a
/// class as troops ("Regular troops"), a roll to hit with its plus ("fire die hits on 5+"),
/// a starting state ("routing at the start"), else the label and the value.
pub fn setting_in_words(key: &str, v: &str) -> String {
    let whole = v.parse::<i64>().is_ok();
    // A switch says what it means ("an Elite unit"), not "Elite unit true".
    if let Some(clause) = matches!(v, "true" | "false")
        .then(|| state(key, v == "true"))
        .flatten()
    {
        return clause.to_string();
    }
    match key {
        "rerolls" if v == "0" => "no commander's re-rolls".into(),
        "rerolls" if v == "1" => "a commander's re-roll".into(),
        "rerolls" if whole => format!("{v} commander's re-rolls"),
        "turns" | "stands" if v == "1" => format!("1 {}", key.trim_end_matches('s')),
        "turns" | "stands" if whole => format!("{v} {key}"),
        "fire_dice" if whole => format!("{v} enemy fire dice a turn"),
        "return_fire_dice" if whole => format!("{v} dice of its own fire back"),
        "return_fire_to_hit" if whole => format!("its fire hitting on {v}+"),
        // A class by its name in the rules, capitalised as they write it ("Regular troops").
        "enemy_class" => format!("{} enemy troops", capitalised(v)),
        "p_blocked" if v == "0" => "no retreat blocked".into(),
        // "1 retreat in 6 blocked", as a player says a chance of 1/6.
        "p_blocked" => match in_every(v) {
            Some((a, b)) => format!(
                "{a} {} in {b} blocked (a blocked unit is eliminated)",
                if a == 1 { "retreat" } else { "retreats" }
            ),
            None => format!("a retreat blocked with chance {v} (a blocked unit is eliminated)"),
        },
        "fire_to_hit" if whole => format!("{} {v}+", param_in_prose(key)),
        "class" if !v.contains(' ') => format!("{} troops", capitalised(v)),
        "leader" if v == "0" => "no leader's bonus".into(),
        "supports" if v == "0" => "no supports behind the line".into(),
        "supports" if v == "1" => "1 supporting unit behind the line".into(),
        "supports" if whole => format!("{v} supporting units behind the line"),
        "kind" => format!("a {} unit", v.replace('_', " ")),
        // A unit spec in words: "attacking unit veteran infantry (6 stands, +1 to hit)".
        "attacker" | "defender" => format!("{} {}", param_in_prose(key), spec_in_words(v)),
        "leader" if whole => format!("a +{v} leader"),
        // "routing at the start", not "starting state routing".
        "state" => format!("{} at the start", v.replace('_', " ")),
        // "Green base number 3", in prose, a table's cell and a heading alike.
        k if k.starts_with("base_") && whole => {
            format!("{} base number {v}", capitalised(&k["base_".len()..]))
        }
        _ => format!("{} {v}", param_in_prose(key)),
    }
}

/// A chance written as a fraction of whole numbers ("1/6"), as a player says it: (1, 6) for
/// "1 in 6". `None` for any other form.
pub fn in_every(v: &str) -> Option<(u32, u32)> {
    let (a, b) = v.split_once('/')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// An ordinal in figures: 1st, 2nd, 3rd, 4th, 11th, 12th, 21st.
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A unit spec (`veteran infantry stands=6 hit=1`, `6 x regular`, `elite dice=5`) in a reader's
/// words: "veteran infantry (6 stands, +1 to hit)", "6 × regular", "elite (5 dice)".
pub fn spec_in_words(spec: &str) -> String {
    let signed = |n: &str| match n.parse::<i64>() {
        Ok(x) if x > 0 => format!("+{x}"),
        Ok(x) if x < 0 => format!("\u{2212}{}", -x),
        _ => n.to_string(),
    };
    let mut head: Vec<String> = Vec::new();
    let mut parts: Vec<String> = Vec::new();
    let mut tokens = spec.split_whitespace().peekable();
    while let Some(t) = tokens.next() {
        // "6 x regular": the count and its sign.
        if t.parse::<u32>().is_ok() && tokens.peek() == Some(&"x") {
            tokens.next();
            head.push(format!("{t} \u{d7}"));
            continue;
        }
        let Some((k, n)) = t.split_once('=') else {
            head.push(t.to_string());
            continue;
        };
        parts.push(match k {
            "stands" => format!("{n} stands"),
            "lost" => format!("{n} lost"),
            "dice" => format!("{n} dice"),
            "hit" => format!("{} to hit", signed(n)),
            "leader" => format!("a {} leader", signed(n)),
            "rerolls" if n == "1" => "1 re-roll".to_string(),
            "rerolls" => format!("{n} re-rolls"),
            "modifier" => format!("{} on its tests", signed(n)),
            "uncontrolled" => format!("uncontrolled on {n} or less"),
            "state" => n.to_string(),
            "pips" => format!("{n} pips"),
            _ => format!("{} {n}", k.replace('_', " ")),
        });
    }
    match (head.is_empty(), parts.is_empty()) {
        (_, true) => head.join(" "),
        (true, false) => parts.join(", "),
        (false, false) => format!("{} ({})", head.join(" "), parts.join(", ")),
    }
}

/// What a unit has already lost is counted in each system's own unit: stands under Rank & File,
/// quarters (steps) under the 25% rules. `None` for a system without one.
fn lost_unit(system: &str) -> Option<(&'static str, &'static str)> {
    match system {
        "rank-and-file" => Some(("stand", "stands")),
        "effectiveness" => Some(("quarter", "quarters")),
        _ => None,
    }
}

/// Settings as phrases under `systems`, in their order, a number of dice and the roll they hit on
/// said together where both are set: "3 enemy fire dice a turn hitting on 5+", "the unit firing
/// back with 4 dice hitting on 5+" (not two phrases, the second without its dice).
pub fn settings_in_words_under(systems: &[&str], pairs: &[(&str, String)]) -> Vec<String> {
    let whole = |k: &str| {
        pairs
            .iter()
            .find(|(k2, _)| *k2 == k)
            .filter(|(_, v)| v.parse::<u32>().is_ok())
            .map(|(_, v)| v.as_str())
    };
    let mut out = Vec::new();
    for (k, v) in pairs {
        let merged = match *k {
            "fire_dice" => whole("fire_to_hit")
                .filter(|_| whole(k).is_some())
                .map(|h| Some(format!("{v} enemy fire dice a turn hitting on {h}+"))),
            "fire_to_hit" => whole("fire_dice")
                .filter(|_| whole(k).is_some())
                .map(|_| None),
            "return_fire_dice" => whole("return_fire_to_hit")
                .filter(|_| whole(k).is_some())
                .map(|h| {
                    Some(format!(
                        "the unit firing back with {v} dice hitting on {h}+"
                    ))
                }),
            "return_fire_to_hit" => whole("return_fire_dice")
                .filter(|_| whole(k).is_some())
                .map(|_| None),
            _ => None,
        };
        match merged {
            Some(said) => out.extend(said),
            None => out.push(setting_in_words_under(systems, k, v)),
        }
    }
    out
}

/// One setting as a phrase under `systems` (the systems it is said of): as
/// [`setting_in_words`], but what was already lost in the systems' own unit ("2 stands already
/// lost") where they count it alike.
pub fn setting_in_words_under(systems: &[&str], key: &str, v: &str) -> String {
    if key == "lost"
        && let Ok(n) = v.parse::<u32>()
        && let Some(unit) = same_lost_unit(systems)
    {
        // "no stands lost yet", not "0 stands already lost".
        if n == 0 {
            return format!("no {} lost yet", unit.1);
        }
        return format!("{} already lost", count(n, unit.0, unit.1));
    }
    setting_in_words(key, v)
}

/// The unit every one of `systems` counts losses in, when they share one.
fn same_lost_unit(systems: &[&str]) -> Option<(&'static str, &'static str)> {
    let first = lost_unit(systems.first()?)?;
    systems
        .iter()
        .all(|s| lost_unit(s) == Some(first))
        .then_some(first)
}

/// A parameter's label where it is said of `systems`: "Stands already lost" under Rank & File,
/// "Quarters already lost" under the 25% rules, and for both "Already lost (stands, or
/// quarters under the 25% rules)", so that one label never means two units unsaid.
pub fn param_under(systems: &[&str], key: &str) -> String {
    // Rank & File's `to_hit` is its melee die's roll; Linear Warfare's, its fire die's.
    if key == "to_hit" && systems.contains(&"rank-and-file") {
        return if systems.contains(&"linear-warfare") {
            "Die hits on (in melee under Rank & File, in fire under Linear Warfare)".into()
        } else {
            "Melee die hits on".into()
        };
    }
    if key == "lost" {
        if let Some((_, many)) = same_lost_unit(systems) {
            return format!("{} already lost", capitalised(many));
        }
        if systems.iter().any(|s| lost_unit(s).is_some()) {
            let units: Vec<String> = systems
                .iter()
                .filter_map(|s| lost_unit(s).map(|u| (s, u.1)))
                .map(|(s, u)| match *s {
                    "rank-and-file" => u.to_string(),
                    other => format!("{u} under {}", system(other)),
                })
                .collect();
            return format!("{} ({})", param(key), units.join(", or "));
        }
    }
    param(key)
}

/// Whether setting `key` only asks for a measure (`measure_strength`) and changes no rule or
/// situation: the setup a reader is told leaves it out (the measure's own headline says it).
pub fn is_measurement(key: &str) -> bool {
    key == "measure_strength"
}

/// What a setting is to a question about rules: a reading of the rules or one of their
/// numbers (what a report's answer rests on), the situation the question is asked about, or a
/// side's choice of play. A report tests all three, but tells them apart: a different unit or a
/// different way of playing is another question, not a weakness of the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A reading of the rules, or a number of theirs: the answer's assumptions.
    Reading,
    /// Who, where and in what state: the units, their class, the enemy's fire, the turns.
    Situation,
    /// A choice a player makes (when to charge, to rout on, to re-roll, to follow up).
    Play,
}

/// The situation's settings (every system's): the question's who, where and how long.
const SITUATION: &[&str] = &[
    "attacker",
    "b_fire",
    "charge_from",
    "class",
    "cover",
    "defender",
    "difference",
    "elite",
    "enemy_class",
    "enemy_general",
    "enemy_supported",
    "era",
    "exchange_fire",
    "fire_dice",
    "fire_from",
    "fire_loss",
    "fire_range",
    "fire_to_hit",
    "flanking",
    "general",
    "general_joins",
    "in_buildings",
    "kind",
    "leader",
    "lost",
    "melee_dice",
    "modifier",
    "p_blocked",
    "pips",
    "range",
    "range_band",
    "rerolls",
    "return_fire_dice",
    "return_fire_to_hit",
    "stands",
    "state",
    "support_type",
    "supported",
    "supports",
    "test",
    "turns",
    "type",
    "units",
];

/// The choices the sources leave to a player, and the enemy's choice of target.
const PLAY: &[&str] = &[
    "battery_stays",
    "charge_at_turn",
    "charge_when_shaken",
    "fall_back_at",
    "fire_on_shaken",
    "follow_up",
    "pursue",
    "reroll_when",
    "return_at",
    "voluntary_rout",
];

/// A weakly-held metric's words at the weak share a run used (`weak_share`): the labels say
/// "half", the default; at another share they say it ("turns held at under a third of full
/// strength"), so that a run with `weak_share = 1/3` is not labelled as if it were a half.
pub fn at_weak_share(words: &str, share: Option<&str>) -> String {
    let Some(share) = share
        .map(str::trim)
        .filter(|s| !matches!(*s, "1/2" | "0.5" | "0.50"))
    else {
        return words.to_string();
    };
    let said = match share {
        "1/3" => "a third".to_string(),
        "2/3" => "two thirds".to_string(),
        "1/4" => "a quarter".to_string(),
        "3/4" => "three quarters".to_string(),
        "1/5" => "a fifth".to_string(),
        s => match s.parse::<f64>() {
            // A decimal share in per cent ("0.4" → "40%"), to four places at most.
            Ok(x) if s.contains('.') => {
                let p = format!("{:.4}", 100.0 * x);
                format!("{}%", p.trim_end_matches('0').trim_end_matches('.'))
            }
            _ => s.to_string(),
        },
    };
    words
        .replace(
            "under half strength",
            &format!("under {said} of full strength"),
        )
        .replace("less than half its", &format!("less than {said} of its"))
}

/// The optional rule without which setting `key` does nothing (a retreat can be blocked, or
/// taken out of range, only where a failed fire test retreats), so that a variant without it
/// is not said to have "no retreat blocked".
pub fn needs_option(key: &str) -> Option<&'static str> {
    match key {
        "p_blocked" | "retreat_out_of_range" => Some("retreat-on-fire"),
        _ => None,
    }
}

/// What setting `key` is to a question (see [`Role`]); a key of neither list, a mechanic
/// file's own included, is a reading.
pub fn role(key: &str) -> Role {
    if SITUATION.contains(&key) {
        Role::Situation
    } else if PLAY.contains(&key) {
        Role::Play
    } else {
        Role::Reading
    }
}

/// What an outcome counts, in a sentence's words, per scenario and rule system (`""`: any):
/// the line under a report's answer table that tells a reader what "recovered" or "removed"
/// takes. `None` where nothing is declared (the page then says nothing rather than guess).
const OUTCOME_MEANINGS: &[(&str, &str, &str, &str)] = &[
    (
        "rally",
        "rank-and-file",
        "recovered",
        "back in good order by the last turn",
    ),
    (
        "rally",
        "rank-and-file",
        "removed",
        "gone before it recovered: dispersed by the 50% rule, every stand lost, or a failed test while routing",
    ),
    ("rally", "", "unsteady", "still unsteady at the last turn"),
    ("rally", "", "routing", "still routing at the last turn"),
    (
        "rally",
        "effectiveness",
        "back_in_action",
        "back in the line by the last turn",
    ),
    (
        "rally",
        "effectiveness",
        "still_retreating",
        "still retreating at the last turn",
    ),
    (
        "under-fire",
        "rank-and-file",
        "removed",
        "gone by the last turn, for any reason the rules give, such as every stand shot away, dispersal by the 50% rule or a failed test while routing",
    ),
    (
        "under-fire",
        "effectiveness",
        "eliminated",
        "gone by the last turn: its last quarter lost to fire, or its retreat blocked",
    ),
    (
        "under-fire",
        "linear-warfare",
        "removed",
        "gone by the last turn",
    ),
    (
        "under-fire",
        "",
        "good",
        "in good order after the last turn",
    ),
    ("under-fire", "", "unsteady", "unsteady after the last turn"),
    ("under-fire", "", "routing", "routing after the last turn"),
    (
        "under-fire",
        "",
        "in_line",
        "in its place in the line after the last turn",
    ),
    (
        "under-fire",
        "",
        "retreating",
        "retreating after the last turn",
    ),
    (
        "under-fire",
        "",
        "falling_back",
        "falling back after the last turn",
    ),
    (
        "melee",
        "",
        "attacker_wins",
        "the melee ends with the defender beaten",
    ),
    (
        "melee",
        "",
        "defender_wins",
        "the melee ends with the attacker beaten",
    ),
    (
        "melee",
        "",
        "mutual_destruction",
        "both units are destroyed in the same round",
    ),
];

/// What outcome `key` of `scenario` counts under `system` (a mechanic file reads as the
/// built-in system it is named for, or not at all), in words: see [`OUTCOME_MEANINGS`].
pub fn outcome_meaning(system: &str, scenario: &str, key: &str) -> Option<&'static str> {
    OUTCOME_MEANINGS
        .iter()
        .find(|(sc, sy, k, _)| *sc == scenario && *k == key && (sy.is_empty() || *sy == system))
        .map(|m| m.3)
}

/// What a setting's value means where the number alone would mislead a reader: a natural roll
/// of 7 "always passes" means none does. `None` for a value that says what it is.
pub fn value_note(key: &str, value: &str) -> Option<&'static str> {
    match (key, value) {
        ("always_passes", "7") => Some("no roll always passes"),
        ("always_fails", "0") => Some("no roll always fails"),
        ("fire_on_shaken", "all") => Some("unsteady and routing alike"),
        ("fire_on_shaken", "unsteady") => Some("unsteady units, not routing ones"),
        ("fire_on_shaken", "none") => Some("neither"),
        _ => None,
    }
}

/// An optional rule's name in words: "retreat on fire" for `retreat-on-fire`.
pub fn option(name: &str) -> String {
    name.replace('-', " ")
}

/// Whether metric `key` is a share of the trials (a cause of removal), shown as a chance
/// rather than an average.
pub fn is_share(key: &str) -> bool {
    METRICS
        .iter()
        .any(|m| m.0 == key && m.2.starts_with("the chance of "))
}

/// Whether `key` has words of its own here (every built-in system's outcome and metric does:
/// a test holds it).
pub fn has_label(key: &str) -> bool {
    OUTCOMES.iter().any(|o| o.0 == key)
        || METRICS.iter().any(|m| m.0 == key)
        || key.strip_prefix("hits_").is_some()
        || key.starts_with("a_ends_")
        || key.starts_with("b_ends_")
}

/// Each parameter's meaning in a few words, for a form's label (the key and the full meaning go
/// on hover): the explorer's fields. One per key across the built-in systems; a key two systems
/// share means the same thing in both at this length.
const LABELS: &[(&str, &str)] = &[
    ("always_fails", "Always fails at or below"),
    ("always_passes", "Always passes at or above"),
    ("artillery_dice_1", "Artillery dice, band 1"),
    ("artillery_dice_2", "Artillery dice, band 2"),
    ("artillery_dice_3", "Artillery dice, band 3"),
    ("artillery_dice_4", "Artillery dice, band 4"),
    ("attacker", "Attacking unit"),
    ("auto_rout_on_win", "Winner routs the loser"),
    ("b_fire", "Side B's fire, if other"),
    ("base_green", "Green base number"),
    ("base_regular", "Regular base number"),
    ("base_veteran", "Veteran base number"),
    ("battery_stays", "Unsteady battery stays"),
    ("blown_penalty", "Blown to-hit penalty"),
    ("break_fraction", "50% rule threshold"),
    ("break_point", "Army breaks at % gone"),
    ("buildings_bonus", "In-buildings bonus"),
    ("cavalry_vs_elephants", "Cavalry's roll vs elephants"),
    ("charge_at_turn", "A charges from turn"),
    ("charge_bonus", "Charge bonus"),
    ("charge_bonus_rounds", "Rounds the charge bonus counts"),
    ("charge_fire", "Fire as the charge goes in"),
    ("charge_from", "Charge strikes from"),
    ("charge_when_shaken", "A charges a shaken target"),
    ("charged_router", "Routers can be charged"),
    ("chargers_fire", "Chargers still fire"),
    ("class", "Morale class"),
    ("cover", "Target in cover"),
    ("cover_penalty", "Cover penalty to fire"),
    ("defender", "Defending unit"),
    ("difference", "Melee modifier difference"),
    ("double_move_cost", "Double move cost (pips)"),
    ("elite", "Elite unit"),
    ("elite_rerolls", "Elite re-rolls a battle"),
    ("enemy_class", "Enemy's class"),
    ("enemy_general", "Enemy has a general"),
    ("enemy_supported", "Enemy is supported"),
    ("era", "Period"),
    ("exchange_fire", "Fires back"),
    ("fall_back_at", "Fall back at pips"),
    ("fall_back_out_of_range", "Falling-back unit out of range"),
    ("fire_at_routing", "Fire at routers"),
    ("fire_dice", "Enemy fire dice a turn"),
    ("fire_from", "Who fires"),
    ("fire_loss", "Losses a turn as chances"),
    ("fire_on_shaken", "Enemy fires at shaken units"),
    ("fire_range", "Fire range (moves)"),
    ("fire_to_hit", "Fire dice hit on"),
    ("flank_bonus", "Flanking fire bonus"),
    ("flanking", "Flanking fire"),
    ("follow_up", "Winner follows up"),
    ("follow_up_bonus", "Follow-up bonus"),
    ("follow_up_draw", "Later drawn round"),
    ("general", "General attached"),
    ("general_bonus", "General's bonus"),
    ("general_coin", "General's coin flip per"),
    ("general_joins", "General joins at start"),
    ("general_pips", "General's pips"),
    ("guards_bonus", "Guards' melee bonus"),
    ("hit_points", "Hits to lose a gun"),
    ("hit_points_elephant", "Hits to lose an elephant"),
    ("hit_points_machine_gun", "Hits to lose a machine gun"),
    ("hit_points_wagon", "Hits to lose a wagon"),
    ("hits_per_stand", "Melee hits per stand lost"),
    ("hits_per_step", "Hits per quarter lost"),
    ("in_buildings", "In buildings"),
    ("kind", "Formed unit or single stand"),
    ("last_pip_charges", "Charges on its last pip"),
    ("last_pip_fires", "Last pip still shoots"),
    ("leader", "Leader's bonus"),
    ("locked_fire", "Fire while locked in melee"),
    ("loss_modifier", "Modifier per stand lost"),
    ("losses_to_destroy", "Lost rounds that destroy"),
    ("lost", "Already lost"),
    ("max_rounds", "Cap on tied rounds"),
    ("measure_strength", "Strength in the line measured"),
    ("melee_dice", "Melee dice a round"),
    ("melee_to_hit", "Melee die hits on"),
    ("modifier", "Other modifier"),
    ("obstacle_bonus", "Obstacle defence bonus"),
    ("p_blocked", "Chance a retreat is blocked"),
    ("pip_gap", "Pip lead that earns a bonus"),
    ("pip_gap_bonus", "Bonus for that pip lead"),
    ("pips", "Pips at start"),
    ("pips_cavalry", "Cavalry's pips"),
    ("pips_guards", "Guards' pips"),
    ("pips_light", "Light infantry's pips"),
    ("pips_line", "Line infantry's pips"),
    ("pursue", "Charger pursues a router"),
    ("rally_loss", "Stands lost on a failed rally"),
    ("range", "Range at start (moves)"),
    ("range_band", "Artillery range band"),
    ("reroll_when", "Re-roll spent on"),
    ("rerolls", "Commander's re-rolls"),
    ("rerolls_per_test", "Re-rolls a test"),
    ("retreat_out_of_range", "Retreating unit out of range"),
    ("retreat_turns", "Turns a retreat lasts"),
    ("return_at", "Rejoin at pips"),
    ("return_fire_dice", "Its fire dice a turn"),
    ("return_fire_to_hit", "Its fire die hits on"),
    ("return_general_bonus", "General's bonus to return"),
    ("return_on", "Returns to action on a roll of"),
    ("reversal_follow_up", "Loser's follow-up reversal"),
    ("routed_wagons", "Routed wagons"),
    ("routing_fail", "Routing unit fails a test"),
    ("score_elite", "Elite unit's score"),
    ("score_poor", "Poor unit's score"),
    ("score_regular", "Regular unit's score"),
    ("shaken_winner_charges", "Unsteady winner may charge"),
    ("six_always_hits", "A 6 always hits in melee"),
    ("stampede_on", "Elephant stampedes on"),
    ("stands", "Stands"),
    ("state", "Starting state"),
    ("steps", "Quarters to elimination"),
    ("support_bonus", "Support bonus"),
    ("support_type", "Supports' troop type"),
    ("supported", "Supported from behind"),
    ("supports", "Supported files"),
    ("test", "Kind of test"),
    ("to_hit", "Fire dice hit on"),
    ("turns", "Turns"),
    ("type", "Unit type"),
    ("units", "Units a side"),
    ("unsteady_charges", "Unsteady units charge"),
    ("unsteady_fires", "Unsteady units fire"),
    ("unsteady_meets_charge", "Unsteady still meets a charge"),
    ("voluntary_rout", "Keep routing by choice"),
    ("waiver_stampede", "Waiver failure stampedes"),
    ("weak_share", "Weakly held below"),
];

/// A parameter's label on a form: a few words (`Hits to lose a machine gun` for
/// `hit_points_machine_gun`); a key of a built-in system always has one, a mechanic file's own
/// parameter gets its key in words.
pub fn param(key: &str) -> String {
    // A field of a side's unit spec (`defender.stands`, solved for by balance): the unit's
    // own words, not the key ("Defending unit's stands").
    if let Some((side, field)) = key.split_once('.') {
        let unit = match side {
            "attacker" => Some("Attacking unit's"),
            "defender" => Some("Defending unit's"),
            "a" => Some("Side A's unit's"),
            "b" => Some("Side B's unit's"),
            _ => None,
        };
        if let Some(unit) = unit {
            let what = match field {
                "lost" => "stands already lost".to_string(),
                f => label_in_prose(&param(f)),
            };
            return format!("{unit} {what}");
        }
    }
    LABELS.iter().find(|(k, _)| *k == key).map_or_else(
        || {
            let w = key.replace('_', " ");
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        },
        |(_, l)| (*l).to_string(),
    )
}

/// A parameter's label inside a sentence: its first letter in lower case ("morale class"),
/// except a side's letter ("A charges from turn") or a name ("Green base number" keeps its
/// capital, as a troop class the rules capitalise; "Rank & File" would stay).
pub fn param_in_prose(key: &str) -> String {
    label_in_prose(&param(key))
}

/// A label inside a sentence, as [`param_in_prose`] says it.
pub fn label_in_prose(l: &str) -> String {
    let first = l.split(' ').next().unwrap_or("");
    // A one-letter word (A, B), a word with capitals inside, or a troop class the rules
    // capitalise (a Green unit) keeps its capital.
    let class = ["Green", "Regular", "Veteran", "Elite", "Poor"]
        .iter()
        .any(|c| first == *c || first.strip_suffix("'s") == Some(c));
    if first.len() == 1 && first != "a" || first.chars().skip(1).any(char::is_uppercase) || class {
        return l.to_string();
    }
    let mut c = l.chars();
    c.next()
        .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// A setting's label as a sentence names it: "the Regular base number", "the quarters to
/// elimination"; a label that ends where its value would follow ("Fire dice hit on", "Returns
/// to action on a roll of") cannot take "the" and "being", and stays quoted as a name.
pub fn setting_in_prose(label: &str) -> String {
    let last = label.rsplit(' ').next().unwrap_or("");
    let open = [
        "on", "of", "to", "at", "by", "in", "for", "from", "with", "a", "as",
    ];
    match open.contains(&last) {
        true => format!("\u{201c}{label}\u{201d}"),
        false => format!("the {}", label_in_prose(label)),
    }
}

/// A yes-or-no setting's two states as clauses a sentence can carry ("retreating units are out
/// of the enemy's range"), where plain words say it better than "“Retreating unit out of range”
/// being true"; `None` for other settings.
pub fn state(key: &str, on: bool) -> Option<&'static str> {
    STATES
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, yes, no)| if on { *yes } else { *no })
}

/// Yes-or-no settings in words: the key, its clause when true, its clause when false.
const STATES: &[(&str, &str, &str)] = &[
    ("elite", "an Elite unit", "not an Elite unit"),
    ("general", "a general attached", "no general attached"),
    (
        "supported",
        "supported from behind",
        "not supported from behind",
    ),
    (
        "retreat_out_of_range",
        "a retreating unit is out of the enemy's range",
        "a retreating unit can still be fired at",
    ),
    (
        "fall_back_out_of_range",
        "a unit falling back is out of the enemy's range",
        "a unit falling back can still be fired at",
    ),
    (
        "exchange_fire",
        "the unit fires back at the enemy firing at it",
        "the unit does not fire back",
    ),
    (
        "chargers_fire",
        "a unit that charges still fires",
        "a unit that charges does not fire",
    ),
    (
        "charge_when_shaken",
        "side A charges a shaken enemy",
        "side A does not charge a shaken enemy",
    ),
    (
        "reversal_follow_up",
        "a side that reverses a melee may follow up in turn",
        "a reversal ends the melee",
    ),
    (
        "last_pip_charges",
        "a charger left on its last pip still charges",
        "a charger left on its last pip stays where it is",
    ),
    (
        "six_always_hits",
        "a natural 6 always hits in melee",
        "a natural 6 hits in melee only when the score allows",
    ),
    (
        "battery_stays",
        "an unsteady battery stays, guns unlimbered",
        "an unsteady battery limbers and retires",
    ),
    (
        "fire_at_routing",
        "routing units are fired at",
        "routing units are not fired at",
    ),
    (
        "pursue",
        "a charger whose target routs pursues it",
        "a charger whose target routs does not pursue it",
    ),
];

/// Whether `key` has a label written for it (every built-in system's parameter does: a test
/// holds it).
pub fn has_param_label(key: &str) -> bool {
    LABELS.iter().any(|(k, _)| *k == key)
}

/// What a rule does to an outcome or a metric, said of the rule in a few words, for each way
/// it moves: key, when it rises, when it falls. An answer opens with these ("the amendment
/// saves units but leaves its place in the line empty longer") before it gives the numbers.
const GISTS: &[(&str, &str, &str)] = &[
    ("eliminated", "loses more units", "saves units"),
    ("removed", "loses more units", "saves units"),
    ("recovered", "rallies more units", "rallies fewer units"),
    (
        "empty_turns",
        "leaves places in the line empty longer",
        "leaves places in the line empty for less time",
    ),
    (
        "strength_turns",
        "keeps more strength in the line",
        "keeps less strength in the line",
    ),
    (
        "a_hole_turns",
        "leaves more holes in side A's line",
        "leaves fewer holes in side A's line",
    ),
    (
        "a_strength_turns",
        "keeps side A's front line stronger",
        "leaves side A's front line weaker",
    ),
    (
        "a_units_lost",
        "loses more of side A's units",
        "saves side A's units",
    ),
];

/// What a rule that moves `key` up (`up`) or down does, in a few words said of the rule
/// ("saves units"); `None` for a key with no such words.
pub fn gist(key: &str, up: bool) -> Option<&'static str> {
    GISTS
        .iter()
        .find(|g| g.0 == key)
        .map(|g| if up { g.1 } else { g.2 })
}

/// A chance in per cent to two decimals (what reports, charts and their tables print), never
/// rounded to 0% or 100% when it is neither ("<0.01%", ">99.99%"); a chance of exactly none or
/// all is "0%" or "100%".
pub fn percent(x: f64) -> String {
    match x {
        0.0 => "0%".into(),
        1.0 => "100%".into(),
        _ => match format!("{:.2}", 100.0 * x).as_str() {
            "100.00" => ">99.99%".into(),
            "0.00" => "<0.01%".into(),
            t => format!("{t}%"),
        },
    }
}

/// `n` with its noun in the right number: "1 hit", "2 hits".
pub fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Names in a list: "A", "A and B", "A, B and C".
pub fn listed(names: &[&str]) -> String {
    match names {
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    }
}

#[cfg(test)]
mod tests {
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

    use super::*;

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
}
