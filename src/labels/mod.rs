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

mod tables;

use Better::Neither;
use tables::*;

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

/// `text` with its first letter in lower case and the rest as written: a scenario's words
/// mid-sentence ("a battle line", "two units … (only side A ever chooses to charge)"), where
/// lower-casing the whole lost side A's capital.
pub fn lower_initial(text: &str) -> String {
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
                "{a} {} in {b} blocked (a retreat blocked by a unit in its path eliminates the unit)",
                if a == 1 { "retreat" } else { "retreats" }
            ),
            None => format!(
                "a retreat blocked with chance {v} (a retreat blocked by a unit in its path eliminates the unit)"
            ),
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

/// An optional rule's name in words, capitalised as a rule's title so that prose reads it as
/// a name and not as a tool's key in quotes: "Retreat on Fire" for `retreat-on-fire` (writer
/// trial 74).
pub fn option(name: &str) -> String {
    const SMALL: [&str; 8] = ["on", "of", "and", "the", "a", "at", "to", "in"];
    name.split('-')
        .enumerate()
        .map(|(i, w)| match (i, SMALL.contains(&w)) {
            (i, true) if i > 0 => w.to_string(),
            _ => capitalised(w),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What an optional rule of a built-in system does, in a phrase a reader takes in at once
/// (said beside its name where a report's setup first lists it).
pub fn option_gist(name: &str) -> Option<&'static str> {
    Some(match name {
        "keep-broken-units" => "a routing unit at 50% losses keeps routing instead of leaving",
        "artillery-may-rally" => "a routed battery stays and may rally",
        "elephant-stampede" => "an elephant that fails a test may stampede",
        "waiver-tests" => "some charged units test before contact",
        "blown-cavalry" => "cavalry that charged fight worse in melee",
        "uncontrolled" => "a melee winner may have to charge again",
        "natural-one-fails" => "a roll of 1 fails every test",
        "retreat-on-fire" => "a unit failing its fire test retreats a full move",
        "return-roll" => "a retreating unit must roll to return",
        "dice-follow-pips" => "infantry fire no more dice than they have pips",
        _ => return None,
    })
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

/// Whether `key` has a label written for it (every built-in system's parameter does: a test
/// holds it).
pub fn has_param_label(key: &str) -> bool {
    LABELS.iter().any(|(k, _)| *k == key)
}

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
mod tests;

/// A rule id's title in a reader's words, as docs/RULES.md heads it ("EF-2" → "the test"): a
/// printed report's notes cite ids a magazine reader cannot look up, so the notes carry a key.
pub fn rule_title(id: &str) -> Option<&'static str> {
    Some(match id {
        "RF-1" => "classes",
        "RF-2" => "the test",
        "RF-3" => "the 50% rule",
        "RF-4" => "morale states",
        "RF-5" => "when tests happen",
        "RF-6" => "re-rolls",
        "RF-7" => "single stands",
        "RF-8" => "elephants",
        "RF-9" => "melee",
        "RF-10" => "waiver tests",
        "RF-11" => "blown cavalry",
        "RF-12" => "uncontrolled charges",
        "RF-13" => "turn order",
        "EF-1" => "strength",
        "EF-2" => "the test",
        "EF-3" => "melee",
        "EF-4" => "blocked retreats",
        "EF-5" => "the retreat amendment",
        "LW-1" => "pips",
        "LW-2" => "fire",
        "LW-3" => "charge",
        "LW-4" => "melee",
        "LW-5" => "falling back in good order",
        "LW-6" => "generals",
        "LW-7" => "army",
        _ => return None,
    })
}

/// The key to the rule ids `text` cites, in the order of their numbers: "EF-2 the test, EF-3
/// melee, EF-5 the retreat amendment"; `None` when it cites none this knows.
pub fn rules_cited(text: &str) -> Option<String> {
    let mut ids: Vec<(String, u32)> = Vec::new();
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices('-') {
        if i < 2 || !bytes[i - 2..i].iter().all(u8::is_ascii_uppercase) {
            continue;
        }
        if i >= 3 && bytes[i - 3].is_ascii_alphanumeric() {
            continue;
        }
        let digits: String = text[i + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let Ok(n) = digits.parse::<u32>() else {
            continue;
        };
        let id = format!("{}-{n}", &text[i - 2..i]);
        if rule_title(&id).is_some() && !ids.iter().any(|(x, _)| *x == id) {
            ids.push((id, n));
        }
    }
    ids.sort_by(|a, b| a.0[..2].cmp(&b.0[..2]).then(a.1.cmp(&b.1)));
    let words: Vec<String> = ids
        .iter()
        .filter_map(|(id, _)| Some(format!("{id} {}", rule_title(id)?)))
        .collect();
    (!words.is_empty()).then(|| words.join(", "))
}

/// A rule system in a phrase, for a reader who has not met it: what kind of rules they are and
/// the mechanic the reports turn on. `None` for a mechanic file (its own title says it).
pub fn system_gist(name: &str) -> Option<&'static str> {
    Some(match name {
        "rank-and-file" => {
            "published rules in which a unit, made of stands, tests its morale as it loses them"
        }
        "effectiveness" => {
            "a house rule, published by its author, in which a unit's strength falls in quarters"
        }
        "linear-warfare" => "published rules in which a unit spends pips to act",
        _ => return None,
    })
}
