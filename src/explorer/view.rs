//! What the explorer page shows, as its link holds it: a system (or a mechanic file, perhaps
//! edited), a scenario, the `--set`, `--rule` and `--option` values, trials, seed, and a pinned
//! setting A to compare with, all in the command line's words.

use crate::error::{Error, Result};
use crate::params::{Input, Source};
use crate::scenario::Scenario;

/// One setting of the rules and the situation: what one command line asks for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Setting {
    /// The system's name, or the path of a mechanic file among those the server offers.
    pub system: String,
    /// The edited text of that mechanic file, when the page changed it.
    pub code: Option<String>,
    /// `--set KEY=VALUE` pairs, in order.
    pub sets: Vec<(String, String)>,
    /// `--rule KEY=VALUE` pairs, in order.
    pub rules: Vec<(String, String)>,
    /// `--option NAME`s, in order.
    pub options: Vec<String>,
}

/// One profile of the page: a setting under a letter, with the name the designer gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// Its letter, `A` to `H`: its variant's name in the experiment, its key prefix in the
    /// link (`c.set=…`).
    pub label: char,
    /// The name the designer gave it (empty: none).
    pub name: String,
    /// What it runs.
    pub setting: Setting,
}

impl Profile {
    /// Its letter, with its name when it has one: `C (veterans)`.
    pub fn title(&self) -> String {
        if self.name.is_empty() {
            self.label.to_string()
        } else {
            format!("{} ({})", self.label, self.name)
        }
    }
}

/// A view of the page: its profiles (one, or several side by side), the one the form edits,
/// the base the others are compared with, and how to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// The scenario every profile runs.
    pub scenario: Scenario,
    /// The profiles, in the order of their letters; never empty.
    pub profiles: Vec<Profile>,
    /// The profile the form edits: the link's keys without a prefix.
    pub edit: usize,
    /// The profile the others are compared with (the experiment's first variant).
    pub base: usize,
    /// Monte Carlo trials per profile.
    pub trials: u64,
    /// The seed.
    pub seed: u64,
}

/// The most profiles a view holds (letters `A` to `H`).
pub const MAX_PROFILES: usize = 8;

/// The query keys a view takes, for messages.
pub const KEYS: &str = "system, scenario, set, rule, option, code, name, trials, seed, edit, base, and the same with a letter's prefix (a.system, c.set, …) for the other profiles";

/// The query keys of a request besides the view's.
const REQUEST_KEYS: [&str; 11] = [
    "mode", "run", "budget", "solve", "target", "range", "sweep", "values", "of", "fit", "play",
];

/// A key's profile letter and bare key: `c.set` → (`Some('C')`, `set`); `set` → (`None`, `set`).
fn split_key(k: &str) -> (Option<char>, &str) {
    let b = k.as_bytes();
    if b.len() > 2 && b[1] == b'.' && (b'a'..=b'h').contains(&b[0]) {
        (Some(b[0].to_ascii_uppercase() as char), &k[2..])
    } else {
        (None, k)
    }
}

/// A profile's letter as a link gives it (`edit=C`, `base=a`).
fn letter(what: &str, v: &str) -> Result<char> {
    let t = v.trim();
    let mut cs = t.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) if ('A'..='H').contains(&c.to_ascii_uppercase()) => {
            Ok(c.to_ascii_uppercase())
        }
        _ => Err(bad(what, v, "allowed: a profile's letter, A to H")),
    }
}

/// `application/x-www-form-urlencoded` text (a URL's query or a form body) as pairs, in order.
pub fn decode_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-decoding with `+` as a space; malformed escapes are kept as typed, and bytes that
/// are not UTF-8 are replaced.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encoding of a query value (everything but letters, digits and `-_.~`).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn bad(what: &str, value: &str, allowed: &str) -> Error {
    Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed: allowed.into(),
    }
}

fn pair(key: &str, raw: &str) -> Result<(String, String)> {
    let flag = if key.ends_with("rule") {
        "--rule"
    } else {
        "--set"
    };
    match raw.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(bad(
            flag,
            raw,
            &format!("KEY=VALUE, e.g. {key}=stands%3D8 in the link ({flag} stands=8)"),
        )),
    }
}

