//! Tests of `exact`, kept beside it.

use super::*;

#[test]
fn large_states_keep_fewer_moves() {
    // A rally's few bytes keep the count's bound; a battle-sized state, its bytes'.
    assert_eq!(max_solve_moves::<u64>(), MAX_SOLVE_MOVES);
    let big = max_solve_moves::<[u8; 408]>();
    assert!((2_000_000..3_000_000).contains(&big), "{big}");
    assert!(big * std::mem::size_of::<Move<[u8; 408]>>() <= MAX_SOLVE_MOVE_BYTES);
}

#[test]
fn a_large_volley_is_one_branch_per_total() {
    let h = Hits::dice(60, 5, crate::dice::MAX_TABLE_DICE);
    let (mut branches, mut mass, mut mean) = (0, 0.0, 0.0);
    enumerate(
        |o| o.hits(&h),
        |k, p| {
            branches += 1;
            mass += p;
            mean += f64::from(k) * p;
        },
    );
    assert_eq!(branches, 61);
    assert!((mass - 1.0).abs() < 1e-12);
    assert!((mean - 20.0).abs() < 1e-9);
}

#[test]
fn enumerates_two_dice() {
    let mut sums = [0.0f64; 13];
    let mut branches = 0;
    enumerate(
        |o| o.d6() + o.d6(),
        |s, p| {
            sums[usize::from(s)] += p;
            branches += 1;
        },
    );
    assert_eq!(branches, 36);
    assert!((sums[7] - 6.0 / 36.0).abs() < 1e-15);
    assert!((sums.iter().sum::<f64>() - 1.0).abs() < 1e-15);
}

#[test]
fn enumerates_variable_depth_and_tables() {
    // Re-roll a failed 5+ once: pass 1 − (2/3)² = 5/9.
    let mut pass = 0.0;
    enumerate(
        |o| o.d6() >= 5 || o.d6() >= 5,
        |ok, p| {
            if ok {
                pass += p
            }
        },
    );
    assert!((pass - 5.0 / 9.0).abs() < 1e-15);
    let t = Weights::new(vec![1, 0, 3]).unwrap();
    let mut seen = Vec::new();
    enumerate(|o| o.pick(&t), |i, p| seen.push((i, p)));
    assert_eq!(seen, vec![(0, 0.25), (2, 0.75)]);
    let mut ratios = Vec::new();
    enumerate_exact(
        |o| o.d6() >= 5 || o.d6() >= 5,
        |ok, _, r| ratios.push((ok, r.unwrap())),
    );
    // 4 first-roll branches re-roll (6 each, /36), 2 pass at once (/6).
    assert_eq!(ratios.len(), 4 * 6 + 2);
    assert!(ratios.contains(&(true, (1, 6))) && ratios.contains(&(false, (1, 36))));
}

/// A state's distribution over empty turns grows at either end: a lower count arriving
/// after higher ones moves its start down. (Caught the mutant that grew it only for an
/// equal count; `<=` for `<` is equivalent, an equal count growing by nothing.)
#[test]
fn empty_counts_arrive_in_any_order() {
    let mut live = Live {
        state: (),
        core: 0,
        lo: 0,
        p: Vec::new(),
    };
    live.add(3, 0.5);
    assert_eq!((live.lo, live.p.clone()), (3, vec![0.5]));
    live.add(5, 0.125);
    assert_eq!((live.lo, live.p.clone()), (3, vec![0.5, 0.0, 0.125]));
    live.add(1, 0.25);
    assert_eq!(
        (live.lo, live.p.clone()),
        (1, vec![0.25, 0.0, 0.5, 0.0, 0.125])
    );
    live.add(3, 0.125);
    assert_eq!(live.p[2], 0.625);
}

/// Two coin flips (a D6 at 4+), counting heads; nothing ends early.
#[derive(Debug, Clone, Copy)]
struct Flips;

const FLIP_CLASSES: [crate::chain::ClassInfo; 1] = [crate::chain::ClassInfo {
    name: "flipping",
    absorbing: false,
    empty: false,
}];
const FLIP_VALUES: [crate::chain::ValueInfo; 1] = [crate::chain::ValueInfo {
    name: "heads",
    max: 2,
}];

