//! The sandbox a mechanic file runs in: a Rhai engine with whole numbers only (no floats, no
//! clock, no modules, no `eval`, no printing), limits on operations, call depth and sizes, and
//! the tool's dice primitives as the only source of chance.
//!
//! The dice primitives reach the [`Roll`] of the turn being played through a thread-local
//! pointer that is set only while a turn function runs ([`with_roll`]): the exact solver's
//! oracle follows every branch of the script's dice, the samplers draw them. Outside a turn
//! (declaring parameters or the state, reading a state's class) rolling a die is an error.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use rhai::{Array, Dynamic, Engine, EvalAltResult, Position};

use crate::dice::{Hits, Roll, Weights};

/// Operations one call of a script function may take (a turn of a mechanic file takes a few
/// hundred to a few thousand).
pub const MAX_OPERATIONS: u64 = 1_000_000;
/// How deep script functions may call each other.
pub const MAX_CALL_LEVELS: usize = 32;
/// The longest string, array and object map a script may make.
pub const MAX_SIZE: usize = 10_000;
/// The most dice one primitive rolls at once.
pub const MAX_DICE: i64 = 1000;

thread_local! {
    /// The dice of the turn being played, while a turn function runs.
    static ROLL: Cell<Option<*mut (dyn Roll + 'static)>> = const { Cell::new(None) };
    /// Hit tables `hits` has built on this thread, by their dice and the number to hit.
    static HITS: RefCell<HashMap<(i64, i64), Rc<Hits>>> = RefCell::new(HashMap::new());
    /// Tables `roll` and `pick` have built on this thread, by what they roll.
    static WEIGHTS: RefCell<HashMap<TableKey, Rc<Weights>>> = RefCell::new(HashMap::new());
}

/// What `roll` or `pick` draws from, as the key of its table.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum TableKey {
    /// The total of `n` dice of `s` sides.
    Total(i64, i64),
    /// A pick from integer weights.
    Pick(Vec<u64>),
}

