//! A mechanic file's errors in plain words: the scripting engine says "Expression cannot be
//! assigned to" or "Variable not found: y", which a rule writer who is no programmer cannot act
//! on (a designer's trial). The page shows the plain sentence at the error's line and keeps the
//! engine's own words in small print beneath it.

/// The plain words for a mechanic file's error message (`path.rhai:LINE:COL: …`), with the
/// function it stopped in ("in rally_turn: …") where it stopped while running; `None` where the
/// message is none of those the page knows (the engine's words then stand alone).
pub(super) fn script_error(message: &str) -> Option<String> {
    let at = message.find(".rhai:")? + ".rhai:".len();
    // Past `LINE:COL: ` (or `LINE: `).
    let mut rest = &message[at..];
    for _ in 0..2 {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 {
            break;
        }
        rest = rest[digits..].strip_prefix(':').unwrap_or(&rest[digits..]);
    }
    let rest = rest.trim_start();
    if let Some(what) = rest.strip_prefix("does not compile: ") {
        return compile_error(what);
    }
    // A run's error names the function it stopped in: "rally_turn: Variable not found: y".
    let (func, what) = rest.split_once(": ")?;
    if func.is_empty() || !func.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    run_error(what).map(|said| format!("in {func}(): {said}"))
}

/// `what` after `prefix`, trimmed.
fn after<'a>(what: &'a str, prefix: &str) -> Option<&'a str> {
    what.strip_prefix(prefix).map(str::trim)
}

/// A name in back quotes.
fn code(name: &str) -> String {
    format!("`{}`", name.trim().trim_matches('\''))
}

/// The parser's errors (the file does not compile).
fn compile_error(what: &str) -> Option<String> {
    // A number with a point: the loader's own sentence is plain already.
    if what.contains("a mechanic file has whole numbers only") {
        return None;
    }
    let said = match what {
        "Expression cannot be assigned to" | "Cannot assign to a constant value" => {
            "the left side of this `=` is not something that can be set (a number, a text or a function's result): assign to a variable, e.g. `let x = …` then `x = …`, or to a field such as `s.status` or `unit.pips`".to_string()
        }
        "Function definitions must be at global level and cannot be inside a block or another function" => {
            "a function begins here inside another function or block: a `}` is missing above, closing the one before (each `{` needs its `}`)".to_string()
        }
        "Expecting ';' to terminate this statement" => {
            "a `;` is missing: the statement before this point needs one at its end (often the end of the line above)".to_string()
        }
        "Open string is not terminated" => {
            "this text has no closing `\"`: a text begins and ends with a double quote on the same line".to_string()
        }
        "Expecting name of a variable" => {
            "a name is expected here, after `let` or `const`: a name is letters, digits and `_`, and cannot be one of the words Rhai keeps for itself (`fn`, `let`, `if`, `for` …)".to_string()
        }
        "Expecting name of a function" => {
            "a function's name is expected after `fn`: letters, digits and `_`".to_string()
        }
        "Expecting name of a parameter" => {
            "a parameter's name is expected here, in the brackets after the function's name, e.g. `fn rally_turn(p, s) {`".to_string()
        }
        "Expecting name of a property" => {
            // Rhai says it after a `.` and after a `,` in a map alike: naming only the `.`
            // sent a trial looking for a dot its line did not have (phone trial 76).
            "a field's name is expected here: after a `.` (e.g. `s.status`), or after a `,` inside a map `#{ … }` (e.g. `value: 4`); a stray `,` or bracket in a map gives this too".to_string()
        }
        "Script is incomplete" | "Unexpected end of script" => {
            "the file ends in the middle of something: a `}` or `)` is missing before its end".to_string()
        }
        _ => {
            if let Some(name) = after(what, "Cannot assign to constant") {
                format!(
                    "{} was made with `const` and cannot be set again: make it with `let` if it is to change",
                    code(name)
                )
            } else if let Some(kind) = after(what, "Expecting a boolean expression, not") {
                format!(
                    "a condition (after `if` or `while`) must be true or false, not {kind}: compare it, e.g. `x > 0` or `s.status == \"good\"`"
                )
            } else if let Some(op) = after(what, "Unknown operator:") {
                format!(
                    "{} is not an operator here: use + - * / % for numbers, == != < <= > >= to compare, && || ! for true and false",
                    code(op)
                )
            } else if let Some(rest) = after(what, "Duplicated parameter") {
                let (name, func) = rest.split_once(" for function ").unwrap_or((rest, "this function"));
                format!(
                    "{} names its parameter {} twice: give each parameter a name of its own",
                    code(func),
                    code(name)
                )
            } else if let Some(rest) = after(what, "Expecting ',' to separate the arguments to function call") {
                format!(
                    "a `,` or a `)` is missing among the values given to {}(…): put a comma between two values and close the brackets",
                    rest.trim_matches('\'')
                )
            } else if what.starts_with("Expecting ',' to separate the items of this object map literal") {
                "a `,` is missing between two fields of this map `#{ … }`: write `#{ name: \"x\", value: 1 }`".to_string()
            } else if what.starts_with("Expecting ',' to separate the items of this array literal") {
                "a `,` is missing between two items of this list `[ … ]`".to_string()
            } else if what.starts_with("Expecting ')' for a matching (") {
                "a `(` is not closed: a `)` is missing".to_string()
            } else if what.starts_with("Expecting '}'") {
                "a `{` is not closed: a `}` is missing".to_string()
            } else if what.starts_with("Expecting ']'") {
                "a `[` is not closed: a `]` is missing".to_string()
            } else if let Some(rest) = after(what, "Variable not found:") {
                return Some(no_variable(rest));
            } else if let Some(rest) = after(what, "Unknown variable:") {
                return Some(no_variable(rest));
            } else if let Some(rest) = what.strip_prefix("Expecting '") {
                let (token, _) = rest.split_once('\'')?;
                format!("a {} is expected here", code(token))
            } else {
                return None;
            }
        }
    };
    Some(said)
}