/// A link's `set` or `rule` for a key it already gave is refused at that key's field (the
/// experiment the view becomes could hold it only once): `A's --set KEY` for the pinned setting.
fn once(
    given: &[(String, String)],
    p: &(String, String),
    flag: &str,
    link_key: &str,
) -> Result<()> {
    let Some((_, first)) = given.iter().find(|(k, _)| *k == p.0) else {
        return Ok(());
    };
    let whose = match split_key(link_key) {
        (Some(l), _) => format!("{l}'s "),
        (None, _) => String::new(),
    };
    Err(bad(
        &format!("{whose}{flag} {}", p.0),
        &format!("{}={first} and {}={}", p.0, p.0, p.1),
        &format!(
            "each key once in a link ({link_key}={}=… appears twice): keep one",
            p.0
        ),
    ))
}

impl View {
    /// The view a query's pairs describe. Trials must lie in `1000..=max_trials`.
    ///
    /// # Errors
    /// [`Error::Invalid`] for an unknown key, a missing or unknown scenario, a `set` or `rule`
    /// that is not `KEY=VALUE`, trials or a seed out of range.
    pub fn parse(pairs: &[(String, String)], max_trials: u64) -> Result<View> {
        // The form's profile (no prefix), and the others by letter.
        let mut current = Profile {
            label: 'B',
            name: String::new(),
            setting: Setting::default(),
        };
        let mut others: std::collections::BTreeMap<char, Profile> = Default::default();
        let mut scenario = None;
        let mut trials = 1_000_000u64;
        let mut seed = 1u64;
        let mut base = None;
        for (k, v) in pairs {
            let (label, key) = split_key(k);
            let profile = match label {
                Some(l) => others.entry(l).or_insert_with(|| Profile {
                    label: l,
                    name: String::new(),
                    setting: Setting::default(),
                }),
                None => &mut current,
            };
            let setting = &mut profile.setting;
            match key {
                "system" => setting.system = v.trim().to_string(),
                "code" => setting.code = Some(v.clone()),
                "name" => profile.name = v.trim().chars().take(40).collect(),
                "set" => {
                    let p = pair(k, v)?;
                    once(&setting.sets, &p, "--set", k)?;
                    setting.sets.push(p);
                }
                "rule" => {
                    let p = pair(k, v)?;
                    once(&setting.rules, &p, "--rule", k)?;
                    setting.rules.push(p);
                }
                "option" => setting.options.push(v.trim().to_string()),
                "edit" if label.is_none() => current.label = letter("edit", v)?,
                "base" if label.is_none() => base = Some(letter("base", v)?),
                "scenario" if label.is_none() => {
                    scenario = Some(Scenario::from_name(v.trim()).ok_or_else(|| {
                        let names: Vec<&str> = Scenario::ALL.iter().map(|s| s.name()).collect();
                        bad("scenario", v, &format!("allowed: {}", names.join(", ")))
                    })?)
                }
                "trials" if label.is_none() => trials = crate::params::parse_int(v)
                    .filter(|t| (1000..=max_trials as i64).contains(t))
                    .ok_or_else(|| {
                        bad(
                            "--trials",
                            v,
                            &format!(
                                "allowed here: a whole number from 1000 to {} (the server's limit)",
                                crate::report::thousands(max_trials)
                            ),
                        )
                    })? as u64,
                "seed" if label.is_none() => {
                    seed =
                        v.trim().replace('_', "").parse::<u64>().map_err(|_| {
                            bad("--seed", v, "allowed: a whole number from 0 to 2^64-1")
                        })?
                }
                _ if REQUEST_KEYS.contains(&k.as_str()) => {}
                _ => return Err(bad("the link", k, &format!("allowed keys: {KEYS}"))),
            }
        }
        let scenario = scenario.ok_or_else(|| {
            bad(
                "scenario",
                "",
                "the link must name a scenario, e.g. scenario=rally",
            )
        })?;
        if current.setting.system.is_empty() {
            current.setting.system = "rank-and-file".into();
        }
        if others.contains_key(&current.label) {
            let l = current.label;
            return Err(bad(
                "edit",
                &l.to_string(),
                &format!(
                    "the profile the form edits (keys without a prefix) is {l}, and the link gives {l} again with {}.… keys: name another letter with edit=",
                    l.to_ascii_lowercase()
                ),
            ));
        }
        for p in others.values_mut() {
            if p.setting.system.is_empty() {
                p.setting.system = current.setting.system.clone();
            }
        }
        let label = current.label;
        others.insert(label, current);
        let profiles: Vec<Profile> = others.into_values().collect();
        let edit = profiles.iter().position(|p| p.label == label).unwrap_or(0);
        let base = match base {
            None => 0,
            Some(b) => profiles.iter().position(|p| p.label == b).ok_or_else(|| {
                let have: Vec<String> = profiles.iter().map(|p| p.label.to_string()).collect();
                bad(
                    "base",
                    &b.to_string(),
                    &format!("allowed: a profile the link holds ({})", have.join(", ")),
                )
            })?,
        };
        Ok(View {
            scenario,
            profiles,
            edit,
            base,
            trials,
            seed,
        })
    }

