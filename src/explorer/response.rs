//! The explorer's answers: the HTTP [`Response`] it writes back, and a request's [`Failure`]
//! (status, message, and the page's field or editor line it is about) with the mapping from an
//! error to the field it concerns; also the messages' names for edited files, put back to the
//! names the page knows.

use serde_json::{Value, json};

use crate::error::Error;

/// An HTTP answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The content type.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

pub(super) const JSON: &str = "application/json; charset=utf-8";

impl Response {
    pub(super) fn json(status: u16, v: &Value) -> Response {
        Response {
            status,
            content_type: JSON,
            body: v.to_string().into_bytes(),
        }
    }
    /// An error in one line, as the command line says it, with the field it is about (and
    /// a mechanic file's line) for the page to show beside it.
    pub(super) fn error(
        status: u16,
        message: &str,
        field: Option<String>,
        line: Option<usize>,
    ) -> Response {
        Response::json(
            status,
            &json!({ "error": message, "field": field, "line": line }),
        )
    }
}

/// Why a request failed: its status and message, and the field or line it is about.
pub(super) struct Failure {
    pub(super) status: u16,
    pub(super) message: String,
    pub(super) field: Option<String>,
    pub(super) line: Option<usize>,
}

impl Failure {
    pub(super) fn of(e: &Error, prefix: &str) -> Failure {
        let (mut field, mut line) = field_of(e, prefix);
        let message = unedited(&for_the_page(e));
        // A mechanic file's script error (`path.rhai:LINE:COL: …`): the editor's line.
        if field.is_none()
            && let Some(l) = script_line(&message)
        {
            field = Some(format!("{prefix}code"));
            line = Some(l);
        }
        let status = match e {
            Error::Cancelled => 409,
            e if e.is_bad_input() || field.is_some() => 400,
            _ => 500,
        };
        Failure {
            status,
            message,
            field,
            line,
        }
    }
    pub(super) fn busy(message: String) -> Failure {
        Failure {
            status: 503,
            message,
            field: None,
            line: None,
        }
    }
    /// The answer's body: a mechanic file's error has its plain words too (`plain`), the page
    /// showing them at the line with the engine's own words in small print.
    pub(super) fn json(&self) -> Value {
        let plain = match self.field.as_deref() {
            Some(f) if f.ends_with("code") => super::plain::script_error(&self.message),
            _ => None,
        };
        json!({ "error": self.message, "field": self.field, "line": self.line, "plain": plain })
    }
    pub(super) fn response(&self) -> Response {
        Response::json(self.status, &self.json())
    }
}

/// An error's message as the page should say it: the command line's advice to raise
/// `--exact-budget` names a control the page does not have, so a budget the explorer's limits
/// set says what the page can do instead, and where the flag is.
pub(super) fn for_the_page(e: &Error) -> String {
    match e {
        Error::OverBudget {
            scenario,
            projected_s,
            budget_s,
        } => format!(
            "the exact solution of this {scenario} would take about {projected_s:.1} s, more than the explorer allows ({budget_s} s): press Run Monte Carlo for an estimate, or solve it from the command line with a larger --exact-budget"
        ),
        Error::TablesOverBudget { budget_s } => format!(
            "the table sampler's tables take more than {budget_s} s to compile, more than the explorer allows: run it from the command line with --sampler dice (every turn's dice, the same chances) or a larger --exact-budget"
        ),
        e => e.to_string(),
    }
}

