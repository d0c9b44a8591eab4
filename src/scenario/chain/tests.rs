//! Tests of the table sampler against the exact solution and the dice sampler.

use super::*;
use crate::scenario::fire::Fire;
use crate::system::effectiveness::rules::{Class, Status, Unit, UnitState};
use crate::system::effectiveness::under_fire::{EfUnderFire, Enemy};

/// The effectiveness bench case: a Regular unit under 4 dice at 5+ for 12 turns, 2 hits a
/// quarter, with the retreat amendment and a retreat blocked 1 time in 6.
fn ef_under_fire(turns: u32) -> EfUnderFire {
    let unit = Unit {
        class: Class::Regular,
        general: false,
        supported: false,
        natural_one_fails: false,
        return_on: 5,
        troop: crate::system::effectiveness::rules::Troop::Infantry,
        return_roll: true,
        retreat_turns: 1,
        numbers: Default::default(),
    };
    let start = UnitState {
        status: Status::InLine,
        quarters: 4,
        hits: 0,
        out: 0,
    };
    let enemy = Enemy {
        unit,
        fire: Fire::dice(4, 5),
        hits_per_quarter: 2,
    };
    let blocked = Weights::new(vec![5, 1]);
    EfUnderFire {
        unit,
        start,
        turns,
        fire: Fire::dice(4, 5),
        hits_per_quarter: 2,
        retreat_on_fire: true,
        enemy,
        blocked,
        retreat_out_of_range: false,
    }
}

#[test]
fn blocks_cover_the_turns_after_the_opening_with_the_exact_chances() {
    for turns in [1, 2, 5, 12, 24] {
        let sim = ChainSim::with_sampler(ef_under_fire(turns), Sampler::Table);
        let op = sim.opening.as_ref().expect("an opening");
        match &sim.blocks {
            Some(b) => assert!(b.k >= 2 && op.turns < turns as usize),
            None => assert!(op.turns >= turns as usize, "{turns} turns: no blocks"),
        }
        sim.check_tables().unwrap();
    }
}

#[test]
fn check_tables_catches_a_wrong_weight() {
    let mut sim = ChainSim::with_sampler(ef_under_fire(12), Sampler::Table);
    let b = sim.blocks.as_mut().expect("blocks");
    // Move half the weight of the likeliest outcome of the first table with two or more
    // outcomes to the next likeliest (the total, and so every other check, unchanged). Not to
    // just any other: two eliminated states that differ only in what they had left are the
    // same end (every quarter lost), and a move between them changes nothing to catch.
    let bt = b.tables.iter_mut().find(|t| t.weights.len() > 1).unwrap();
    let mut w: Vec<u64> = (0..bt.weights.len())
        .map(|i| bt.weights.weight(i))
        .collect();
    let i = (0..w.len()).max_by_key(|&i| w[i]).unwrap();
    let j = (0..w.len())
        .filter(|&j| j != i)
        .max_by_key(|&j| w[j])
        .unwrap();
    let moved = w[i] / 2;
    w[i] -= moved;
    w[j] += moved;
    bt.weights = Weights::new(w).unwrap();
    let err = sim.check_tables().unwrap_err();
    assert!(err.contains("exact solution"), "{err}");
}

#[test]
fn block_and_turn_by_turn_samplers_agree_in_distribution() {
    // The same chain with and without blocks: every cell of 2^20 trials of each is within
    // what two binomial samples of the same chance allow (|a − b| ≤ 5.5 σ of the
    // difference, a two-sided level near 4e-8 per cell).
    let with = ChainSim::with_sampler(ef_under_fire(12), Sampler::Table);
    let mut without = with.clone();
    without.blocks = None;
    let n = 1u64 << 20;
    let run = |sim: &ChainSim<EfUnderFire>| {
        let mut raw = vec![0u64; sim.tally_len()];
        let mut dice = Dice::for_chunk(11, 0, 0);
        sim.run_chunk(&mut dice, n, &mut raw);
        sim.finish(&raw)
    };
    let (a, b) = (run(&with), run(&without));
    let exact = crate::exact::solve_chain(&with.chain, "t").unwrap();
    for (i, p) in exact.iter().enumerate() {
        let sd = (2.0 * p * (1.0 - p) / n as f64).sqrt();
        let d = (a[i] as f64 - b[i] as f64) / n as f64;
        assert!(
            d.abs() <= 5.5 * sd + 1e-12,
            "cell {i}: {} v {} (p {p})",
            a[i],
            b[i]
        );
    }
}