impl Chain for Flips {
    type State = u8;
    fn start(&self) -> u8 {
        0
    }
    fn turns(&self) -> u32 {
        2
    }
    fn step<R: crate::dice::Roll>(&self, s: u8, r: &mut R) -> u8 {
        s + u8::from(r.d6() >= 4)
    }
    fn classes(&self) -> &[crate::chain::ClassInfo] {
        &FLIP_CLASSES
    }
    fn class_of(&self, _s: u8) -> usize {
        0
    }
    fn values(&self) -> &[crate::chain::ValueInfo] {
        &FLIP_VALUES
    }
    fn value_of(&self, s: u8, _i: usize) -> u32 {
        u32::from(s)
    }
    fn check_step(&self, _from: u8, _to: u8) -> crate::chain::check::Check {
        Ok(())
    }
}

/// The values of trials still going at the cap: heads after two flips are 0, 1, 2 with
/// chances 1/4, 1/2, 1/4, by `solve_chain` as by `solve_chain_within`. (Caught the mutants
/// that made `solve_chain` answer anything, and that subtracted or multiplied the mass of
/// a value at the cap instead of adding it.)
#[test]
fn values_at_the_cap() {
    let layout = Layout::of(&Flips);
    let v = solve_chain(&Flips, "flips").unwrap();
    assert_eq!(
        v,
        solve_chain_within(&Flips, "flips", &Limit::none()).unwrap()
    );
    let heads: Vec<f64> = (0..=2).map(|k| v[layout.value(0, k)]).collect();
    assert_eq!(heads, vec![0.25, 0.5, 0.25]);
    assert_eq!(v[layout.final_(0)], 1.0);
    // No class leaves the place empty: every trial has 0 empty turns.
    assert_eq!(v[layout.empty(0)], 1.0);
}

/// A chain whose start is already in an absorbing class (a unit that starts removed):
/// every trial ends at turn 0, in that class, with its value. (Caught the mutants that
/// subtracted or multiplied that mass.)
#[test]
fn a_start_that_has_already_ended() {
    #[derive(Debug, Clone, Copy)]
    struct Over;
    const OVER: [crate::chain::ClassInfo; 1] = [crate::chain::ClassInfo {
        name: "over",
        absorbing: true,
        empty: true,
    }];
    impl Chain for Over {
        type State = u8;
        fn start(&self) -> u8 {
            1
        }
        fn turns(&self) -> u32 {
            3
        }
        fn step<R: crate::dice::Roll>(&self, s: u8, _r: &mut R) -> u8 {
            s
        }
        fn classes(&self) -> &[crate::chain::ClassInfo] {
            &OVER
        }
        fn class_of(&self, _s: u8) -> usize {
            0
        }
        fn values(&self) -> &[crate::chain::ValueInfo] {
            &FLIP_VALUES
        }
        fn value_of(&self, s: u8, _i: usize) -> u32 {
            u32::from(s)
        }
        fn check_step(&self, _from: u8, _to: u8) -> crate::chain::check::Check {
            Ok(())
        }
    }
    let layout = Layout::of(&Over);
    let v = solve_chain(&Over, "over").unwrap();
    assert_eq!(v[layout.absorbed(0, 0)], 1.0);
    assert_eq!(v[layout.final_(0)], 1.0);
    // Its place stood empty all three turns; its value is 1.
    assert_eq!(v[layout.empty(3)], 1.0);
    assert_eq!(v[layout.value(0, 1)], 1.0);
}

/// A line that wavers: steady (0), wavering (1, its place empty), gone (2, absorbed, empty)
/// or held (3, absorbed, its place kept), one D6 a turn. From steady a 1 is gone, a 2 or a
/// 3 wavers, a 6 holds; from wavering a 5 or a 6 steadies, a 1 is gone.
#[derive(Debug, Clone, Copy)]
struct Waver;

