//! The values a search tries: a parameter's kind and the range asked, as a domain.

use super::MAX_WHOLE_VALUES;
use crate::error::{Error, Result};
use crate::frac::Frac;
use crate::params::{Kind, ParamDef};

/// A value refused: what, the value given, and what is allowed.
pub(super) fn invalid(what: &str, value: &str, allowed: String) -> Error {
    Error::Invalid {
        what: what.into(),
        value: value.into(),
        allowed,
    }
}

/// How the search treats the parameter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Domain {
    Whole(i64, i64),
    Chance(Frac, Frac),
    Real(f64, f64),
    Named,
}

/// The domain searched for `def`, within `range` when given.
pub(super) fn domain(def: &ParamDef, range: &Option<(String, String)>) -> Result<Domain> {
    let shown = || {
        range
            .as_ref()
            .map(|(a, b)| format!("{a}..{b}"))
            .unwrap_or_default()
    };
    match def.kind {
        Kind::Int { min, max } => {
            let (lo, hi) = match range {
                None => (min, max),
                Some((a, b)) => {
                    let lo = crate::params::parse_int(a);
                    let hi = crate::params::parse_int(b);
                    match (lo, hi) {
                        (Some(lo), Some(hi)) if lo < hi && lo >= min && hi <= max => (lo, hi),
                        _ => {
                            return Err(invalid(
                                "--range",
                                &shown(),
                                format!(
                                    "LOW..HIGH, whole numbers with LOW below HIGH, within {}'s allowed {min}..{max}",
                                    def.key
                                ),
                            ));
                        }
                    }
                }
            };
            if hi - lo + 1 > MAX_WHOLE_VALUES {
                return Err(invalid(
                    "--range",
                    &format!("{lo}..{hi}"),
                    format!(
                        "at most {MAX_WHOLE_VALUES} whole numbers are tried: give --range LOW..HIGH within {min}..{max} (each value is solved exactly)"
                    ),
                ));
            }
            Ok(Domain::Whole(lo, hi))
        }
        Kind::Prob => {
            let (lo, hi) = match range {
                None => (Frac { num: 0, den: 1 }, Frac { num: 1, den: 1 }),
                Some((a, b)) => match (Frac::parse(a), Frac::parse(b)) {
                    (Some(lo), Some(hi)) if lo.value() < hi.value() && hi.num <= hi.den => {
                        (lo, hi)
                    }
                    _ => {
                        return Err(invalid(
                            "--range",
                            &shown(),
                            "LOW..HIGH, chances from 0 to 1 with LOW below HIGH, e.g. 0..1/2"
                                .into(),
                        ));
                    }
                },
            };
            Ok(Domain::Chance(lo, hi))
        }
        Kind::Real { min, max } => {
            let (lo, hi) = match range {
                None => (min, max),
                Some((a, b)) => match (a.trim().parse::<f64>(), b.trim().parse::<f64>()) {
                    (Ok(lo), Ok(hi)) if lo < hi && lo >= min && hi <= max => (lo, hi),
                    _ => {
                        return Err(invalid(
                            "--range",
                            &shown(),
                            format!(
                                "LOW..HIGH, numbers with LOW below HIGH, within {min}..{max}"
                            ),
                        ));
                    }
                },
            };
            Ok(Domain::Real(lo, hi))
        }
        Kind::Bool | Kind::Choice(_) => {
            if range.is_some() {
                return Err(invalid(
                    "--range",
                    &shown(),
                    format!(
                        "no range for {}: every value of a choice or a switch is tried",
                        def.key
                    ),
                ));
            }
            Ok(Domain::Named)
        }
        Kind::Dist | Kind::Spec(_) => Err(invalid(
            "--solve",
            def.key,
            "a whole number, a chance, a number, a choice or a switch (a distribution or a unit spec has no single value to solve for)".into(),
        )),
    }
}
