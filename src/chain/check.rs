//! What a chain's turn must keep: the result of a check, and the helpers each chain's
//! `check_step` states its rule invariants with (the audit that walks them is
//! `scenario::invariants`).

/// Ok, or what broke.
pub type Check = std::result::Result<(), String>;

/// Fail with `what` unless `ok`.
#[inline]
pub fn ensure(ok: bool, what: impl FnOnce() -> String) -> Check {
    if ok { Ok(()) } else { Err(what()) }
}

/// Absorbing states: once `over`, a state never changes.
pub fn stays<S: PartialEq + std::fmt::Debug>(over: bool, from: &S, to: &S) -> Check {
    ensure(!over || from == to, || {
        format!("a finished trial changed: {from:?} → {to:?}")
    })
}