/// Trees of dice and picks, packed, roll as the rules code does: with two tables (the fire's
/// and the blocked retreat's) each pick from the table its node names, with one (no retreat
/// blocked: our fire and the enemy's are the same table) from the one the walk holds, with
/// the counts by turn and key in the walk's small array (12 turns) or not (40); and a tree
/// that leads one outcome elsewhere is caught.
#[test]
fn the_dice_samplers_trees_roll_as_the_rules_code_does() {
    let cases = [(true, false, 12), (false, true, 12), (false, true, 40)];
    for (blocked, one, turns) in cases {
        let mut chain = ef_under_fire(turns);
        if !blocked {
            chain.blocked = None;
        }
        let sim = ChainSim::with_sampler(chain, Sampler::Dice);
        let trees = sim.trees.as_ref().expect("the chain has trees");
        assert!(trees.dice().is_none());
        let packed = trees.picks().expect("trees of dice and picks, packed");
        assert_eq!(packed.one_table(), one);
        assert_eq!(sim.sampler(), Sampler::Dice);
        sim.check_trees(1 << 16, 5).unwrap();
        // A tree that leads one face of one die elsewhere is caught.
        let mut off = sim.clone();
        let trees = off.trees.as_mut().unwrap();
        trees.mislead();
        let err = off.check_trees(1 << 16, 5).unwrap_err();
        assert!(err.contains("replay trees"), "{err}");
    }
}

/// A chain of one die a turn (two when `reroll` and the first shows a 1): steady (0) wavers on
/// a 2 or 3 and is held on a 6; wavering (1) steadies on a 5 or 6; either is gone on a 1. Its
/// live classes' places stand empty as `classes` says.
#[derive(Debug, Clone)]
struct Toy {
    classes: &'static [crate::chain::ClassInfo; 4],
    reroll: bool,
    turns: u32,
}

const fn toy_classes(steady: bool, wavering: bool) -> [crate::chain::ClassInfo; 4] {
    use crate::chain::ClassInfo;
    [
        ClassInfo {
            name: "steady",
            absorbing: false,
            empty: steady,
        },
        ClassInfo {
            name: "wavering",
            absorbing: false,
            empty: wavering,
        },
        ClassInfo {
            name: "gone",
            absorbing: true,
            empty: true,
        },
        ClassInfo {
            name: "held",
            absorbing: true,
            empty: false,
        },
    ]
}

const TOY_NONE: [crate::chain::ClassInfo; 4] = toy_classes(false, false);
const TOY_ALL: [crate::chain::ClassInfo; 4] = toy_classes(true, true);
const TOY_SOME: [crate::chain::ClassInfo; 4] = toy_classes(false, true);
const TOY_VALUES: [crate::chain::ValueInfo; 1] = [crate::chain::ValueInfo {
    name: "state",
    max: 3,
}];