/// The page's field an error is about: `set.KEY`, `rule.KEY`, `option`, `trials`, `seed`,
/// `scenario`, `system` or `code` (with its line), prefixed `a.` for the pinned setting.
fn field_of(e: &Error, prefix: &str) -> (Option<String>, Option<usize>) {
    let of_what = |what: &str, key: Option<&str>| -> Option<String> {
        // "C's --set KEY": that profile's field.
        let what = what.trim();
        let b = what.as_bytes();
        let owned;
        let (prefix, what) = if b.len() > 4 && b[0].is_ascii_uppercase() && &what[1..4] == "'s " {
            owned = format!("{}.", what[..1].to_ascii_lowercase());
            (owned.as_str(), &what[4..])
        } else {
            (prefix, what)
        };
        for (flag, name) in [("--set", "set"), ("--rule", "rule")] {
            if let Some(rest) = what.strip_prefix(flag) {
                // A side's spec names the unit of a line it is about, "--set attacker (unit 1)":
                // the field is the spec's all the same.
                let k = key.unwrap_or_else(|| rest.split_whitespace().next().unwrap_or_default());
                return Some(format!("{prefix}{name}.{}", k.trim()));
            }
        }
        let name = what.trim_start_matches('-');
        let name = match name {
            "option" => "option",
            "trials" => return Some("trials".into()),
            "seed" => return Some("seed".into()),
            "scenario" => return Some("scenario".into()),
            "system" => "system",
            // A situation flag (`--stands`): the field of its key.
            flag if !flag.is_empty() && what.starts_with("--") => {
                return Some(format!("{prefix}set.{}", flag.replace('-', "_")));
            }
            _ => return None,
        };
        Some(format!("{prefix}{name}"))
    };
    match e {
        Error::Invalid { what, .. } => (of_what(what, None), None),
        Error::UnknownKey { what, key, .. } => (of_what(what, Some(key)), None),
        Error::NotApplicable { what, .. } => (of_what(what, None), None),
        Error::File { line, .. } => (Some(format!("{prefix}code")), Some(*line)),
        _ => (None, None),
    }
}