const WAVER_CLASSES: [crate::chain::ClassInfo; 4] = [
    crate::chain::ClassInfo {
        name: "steady",
        absorbing: false,
        empty: false,
    },
    crate::chain::ClassInfo {
        name: "wavering",
        absorbing: false,
        empty: true,
    },
    crate::chain::ClassInfo {
        name: "gone",
        absorbing: true,
        empty: true,
    },
    crate::chain::ClassInfo {
        name: "held",
        absorbing: true,
        empty: false,
    },
];
const WAVER_VALUES: [crate::chain::ValueInfo; 1] = [crate::chain::ValueInfo {
    name: "state",
    max: 3,
}];

impl Chain for Waver {
    type State = u8;
    fn start(&self) -> u8 {
        0
    }
    fn turns(&self) -> u32 {
        4
    }
    fn step<R: crate::dice::Roll>(&self, s: u8, r: &mut R) -> u8 {
        match (s, r.d6()) {
            (0, 1) | (1, 1) => 2,
            (0, 2 | 3) => 1,
            (0, 6) => 3,
            (1, 5 | 6) => 0,
            (s, _) => s,
        }
    }
    fn classes(&self) -> &[crate::chain::ClassInfo] {
        &WAVER_CLASSES
    }
    fn class_of(&self, s: u8) -> usize {
        usize::from(s)
    }
    fn values(&self) -> &[crate::chain::ValueInfo] {
        &WAVER_VALUES
    }
    fn value_of(&self, s: u8, _i: usize) -> u32 {
        u32::from(s)
    }
    fn check_step(&self, _from: u8, _to: u8) -> crate::chain::check::Check {
        Ok(())
    }
}

/// Every counter of the solution (absorptions by turn, classes after each turn, turns
/// stood empty, final classes and values) against a walk of all 6^4 sequences of scripted
/// dice, each counted by the layout's definitions rather than the solver's bookkeeping.
/// (Caught the mutants that miscounted the empty turns of a live or an absorbed trial, or
/// at the cap, and that subtracted or multiplied a class's mass after a turn.)
#[test]
fn every_counter_agrees_with_a_walk_of_all_dice() {
    let layout = Layout::of(&Waver);
    let turns = layout.turns;
    // Counted in whole paths, so the walk itself rounds nothing.
    let mut walk = vec![0u32; layout.len()];
    let paths = 6usize.pow(turns as u32);
    let each = 1;
    for path in 0..paths {
        let rolls: Vec<u8> = (0..turns)
            .map(|i| (path / 6usize.pow(i as u32) % 6 + 1) as u8)
            .collect();
        let mut dice = crate::dice::Scripted::new(&rolls);
        let (mut s, mut empty) = (Waver.start(), 0);
        for t in 1..=turns {
            let was_absorbed = WAVER_CLASSES[Waver.class_of(s)].absorbing;
            if !was_absorbed {
                s = Waver.step(s, &mut dice);
            }
            let c = Waver.class_of(s);
            if WAVER_CLASSES[c].absorbing {
                if !was_absorbed {
                    walk[layout.absorbed(c, t)] += each;
                }
            } else {
                walk[layout.live(t, c)] += each;
            }
            empty += usize::from(WAVER_CLASSES[c].empty);
        }
        walk[layout.final_(Waver.class_of(s))] += each;
        walk[layout.empty(empty)] += each;
        walk[layout.value(0, usize::from(s))] += each;
    }
    let solved = solve_chain(&Waver, "waver").unwrap();
    for (i, (a, &n)) in solved.iter().zip(&walk).enumerate() {
        let b = f64::from(n) / paths as f64;
        assert!((a - b).abs() < 1e-14, "counter {i}: solved {a}, walked {b}");
    }
    // Not all trivially zero: some trials waver, some are gone, some stood empty 4 turns.
    assert!(walk[layout.live(2, 1)] > 0 && walk[layout.absorbed(2, 3)] > 0);
    assert!(walk[layout.empty(4)] > 0 && walk[layout.empty(2)] > 0);
}