impl Chain for Toy {
    type State = u8;
    fn start(&self) -> u8 {
        0
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    fn step<R: Roll>(&self, s: u8, r: &mut R) -> u8 {
        let mut d = r.d6();
        if self.reroll && d == 1 {
            d = r.d6();
        }
        match (s, d) {
            (_, 1) => 2,
            (0, 2 | 3) => 1,
            (0, 6) => 3,
            (1, 5 | 6) => 0,
            (s, _) => s,
        }
    }
    fn classes(&self) -> &[crate::chain::ClassInfo] {
        self.classes
    }
    fn class_of(&self, s: u8) -> usize {
        usize::from(s)
    }
    fn values(&self) -> &[crate::chain::ValueInfo] {
        &TOY_VALUES
    }
    fn value_of(&self, s: u8, _i: usize) -> u32 {
        u32::from(s)
    }
    fn check_step(&self, _from: u8, _to: u8) -> crate::chain::check::Check {
        Ok(())
    }
}

/// The walk of trees of dice only (moves counted by node, the empty turns counted per turn,
/// at the end or not at all as the live classes stand empty, turns of one die or two, a turn
/// cap of 1, one no trial lives to, and one whose counts by turn and key are too many for the
/// walk's small array) keeps the rules code's tally to the bit, and a tree
/// that leads a face elsewhere is caught.
#[test]
fn trees_of_dice_only_roll_as_the_rules_code_does() {
    for classes in [&TOY_NONE, &TOY_ALL, &TOY_SOME] {
        for reroll in [false, true] {
            for turns in [1, 3, 40, 1000] {
                let toy = Toy {
                    classes,
                    reroll,
                    turns,
                };
                let sim = ChainSim::with_sampler(toy, Sampler::Dice);
                let trees = sim.trees.as_ref().expect("the chain has trees");
                assert!(trees.dice().is_some(), "trees of dice only");
                sim.check_trees(1 << 14, 9).unwrap();
                let mut off = sim.clone();
                off.trees.as_mut().unwrap().mislead();
                let err = off.check_trees(1 << 14, 9).unwrap_err();
                assert!(err.contains("replay trees"), "{err}");
            }
        }
    }
}

/// A small chain with a series and a part of its state that only accumulates: a unit of four
/// stands loses one on a 5+ each turn (gone at four), and counts the turns it lost a stand on
/// a 6 (set aside in its core, carried back).
#[derive(Debug, Clone)]
struct Wearing;

const WEARING_CLASSES: [ClassInfo; 2] = [
    ClassInfo {
        name: "standing",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "gone",
        absorbing: true,
        empty: true,
    },
];

const WEARING_SERIES: [crate::chain::ValueInfo; 2] = [
    crate::chain::ValueInfo {
        name: "lost",
        max: 4,
    },
    crate::chain::ValueInfo {
        name: "sixes",
        max: 12,
    },
];

impl Chain for Wearing {
    type State = (u8, u8);
    fn start(&self) -> (u8, u8) {
        (0, 0)
    }
    fn turns(&self) -> u32 {
        12
    }
    fn step<R: Roll>(&self, (lost, sixes): (u8, u8), r: &mut R) -> (u8, u8) {
        let d = r.d6();
        (lost + u8::from(d >= 5), sixes + u8::from(d == 6))
    }
    fn core(&self, (lost, _): (u8, u8)) -> (u8, u8) {
        (lost, 0)
    }
    fn accumulated(&self, (_, sixes): (u8, u8)) -> u64 {
        u64::from(sixes)
    }
    fn state_of_parts(&self, (lost, _): (u8, u8), sixes: u64) -> (u8, u8) {
        (lost, sixes as u8)
    }
    fn carry(&self, (_, sixes): (u8, u8), (lost, more): (u8, u8)) -> (u8, u8) {
        (lost, sixes + more)
    }
    fn carried(&self, sixes: u64, more: u64) -> u64 {
        sixes + more
    }
    fn classes(&self) -> &[ClassInfo] {
        &WEARING_CLASSES
    }
    fn class_of(&self, (lost, _): (u8, u8)) -> usize {
        usize::from(lost >= 4)
    }
    fn values(&self) -> &[crate::chain::ValueInfo] {
        &WEARING_SERIES
    }
    fn value_of(&self, (lost, sixes): (u8, u8), i: usize) -> u32 {
        u32::from([lost, sixes][i])
    }
    fn check_step(&self, _: (u8, u8), _: (u8, u8)) -> crate::chain::check::Check {
        Ok(())
    }
    fn series(&self) -> &[crate::chain::ValueInfo] {
        &WEARING_SERIES
    }
    fn series_of(&self, s: (u8, u8), i: usize) -> u32 {
        self.value_of(s, i)
    }
}

#[test]
fn a_chain_with_series_compiles_by_its_cores() {
    let sim = ChainSim::with_sampler(Wearing, Sampler::Table);
    let fight = sim.fight.as_ref().expect("a fight's table");
    // Four cores with moves (0–3 stands lost) and the unit gone: exact weights, a die's six
    // faces in three moves (a stand kept, lost on a 5, lost on a 6).
    assert_eq!(fight.cores.len(), 5);
    assert_eq!(fight.exact_cores, 4);
    assert_eq!(fight.next.len(), 12);
    assert_eq!(sim.sampler(), Sampler::Table);
    sim.check_tables().unwrap();
    // The dice sampler rolls through the rules code.
    let dice = ChainSim::with_sampler(Wearing, Sampler::Dice);
    assert!(dice.fight.is_none());
    assert_eq!(dice.sampler(), Sampler::Dice);
}

#[test]
fn check_tables_catches_a_wrong_weight_of_a_fight() {
    let mut sim = ChainSim::with_sampler(Wearing, Sampler::Table);
    let fight = sim.fight.as_mut().expect("a fight's table");
    // A stand still lost one time in three, but on a 6 a quarter of those times, not half: the
    // classes' chances stay, the count of sixes moves.
    fight.cores[0].weights = Some(Weights::new(vec![8, 3, 1]).unwrap());
    let err = sim.check_tables().unwrap_err();
    assert!(err.contains("fight table"), "{err}");
}

#[test]
fn a_fight_table_samples_as_the_dice_do() {
    // Every cell of 2^18 trials by the fight's table and by the dice agree within what two
    // binomial samples of the same chance allow (5.5 σ of the difference), series means too.
    let table = ChainSim::with_sampler(Wearing, Sampler::Table);
    let dice = ChainSim::with_sampler(Wearing, Sampler::Dice);
    let exact = crate::exact::solve_chain(&Wearing, "wearing").unwrap();
    let n = 1u64 << 18;
    for (sim, seed) in [(&table, 5), (&dice, 6)] {
        let mut raw = vec![0u64; sim.tally_len()];
        let mut d = Dice::for_chunk(seed, 0, 0);
        sim.run_chunk(&mut d, n, &mut raw);
        let got = sim.finish(&raw);
        let l = &sim.layout;
        for c in 0..l.classes {
            let p = exact[l.final_(c)];
            let sd = (n as f64 * p * (1.0 - p)).sqrt();
            assert!(
                (got[l.final_(c)] as f64 - n as f64 * p).abs() <= 5.5 * sd + 1.0,
                "{:?} class {c}: {} of {n}, exact {p}",
                sim.sampler(),
                got[l.final_(c)]
            );
        }
        for i in 0..2 {
            let at = l.series_sum(i, 12);
            let (mean, square) = (exact[at], exact[at + 1]);
            let sd = (square - mean * mean).max(0.0).sqrt() / (n as f64).sqrt();
            let est = got[at] as f64 / n as f64;
            assert!(
                (est - mean).abs() <= 5.5 * sd,
                "{:?} series {i}: {est}, exact {mean}",
                sim.sampler()
            );
        }
    }
}