/// The line of a mechanic file's error, `….rhai:LINE:COL: …` or `….rhai:LINE: …`.
pub(super) fn script_line(message: &str) -> Option<usize> {
    let at = message.find(".rhai:")? + ".rhai:".len();
    let digits: String = message[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok().filter(|l| *l > 0)
}

/// The first `:LINE` of an error message about a file (`path:12: …`).
pub(super) fn line_in(message: &str) -> Option<usize> {
    message
        .split(':')
        .nth(1)
        .and_then(|l| l.trim().parse::<usize>().ok())
}

/// A message with the server's names for edited files (`name.edited-HASH.rhai`) put back to
/// the file's own.
pub(super) fn unedited(message: &str) -> String {
    renamed(message, "")
}

/// A message with the server's names for edited files as the page saves them
/// (`name-edited.rhai`, [`view::edited_name`]).
pub(super) fn as_saved(message: &str) -> String {
    renamed(message, "-edited")
}

/// `name.edited-HASH.rhai` → `name{tail}.rhai` throughout `message` (and a file changed on
/// disk, `name.disk-HASH.rhai`, → `name.rhai`: it is the file itself).
fn renamed(message: &str, tail: &str) -> String {
    renamed_infix(&renamed_infix(message, ".disk-", ""), ".edited-", tail)
}

/// A JSON answer with the server's names for files put back to the files' own.
pub(super) fn unrenamed(v: Value) -> Value {
    serde_json::from_str(&unedited(&v.to_string())).unwrap_or(v)
}

/// `name{infix}HASH.rhai` → `name{tail}.rhai` throughout `message`.
fn renamed_infix(message: &str, infix: &str, tail: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find(infix) {
        let after = &rest[i + infix.len()..];
        let hex = after.chars().take_while(char::is_ascii_hexdigit).count();
        out.push_str(&rest[..i]);
        if hex == 12 && after[hex..].starts_with(crate::mechanic::EXTENSION) {
            out.push_str(tail);
            rest = &after[hex..];
        } else {
            out.push_str(infix);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explorer::testing::*;

    /// A key given twice in a link is refused at its field, A's at A's, in the page's words
    /// (no internal experiment file named).
    #[test]
    fn a_key_twice_in_a_link_is_refused_at_its_field() {
        let x = explorer();
        for (q, field) in [
            ("scenario=rally&set=stands%3D7&set=stands%3D8", "set.stands"),
            ("scenario=rally&a.set=lost%3D1&a.set=lost%3D2", "a.set.lost"),
            (
                "scenario=rally&rule=base_green%3D5&rule=base_green%3D4",
                "rule.base_green",
            ),
        ] {
            let r = x.handle("POST", &format!("/api/run?{q}"), b"");
            assert_eq!(r.status, 400, "{q}");
            let v = body(&r);
            assert_eq!(v["field"], field, "{q}: {v}");
            let e = v["error"].as_str().unwrap();
            assert!(
                e.contains("each key once") && !e.contains("explorer.toml"),
                "{e}"
            );
            assert_eq!(e.lines().count(), 1, "{e}");
        }
        // Different keys, or the same key in A and in B, are fine.
        let ok = "scenario=rally&set=stands%3D7&set=lost%3D1&a.set=stands%3D8";
        assert_eq!(x.handle("POST", &format!("/api/run?{ok}"), b"").status, 200);
    }

    /// The budgets' errors name what the page can do, not a flag it has no control for.
    #[test]
    fn a_budget_error_names_what_the_page_can_do() {
        let over = Error::OverBudget {
            scenario: "engagement".into(),
            projected_s: 12.0,
            budget_s: 5.0,
        };
        let tables = Error::TablesOverBudget { budget_s: 5.0 };
        for (e, says) in [(over, "Run Monte Carlo"), (tables, "--sampler dice")] {
            let m = Failure::of(&e, "").message;
            assert!(
                m.contains(says) && m.contains("more than the explorer allows"),
                "{m}"
            );
            assert!(!m.contains("raise --exact-budget"), "{m}");
        }
    }

    #[test]
    fn a_bad_value_is_refused_beside_its_field() {
        let x = explorer();
        let r = x.handle(
            "POST",
            "/api/run?scenario=rally&set=stands%3D99&a.rule=base_green%3D0",
            b"",
        );
        assert_eq!(r.status, 400);
        let v = body(&r);
        // A is checked first.
        assert_eq!(v["field"], "a.rule.base_green", "{v}");
        let r = x.handle("POST", "/api/run?scenario=rally&set=stands%3D99", b"");
        let v = body(&r);
        assert_eq!(v["field"], "set.stands", "{v}");
        assert!(v["error"].as_str().unwrap().contains("'99'"), "{v}");
        let v = body(&x.handle("POST", "/api/run?scenario=rally&set=colour%3Dred", b""));
        assert_eq!(v["field"], "set.colour", "{v}");
        let v = body(&x.handle("POST", "/api/run?scenario=rally&system=chess", b""));
        assert_eq!(v["field"], "system", "{v}");
        let v = body(&x.handle("POST", "/api/run?scenario=rally&mode=fast", b""));
        assert!(v["error"].as_str().unwrap().contains("allowed: exact, mc"));
    }

    /// A typo in a side's unit in a battle is refused at that side's box: the rules name the
    /// unit of the line it is about ("--set attacker (unit 1)"), and that field went unmarked
    /// (a designer's trial, on a phone).
    #[test]
    fn a_bad_unit_in_a_battle_is_refused_at_its_box() {
        let x = explorer();
        for (system, scenario, key, typo) in [
            ("rank-and-file", "engagement", "attacker", "regulr"),
            ("rank-and-file", "line", "defender", "6%20x%20regulr"),
            ("effectiveness", "engagement", "defender", "elit"),
            ("linear-warfare", "engagement", "attacker", "lne"),
        ] {
            let q = format!("system={system}&scenario={scenario}&set={key}%3D{typo}");
            let r = x.handle("POST", &format!("/api/run?{q}&mode=exact"), b"");
            assert_eq!(r.status, 400, "{q}");
            let v = body(&r);
            assert_eq!(v["field"], format!("set.{key}"), "{q}: {v}");
            let r = x.handle(
                "POST",
                &format!("/api/run?{q}&a.set={key}%3D{typo}&mode=exact"),
                b"",
            );
            assert_eq!(body(&r)["field"], format!("a.set.{key}"), "{q}");
        }
    }
}