    /// The setting the form edits.
    pub fn current(&self) -> &Setting {
        &self.profiles[self.edit].setting
    }

    /// Whether profiles are compared (more than one).
    pub fn compared(&self) -> bool {
        self.profiles.len() > 1
    }

    /// The indices of the profiles in the experiment's order: the base first, then the others
    /// by letter.
    pub fn in_order(&self) -> Vec<usize> {
        let mut out = vec![self.base];
        out.extend((0..self.profiles.len()).filter(|&i| i != self.base));
        out
    }

    /// The link's key prefix of profile `i`: none for the one the form edits, else its letter
    /// (`c.`).
    pub fn prefix(&self, i: usize) -> String {
        if i == self.edit {
            String::new()
        } else {
            format!("{}.", self.profiles[i].label.to_ascii_lowercase())
        }
    }

    /// The view as a link's query, in a canonical order (the page writes the same).
    pub fn query(&self) -> String {
        let cur = &self.profiles[self.edit];
        let mut parts = vec![
            format!("system={}", encode(&cur.setting.system)),
            format!("scenario={}", self.scenario.name()),
        ];
        push_setting(&mut parts, "", &cur.setting, false);
        parts.push(format!("trials={}", self.trials));
        parts.push(format!("seed={}", self.seed));
        if cur.label != 'B' {
            parts.push(format!("edit={}", cur.label));
        }
        if self.base != 0 {
            parts.push(format!("base={}", self.profiles[self.base].label));
        }
        if !cur.name.is_empty() {
            parts.push(format!("name={}", encode(&cur.name)));
        }
        for (i, p) in self.profiles.iter().enumerate() {
            if i == self.edit {
                continue;
            }
            let prefix = self.prefix(i);
            parts.push(format!("{prefix}system={}", encode(&p.setting.system)));
            if !p.name.is_empty() {
                parts.push(format!("{prefix}name={}", encode(&p.name)));
            }
            push_setting(&mut parts, &prefix, &p.setting, false);
        }
        for (i, p) in self.profiles.iter().enumerate() {
            if let Some(code) = &p.setting.code {
                parts.push(format!("{}code={}", self.prefix(i), encode(code)));
            }
        }
        parts.join("&")
    }

    /// The key of what an exact answer depends on: the profiles, their names, the base and the
    /// scenario, not trials or seed.
    pub fn exact_key(&self) -> String {
        let mut parts = vec![
            format!("scenario={}", self.scenario.name()),
            format!("base={}", self.profiles[self.base].label),
        ];
        for p in &self.profiles {
            let prefix = format!("{}.", p.label.to_ascii_lowercase());
            parts.push(format!("{prefix}system={}", encode(&p.setting.system)));
            parts.push(format!("{prefix}name={}", encode(&p.name)));
            push_setting(&mut parts, &prefix, &p.setting, true);
        }
        parts.join("&")
    }

    /// The command line that gives setting `s`'s numbers (a mechanic file by its path; an
    /// edited one must first be saved there).
    /// An edited file runs as saved beside its own file under [`edited_name`].
    pub fn command(&self, s: &Setting) -> String {
        self.command_in_stream(s, 0)
    }

    /// [`View::command`] for the profile run in generator stream `stream` (profile k of a
    /// comparison draws from stream k, as an experiment's run k does): `--stream k` where it is
    /// not the first, so the command gives that profile's estimates to the bit too.
    pub fn command_in_stream(&self, s: &Setting, stream: usize) -> String {
        let system = match s.code {
            Some(_) => edited_name(&s.system),
            None => s.system.clone(),
        };
        let mut out = format!(
            "morale-lab {} --system {}",
            self.scenario.name(),
            shell(&system)
        );
        for (k, v) in &s.sets {
            out += &format!(" --set {}", shell(&format!("{k}={v}")));
        }
        for (k, v) in &s.rules {
            out += &format!(" --rule {}", shell(&format!("{k}={v}")));
        }
        for o in &s.options {
            out += &format!(" --option {}", shell(o));
        }
        out += &format!(" --trials {} --seed {}", self.trials, self.seed);
        if stream > 0 {
            out += &format!(" --stream {stream}");
        }
        out
    }
}