fn no_variable(name: &str) -> String {
    format!(
        "there is no variable {} here: make it first with `let {} = …`, or check its spelling (a function's values come in through its parameters, such as `p` and `s`)",
        code(name),
        name.trim()
    )
}

/// The engine's type names as a reader says them.
fn type_words(t: &str) -> String {
    let t = t.trim();
    let word = match t {
        "i64" | "INT" => "a whole number",
        "bool" => "true or false",
        "()" => {
            "nothing (a misspelt field, which has no value, or a function that gives none back?)"
        }
        "array" | "Array" => "a list",
        "map" | "Map" => "a map `#{ … }`",
        "char" => "a character",
        "Fn" | "FnPtr" => "a function",
        t if t.contains("str") || t.contains("String") => "a text",
        t => return t.to_string(),
    };
    word.to_string()
}

/// The errors of a run (the file compiled; a function stopped while it ran).
fn run_error(what: &str) -> Option<String> {
    if let Some(name) = after(what, "Variable not found:") {
        return Some(no_variable(name));
    }
    if let Some(name) = after(what, "Property not found:") {
        return Some(format!(
            "this value has no field {}: check its spelling (a situation's or a rule's number is `p.KEY`, with a key of params() or rules(); the state's values are `s.NAME`, with a name of state())",
            code(name)
        ));
    }
    if let Some(rest) = after(what, "Division by zero:") {
        return Some(format!(
            "a division by zero ({rest}): the number divided by is 0 here"
        ));
    }
    if let Some(rest) = after(what, "Array index") {
        let (index, size) = rest
            .split_once(" out of bounds: only ")
            .unwrap_or((rest, ""));
        let size = size.split_whitespace().next().unwrap_or("");
        return Some(match size {
            "" => format!("there is no item {index} in this list (a list's items count from 0)"),
            n => format!(
                "there is no item {index} in this list of {n} item{}: a list's items count from 0, so its last is item {}",
                if n == "1" { "" } else { "s" },
                n.parse::<i64>()
                    .map_or("its size less one".to_string(), |n| (n - 1).to_string())
            ),
        });
    }
    if let Some(rest) = what.strip_prefix("no function ") {
        // "no function NAME (TYPES): a mechanic file has its own functions, …"
        let (call, _) = rest.split_once("): ").map_or((rest, ""), |(c, r)| (c, r));
        let (name, types) = call.split_once(" (").unwrap_or((call, ""));
        let types: Vec<String> = match types.trim() {
            "" => vec![],
            t => t.split(", ").map(type_words).collect(),
        };
        let given = match types.len() {
            0 => "no values".to_string(),
            1 => types[0].clone(),
            _ => format!(
                "{} and {}",
                types[..types.len() - 1].join(", "),
                types[types.len() - 1]
            ),
        };
        let operator =
            !name.is_empty() && !name.chars().any(|c| c.is_ascii_alphanumeric() || c == '_');
        return Some(if operator {
            format!(
                "{} cannot be used on {given}: both sides must be of a kind it takes (numbers for + - * /; text and text for +)",
                code(name)
            )
        } else {
            format!(
                "there is no function {} taking {given}: check its name and how many values it is given (the file's own functions, Rhai's, and the dice: d6, d6_at_least, d6_at_most, die, roll, hits, chance, pick)",
                code(name)
            )
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each error the engine gives, as a rule writer meets it, in plain words; an error the
    /// page does not know stays in the engine's words alone.
    #[test]
    fn the_engines_errors_read_in_plain_words() {
        let p = "mechanics/rank-and-file.rhai";
        for (message, says) in [
            (
                "38:5: does not compile: Expression cannot be assigned to",
                "the left side of this `=` is not something that can be set",
            ),
            (
                "38:5: does not compile: Cannot assign to a constant value",
                "assign to a variable",
            ),
            (
                "38:18: does not compile: Cannot assign to constant K",
                "`K` was made with `const`",
            ),
            (
                "38:13: rally_turn: Variable not found: y",
                "in rally_turn(): there is no variable `y` here: make it first with `let y = …`",
            ),
            (
                "38:22: rally_turn: Property not found: pass_onn",
                "in rally_turn(): this value has no field `pass_onn`",
            ),
            (
                "44:1: does not compile: Function definitions must be at global level and cannot be inside a block or another function",
                "a `}` is missing above",
            ),
            (
                "40:9: does not compile: Expecting ';' to terminate this statement",
                "a `;` is missing",
            ),
            (
                "39:20: does not compile: Open string is not terminated",
                "no closing `\"`",
            ),
            (
                "38:8: does not compile: Expecting a boolean expression, not a number",
                "must be true or false, not a number",
            ),
            (
                "38:15: does not compile: Unknown operator: '@'",
                "`@` is not an operator here",
            ),
            (
                "37:18: does not compile: Duplicated parameter p for function rally_turn",
                "`rally_turn` names its parameter `p` twice",
            ),
            (
                "38:30: does not compile: Expecting ',' to separate the arguments to function call 'd6_at_least'",
                "among the values given to d6_at_least(…)",
            ),
            (
                "52:31: does not compile: Expecting ',' to separate the items of this object map literal",
                "between two fields of this map",
            ),
            (
                "28:19: does not compile: Expecting name of a property",
                "after a `,` inside a map `#{ … }`",
            ),
            (
                "64:1: does not compile: Expecting ')' for a matching ( in this expression",
                "a `)` is missing",
            ),
            (
                "38:15: rally_turn: Division by zero: 1 / 0",
                "in rally_turn(): a division by zero (1 / 0)",
            ),
            (
                "38:28: rally_turn: Array index 5 out of bounds: only 1 element in array",
                "there is no item 5 in this list of 1 item: a list's items count from 0, so its last is item 0",
            ),
            (
                "38:8: rally_turn: no function d7_at_least (i64): a mechanic file has its own functions, Rhai's and the dice (d6, d6_at_least, d6_at_most, die, roll, hits, chance, pick); no clock, files or network",
                "there is no function `d7_at_least` taking a whole number",
            ),
            (
                "38:8: rally_turn: no function d6_at_least (i64, i64): a mechanic file has its own functions",
                "taking a whole number and a whole number",
            ),
            (
                "38:17: rally_turn: no function - (&str | ImmutableString | String, i64): a mechanic file has its own functions",
                "`-` cannot be used on a text and a whole number",
            ),
            (
                "45:13: rally_turn: no function + ((), i64): a mechanic file has its own functions",
                "`+` cannot be used on nothing (a misspelt field",
            ),
        ] {
            let plain = script_error(&format!("{p}:{message}"))
                .unwrap_or_else(|| panic!("no plain words for {message}"));
            assert!(plain.contains(says), "{message}\n  → {plain}");
            // Plain words: none of the engine's jargon.
            for jargon in [
                "Expression",
                "literal",
                "i64",
                "ImmutableString",
                "&str",
                "global level",
            ] {
                assert!(!plain.contains(jargon), "{jargon} in {plain}");
            }
        }
        // Not a script's error, or one the page does not know: no plain words (the engine's stand).
        assert_eq!(script_error("invalid value 'x' for --set stands"), None);
        assert_eq!(
            script_error(&format!("{p}:3:1: does not compile: Something new")),
            None
        );
        assert_eq!(
            script_error(&format!("{p}:3:1: rally_turn: Something new")),
            None
        );
    }
}