/// Run `f` with `r` as the dice of the dice primitives.
pub(crate) fn with_roll<R: Roll, T>(r: &mut R, f: impl FnOnce() -> T) -> T {
    let ptr: *mut (dyn Roll + '_) = r;
    // SAFETY: the lifetime is erased only to keep the pointer in the thread-local for the
    // duration of `f`; the guard below restores the previous value before `r`'s borrow ends,
    // also when `f` unwinds, so the pointer is never used after `r` is gone.
    let ptr: *mut (dyn Roll + 'static) = unsafe { std::mem::transmute(ptr) };
    struct Restore(Option<*mut (dyn Roll + 'static)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            ROLL.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(ROLL.with(|c| c.replace(Some(ptr))));
    f()
}

/// Roll with the dice of the turn being played.
fn rolling<T>(f: impl FnOnce(&mut dyn Roll) -> T) -> Result<T, Box<EvalAltResult>> {
    match ROLL.with(Cell::get) {
        // SAFETY: set by `with_roll` for the duration of the turn, on this thread only.
        Some(p) => Ok(f(unsafe { &mut *p })),
        None => Err(
            "dice are rolled only in a turn function (test_turn, rally_turn, under_fire_turn, melee_turn), never while declaring or reporting"
                .into(),
        ),
    }
}

/// The table for `key`, built on first use on this thread.
fn table<K: Eq + std::hash::Hash, T>(
    tables: &'static std::thread::LocalKey<RefCell<HashMap<K, Rc<T>>>>,
    key: K,
    build: impl FnOnce() -> T,
) -> Rc<T> {
    tables.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() > 4096 {
            t.clear();
        }
        Rc::clone(t.entry(key).or_insert_with(|| Rc::new(build())))
    })
}

fn count(what: &str, n: i64) -> Result<u32, Box<EvalAltResult>> {
    if (0..=MAX_DICE).contains(&n) {
        Ok(n as u32)
    } else {
        Err(format!("{what}: {n} dice; allowed: 0 to {MAX_DICE}").into())
    }
}

/// `hits(n, t)`: how many of `n` D6 show `t` or more (t ≤ 1: all of them; t ≥ 7: none), as one
/// draw: the exact solver branches once per total.
fn hits(n: i64, t: i64) -> Result<i64, Box<EvalAltResult>> {
    let n = count("hits(n, t)", n)?;
    let t = t.clamp(1, 7);
    let h = table(&HITS, (i64::from(n), t), || {
        Hits::dice(n, t as u8, crate::dice::MAX_TABLE_DICE)
    });
    rolling(|r| i64::from(r.hits(&h)))
}

/// `roll(n, s)`: the total of `n` dice of `s` sides, as one draw.
fn total(n: i64, s: i64) -> Result<i64, Box<EvalAltResult>> {
    let n = count("roll(n, sides)", n)?;
    if !(1..=100).contains(&s) {
        return Err(format!("roll(n, sides): {s} sides; allowed: 1 to 100").into());
    }
    // Sequences of n dice must be countable in 64 bits.
    if (s as f64).log2() * f64::from(n) >= 63.0 {
        return Err(format!(
            "roll({n}, {s}): {s}^{n} sequences of dice are too many to count exactly; roll fewer dice at once"
        )
        .into());
    }
    let w = table(&WEIGHTS, TableKey::Total(i64::from(n), s), || {
        // Ways of making each total, by convolution.
        let mut ways: Vec<u64> = vec![1];
        for _ in 0..n {
            let mut next = vec![0u64; ways.len() + s as usize - 1];
            for (i, &w) in ways.iter().enumerate() {
                for k in 0..s as usize {
                    next[i + k] += w;
                }
            }
            ways = next;
        }
        Weights::new(ways).expect("some total has a way")
    });
    rolling(|r| i64::from(n) + r.pick(&w) as i64)
}

/// `pick(weights)`: an index of `weights`, index `i` with chance `weights[i] / sum`.
fn pick(weights: Array) -> Result<i64, Box<EvalAltResult>> {
    let mut w = Vec::with_capacity(weights.len());
    for x in &weights {
        let v = x
            .as_int()
            .ok()
            .filter(|v| *v >= 0)
            .ok_or_else(|| format!("pick(weights): {x} is not a whole number of 0 or more"))?;
        w.push(v as u64);
    }
    let total: u128 = w.iter().map(|&v| u128::from(v)).sum();
    if total == 0 || total > u128::from(u64::MAX) {
        return Err(
            "pick(weights): the weights must add up to more than 0 (and fit 64 bits)".into(),
        );
    }
    let t = table(&WEIGHTS, TableKey::Pick(w.clone()), || {
        Weights::new(w).expect("checked above")
    });
    rolling(|r| r.pick(&t) as i64)
}

/// `chance(a, b)`: true with chance `a / b`.
fn chance(a: i64, b: i64) -> Result<bool, Box<EvalAltResult>> {
    if b <= 0 || a < 0 || a > b {
        return Err(
            format!("chance(a, b): {a}/{b} is not a chance; allowed: 0 ≤ a ≤ b, b > 0").into(),
        );
    }
    if a == 0 || a == b {
        return Ok(a == b);
    }
    let weights: Array = vec![Dynamic::from(b - a), Dynamic::from(a)];
    Ok(pick(weights)? == 1)
}

/// The engine every mechanic file runs in.
pub(crate) fn engine() -> Engine {
    let mut e = Engine::new();
    e.set_max_operations(MAX_OPERATIONS);
    e.set_max_call_levels(MAX_CALL_LEVELS);
    e.set_max_expr_depths(64, 64);
    e.set_max_string_size(MAX_SIZE);
    e.set_max_array_size(MAX_SIZE);
    e.set_max_map_size(MAX_SIZE);
    // A script reaches nothing outside itself: no printing, no evaluation of made-up code.
    e.on_print(|_| {});
    e.on_debug(|_, _, _| {});
    e.disable_symbol("eval");
    e.set_fail_on_invalid_map_property(true);
    e.register_fn("d6", || rolling(|r| i64::from(r.d6())));
    e.register_fn("die", |s: i64| total(1, s));
    e.register_fn("roll", total);
    e.register_fn("hits", hits);
    e.register_fn("chance", chance);
    e.register_fn("chance", |f: Array| {
        let part = |i: usize| f.get(i).and_then(|x| x.as_int().ok());
        match (f.len(), part(0), part(1)) {
            (2, Some(a), Some(b)) => chance(a, b),
            _ => Err("chance([a, b]): a chance is two whole numbers, a/b".into()),
        }
    });
    e.register_fn("pick", pick);
    // A D6 of `n` or more (at most `n`), as one draw of two branches: the same chance as
    // `d6() >= n`, a third of the exact solver's branches.
    e.register_fn("d6_at_least", |n: i64| chance(7 - n.clamp(1, 7), 6));
    e.register_fn("d6_at_most", |n: i64| chance(n.clamp(0, 6), 6));
    e.register_fn("clamp", |x: i64, lo: i64, hi: i64| x.max(lo).min(hi));
    e
}

/// An error of a script, with the file (where the innermost function call says) and the line
/// and column where it happened, in words.
pub(crate) fn describe(err: &EvalAltResult) -> (Option<String>, Position, String) {
    match err {
        EvalAltResult::ErrorInFunctionCall(name, src, inner, pos) => {
            let (s, p, what) = describe(inner);
            let (s, p) = if p.is_none() {
                (Some(src.clone()).filter(|x| !x.is_empty()), *pos)
            } else {
                (s.or_else(|| Some(src.clone()).filter(|x| !x.is_empty())), p)
            };
            (s, p, format!("in {name}: {what}"))
        }
        EvalAltResult::ErrorTooManyOperations(pos) => (
            None,
            *pos,
            format!(
                "the script ran past the limit of {MAX_OPERATIONS} operations in one call (a loop that does not end?)"
            ),
        ),
        EvalAltResult::ErrorStackOverflow(pos) => (
            None,
            *pos,
            format!(
                "functions called each other more than {MAX_CALL_LEVELS} deep (a recursion that does not end?)"
            ),
        ),
        EvalAltResult::ErrorDataTooLarge(what, pos) => (
            None,
            *pos,
            format!("{what} grew past the limit of {MAX_SIZE}"),
        ),
        EvalAltResult::ErrorRuntime(v, pos) => (None, *pos, format!("{v}")),
        EvalAltResult::ErrorFunctionNotFound(f, pos) => (
            None,
            *pos,
            format!(
                "no function {f}: a mechanic file has its own functions, Rhai's and the dice (d6, d6_at_least, d6_at_most, die, roll, hits, chance, pick); no clock, files or network"
            ),
        ),
        other => {
            let text = other.to_string();
            // Rhai's own text ends with the place: keep the message alone.
            let text = text
                .rsplit_once(" (line ")
                .map_or(text.as_str(), |(m, _)| m)
                .to_string();
            (None, other.position(), text)
        }
    }
}

/// `path:line:column: message` (or `path: message` where no place is known).
pub(crate) fn at(path: &str, pos: Position, message: &str) -> String {
    match (pos.line(), pos.position()) {
        (Some(l), Some(c)) => format!("{path}:{l}:{c}: {message}"),
        (Some(l), None) => format!("{path}:{l}: {message}"),
        _ => format!("{path}: {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;

    fn run(src: &str, dice: &[u8]) -> Result<Dynamic, Box<EvalAltResult>> {
        let e = engine();
        let ast = e.compile(src).unwrap();
        let mut r = Scripted::new(dice);
        with_roll(&mut r, || {
            e.call_fn::<Dynamic>(&mut rhai::Scope::new(), &ast, "f", ())
        })
    }

    #[test]
    fn the_primitives_draw_from_the_roll() {
        assert_eq!(
            run("fn f() { d6() + d6() }", &[3, 4])
                .unwrap()
                .as_int()
                .unwrap(),
            7
        );
        // Scripted dice stand for a table's index: 2 hits, a total of 2 + 3.
        assert_eq!(
            run("fn f() { hits(4, 5) }", &[2])
                .unwrap()
                .as_int()
                .unwrap(),
            2
        );
        assert_eq!(
            run("fn f() { roll(2, 6) }", &[3])
                .unwrap()
                .as_int()
                .unwrap(),
            5
        );
        assert!(
            run("fn f() { chance(1, 3) }", &[1])
                .unwrap()
                .as_bool()
                .unwrap()
        );
        assert_eq!(
            run("fn f() { pick([1, 0, 2]) }", &[2])
                .unwrap()
                .as_int()
                .unwrap(),
            2
        );
    }

    #[test]
    fn the_sandbox_holds() {
        for (src, says) in [
            ("fn f() { loop {} }", "operations"),
            ("fn f() { f() }", "deep"),
            ("fn f() { chance(4, 3) }", "not a chance"),
            ("fn f() { hits(5000, 4) }", "allowed: 0 to 1000"),
            ("fn f() { pick([0, 0]) }", "more than 0"),
        ] {
            let err = run(src, &[]).unwrap_err();
            let (_, _, what) = describe(&err);
            assert!(what.contains(says), "{src}: {what}");
        }
        // No floats, no clock, no eval: they do not even compile.
        let e = engine();
        for src in [
            "fn f() { 0.5 }",
            "fn f() { timestamp() }",
            "fn f() { eval(\"1\") }",
        ] {
            let compiled = e.compile(src);
            let ran =
                compiled.map(|ast| e.call_fn::<Dynamic>(&mut rhai::Scope::new(), &ast, "f", ()));
            assert!(!matches!(ran, Ok(Ok(_))), "{src} ran");
        }
        // Dice outside a turn: an error, not a panic.
        let ast = e.compile("fn f() { d6() }").unwrap();
        let err = e
            .call_fn::<Dynamic>(&mut rhai::Scope::new(), &ast, "f", ())
            .unwrap_err();
        assert!(describe(&err).2.contains("only in a turn"));
    }
}