/// Where the page asks an edited mechanic file to be saved, beside the file it came from
/// (`dir/name.rhai` → `dir/name-edited.rhai`): the path its command lines and experiment name.
pub fn edited_name(system: &str) -> String {
    let ext = crate::mechanic::EXTENSION;
    match system.strip_suffix(ext) {
        Some(stem) => format!("{stem}-edited{ext}"),
        None => format!("{system}-edited{ext}"),
    }
}

fn push_setting(parts: &mut Vec<String>, prefix: &str, s: &Setting, with_code: bool) {
    for (k, v) in &s.sets {
        parts.push(format!("{prefix}set={}", encode(&format!("{k}={v}"))));
    }
    for (k, v) in &s.rules {
        parts.push(format!("{prefix}rule={}", encode(&format!("{k}={v}"))));
    }
    for o in &s.options {
        parts.push(format!("{prefix}option={}", encode(o)));
    }
    if with_code && let Some(code) = &s.code {
        parts.push(format!("{prefix}code={}", encode(code)));
    }
}

/// A word for a POSIX shell: as is when it is safe, else in single quotes.
pub fn shell(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=./,:+@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// A TOML string literal.
pub fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A value as an experiment or rule-set file writes it: a whole number or `true`/`false` bare,
/// anything else as a string.
pub fn toml_value(v: &str) -> String {
    if v == "true" || v == "false" {
        return v.to_string();
    }
    match v.parse::<i64>() {
        Ok(i) if i.to_string() == v => i.to_string(),
        _ => toml_string(v),
    }
}

/// `{ k = v, … }`, an inline table of pairs.
pub fn inline_table(pairs: &[(String, String)]) -> String {
    let inner: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{} = {}", bare_key(k), toml_value(v)))
        .collect();
    format!("{{ {} }}", inner.join(", "))
}

fn bare_key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        toml_string(k)
    }
}