/// The progress display is told each turn as it starts and once at the end. (Caught the
/// mutants that told it turn t + 1 or t for t - 1.)
#[test]
fn progress_is_told_every_turn() {
    let told = std::cell::RefCell::new(Vec::new());
    let limit = Limit {
        progress: &|done, of| told.borrow_mut().push((done, of)),
        ..Limit::none()
    };
    solve_chain_within(&Waver, "waver", &limit).unwrap();
    assert_eq!(
        told.into_inner(),
        vec![(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]
    );
}

/// The bound on work counts by hand: the waverer's two states each enumerate one d6 once
/// (12 branches) and carry, turn by turn, their cells of empty counts along 4 and 3 moves:
/// 1×4, then 1×4 + 1×3, then 2×4 + 2×3, then 3×4 + 3×3, 46 in all; 58 steps. A bound of
/// 58 solves it to the same numbers as none; 57 stops it, naming the bound, on every
/// machine alike. (Caught a count of the moves alone, of the cells alone, and `>` for `>=`.)
#[test]
fn the_bound_on_work_counts_branches_and_carried_chances() {
    let free = solve_chain_within(&Waver, "waver", &Limit::none()).unwrap();
    let at = |work| {
        solve_chain_within(
            &Waver,
            "waver",
            &Limit {
                work: Some(work),
                ..Limit::none()
            },
        )
    };
    assert_eq!(at(58).unwrap(), free);
    for work in [0, 9, 57] {
        match at(work) {
            Err(Error::OverWork { scenario, steps }) => {
                assert_eq!((scenario.as_str(), steps), ("waver", work));
            }
            other => panic!("work {work}: {other:?}"),
        }
    }
}

/// The projection by hand: 2 s spent at the start of turn 2 of 5 with 3 live cells, after
/// 2 walked in turn 1, projects 2 × (1 + 3 × 4 / 5) = 6.8 s; with no cell walked yet it
/// is the time spent. (Caught the mutants of each operator of the projection.)
#[test]
fn the_budget_projects_by_hand_values() {
    let mut none = Projection::default();
    assert_eq!(none.project(0.5, 0, 1, 5), 0.5);
    let mut p = Projection::default();
    assert_eq!(p.project(1.0, 2, 1, 5), 1.0 * (1.0 + 10.0 / 2.0));
    assert!((p.project(2.0, 3, 2, 5) - 6.8).abs() < 1e-12);
    assert_eq!(p.walked, 5);
}

/// When a solve stops for a budget of 4 s: past 4 s spent whatever the projection; past
/// 1 s (a quarter) only if the projection passes 4 s; past 0.25 s (a sixteenth) only if it
/// passes 256 s; never at exactly either bound.
/// (Caught the mutants of each comparison, of `||` and `&&`, and of the quarter.)
#[test]
fn the_budget_stops_past_its_bounds() {
    for (spent, projected, stops) in [
        (5.0, 0.0, true),
        (4.0, 0.0, false),
        (4.0, 4.0, false),
        (2.0, 5.0, true),
        (2.0, 4.0, false),
        (2.0, 1.0, false),
        (1.0, 100.0, false),
        (0.5, 100.0, false),
        (1.5, 4.5, true),
        // Far over: a sixteenth of the budget spent on a projection 64 times past it.
        (0.3, 300.0, true),
        (0.2, 300.0, false),
        (0.3, 255.0, false),
    ] {
        assert_eq!(
            over_budget(spent, projected, 4.0),
            stops,
            "spent {spent}, projected {projected}"
        );
    }
}

/// A total chance off 1 by more than the tolerance is refused, naming the scenario; within
/// it, accepted. (Caught the mutant that refused only a total off by exactly the
/// tolerance; `>=` for `>` is equivalent, no total being off by exactly 1e-9.)
#[test]
fn a_solution_must_sum_to_one() {
    assert!(check_mass(1.0, "rally").is_ok());
    assert!(check_mass(1.0 - 1e-12, "rally").is_ok());
    for total in [1.0 + 2e-9, 1.0 - 2e-9, 0.5, 0.0] {
        let e = check_mass(total, "rally").unwrap_err();
        assert!(matches!(e, Error::Mass { .. }) && e.to_string().contains("rally"));
    }
}