/// A setting's values as the command line's inputs (`--set`, `--rule`).
pub(super) fn inputs_of(s: &Setting) -> Vec<Input> {
    let mut inputs: Vec<Input> = s
        .sets
        .iter()
        .map(|(k, v)| Input {
            key: k.clone(),
            value: v.clone(),
            source: Source::Set,
        })
        .collect();
    inputs.extend(s.rules.iter().map(|(k, v)| Input::rule(k, v.clone())));
    inputs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(q: &str) -> Result<View> {
        View::parse(&decode_query(q), 100_000_000)
    }

    #[test]
    fn a_link_reads_back_to_the_same_view() {
        let v = view("system=rank-and-file&scenario=rally&set=class%3Dveteran&set=stands=7&rule=base_green%3D6&option=elite-reroll&trials=20000&seed=7&a.system=rank-and-file&a.set=class%3Dregular").unwrap();
        assert_eq!(v.scenario, Scenario::Rally);
        assert_eq!(
            v.current().sets,
            vec![
                ("class".into(), "veteran".into()),
                ("stands".into(), "7".into())
            ]
        );
        assert_eq!(v.current().rules, vec![("base_green".into(), "6".into())]);
        assert_eq!(v.trials, 20_000);
        assert_eq!(v.seed, 7);
        assert_eq!(v.profiles.len(), 2);
        assert_eq!((v.profiles[0].label, v.edit, v.base), ('A', 1, 0));
        let a = &v.profiles[0].setting;
        assert_eq!(a.sets, vec![("class".into(), "regular".into())]);
        assert_eq!(view(&v.query()).unwrap(), v);
        assert_eq!(
            v.command(v.current()),
            "morale-lab rally --system rank-and-file --set class=veteran --set stands=7 --rule base_green=6 --option elite-reroll --trials 20000 --seed 7"
        );
    }

    #[test]
    fn profiles_read_back_with_their_letters_names_and_base() {
        let v = view("scenario=rally&edit=C&name=Vets&set=class%3Dveteran&a.set=class%3Dgreen&a.name=Green&b.set=class%3Dregular&base=b&trials=2000").unwrap();
        let labels: Vec<char> = v.profiles.iter().map(|p| p.label).collect();
        assert_eq!(labels, vec!['A', 'B', 'C']);
        assert_eq!((v.edit, v.base), (2, 1));
        assert_eq!(v.current().sets[0].1, "veteran");
        assert_eq!(v.profiles[0].title(), "A (Green)");
        assert_eq!(v.profiles[1].title(), "B");
        // Every profile runs the form's system unless it names its own.
        assert!(
            v.profiles
                .iter()
                .all(|p| p.setting.system == "rank-and-file")
        );
        // The base goes first in the experiment, the others by letter.
        let order: Vec<char> = v.in_order().iter().map(|&i| v.profiles[i].label).collect();
        assert_eq!(order, vec!['B', 'A', 'C']);
        assert_eq!(
            (v.prefix(0), v.prefix(2)),
            ("a.".to_string(), String::new())
        );
        let q = v.query();
        assert!(
            q.contains("edit=C") && q.contains("base=B") && q.contains("name=Vets"),
            "{q}"
        );
        assert_eq!(view(&q).unwrap(), v);
        // The default: B edited, A (the first) the base, and neither written.
        let v = view("scenario=rally&a.set=class%3Dgreen").unwrap();
        assert_eq!((v.edit, v.base), (1, 0));
        assert!(!v.query().contains("edit=") && !v.query().contains("base="));
    }

    #[test]
    fn bad_profiles_say_what_is_allowed() {
        let e = view("scenario=rally&b.set=lost%3D1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("edit") && e.contains("another letter"), "{e}");
        let e = view("scenario=rally&base=D&a.set=lost%3D1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("A, B"), "{e}");
        let e = view("scenario=rally&edit=Z").unwrap_err().to_string();
        assert!(e.contains("A to H"), "{e}");
        let e = view("scenario=rally&c.set=lost%3D1&c.set=lost%3D2")
            .unwrap_err()
            .to_string();
        assert!(e.contains("C's --set lost"), "{e}");
        // A ninth letter is no profile: an unknown key.
        let e = view("scenario=rally&i.set=lost%3D1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("allowed keys"), "{e}");
    }

    #[test]
    fn text_with_spaces_and_code_survives_the_round_trip() {
        let mut v = view("scenario=melee&set=attacker%3Dguards+pips%3D7+charging").unwrap();
        assert_eq!(v.current().system, "rank-and-file");
        assert_eq!(v.current().sets[0].1, "guards pips=7 charging");
        v.profiles[0].setting.code = Some("fn about() {\n  #{ title: \"x & y\" }\n}\n% 100".into());
        assert_eq!(view(&v.query()).unwrap(), v);
        // An edited file's command runs it as the page saves it, beside its own file.
        assert!(
            v.command(v.current())
                .starts_with("morale-lab melee --system rank-and-file-edited.rhai ")
        );
        assert_eq!(
            edited_name("mechanics/examples/first-rally.rhai"),
            "mechanics/examples/first-rally-edited.rhai"
        );
        assert!(
            v.command(v.current())
                .contains("--set 'attacker=guards pips=7 charging'")
        );
        assert_eq!(shell("it's"), r"'it'\''s'");
    }

    #[test]
    fn bad_links_say_what_is_allowed() {
        let e = view("scenario=rally&colour=red").unwrap_err().to_string();
        assert!(e.contains("'colour'") && e.contains("allowed keys"), "{e}");
        let e = view("scenario=rout").unwrap_err().to_string();
        assert!(e.contains("allowed: test, rally"), "{e}");
        let e = view("system=rank-and-file").unwrap_err().to_string();
        assert!(e.contains("must name a scenario"), "{e}");
        let e = view("scenario=rally&trials=10").unwrap_err().to_string();
        assert!(e.contains("from 1000 to 100,000,000"), "{e}");
        let e = view("scenario=rally&set=stands").unwrap_err().to_string();
        assert!(e.contains("KEY=VALUE"), "{e}");
        // Malformed escapes are kept as typed, never a panic.
        assert_eq!(decode("%zz%4"), "%zz%4");
        assert_eq!(decode("%41%2b+"), "A+ ");
    }

    #[test]
    fn values_are_written_as_a_file_types_them() {
        assert_eq!(toml_value("8"), "8");
        assert_eq!(toml_value("08"), "\"08\"");
        assert_eq!(toml_value("true"), "true");
        assert_eq!(toml_value("1/6"), "\"1/6\"");
        assert_eq!(
            inline_table(&[
                ("class".into(), "green".into()),
                ("stands".into(), "6".into())
            ]),
            "{ class = \"green\", stands = 6 }"
        );
    }
}
