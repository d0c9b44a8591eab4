//! Trials per second of the hot loops (criterion reports them as elements/s).
//!
//! `rally`: the target case — Veteran, 7 stands, 2 lost, Routing, rallying until back in
//! good order or removed (turn cap 100, never reached in practice). `under-fire`: a Regular unit
//! of 8 stands under 4 dice hitting on 6 for 12 turns; an effectiveness-rules Regular unit under
//! 4 dice hitting on 5+ for 12 turns with the retreat amendment; `melee`: Linear Warfare Guards
//! (7 pips) charging Line (5 pips) behind an obstacle; Rank & File Veteran cavalry (6 stands)
//! against Regular infantry (8); effectiveness Regular against Regular. Each at 1 and 2 threads,
//! table and dice samplers. `line-battles` and `engagement-battles`: see [`battles`].

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use morale_lab::engine::{self, Control, RunSpec};
use morale_lab::rules::rank_and_file as rf;
use morale_lab::scenario::chain::{Chain, ChainSim, Sampler};
use morale_lab::scenario::fire::Fire;
use morale_lab::scenario::rally::RfRally;
use morale_lab::scenario::under_fire::RfUnderFire;

const TRIALS: u64 = 1 << 23;

fn unit(class: rf::Class, stands: u8) -> rf::Unit {
    rf::Unit {
        class,
        kind: rf::Kind::Formed,
        stands,
        elite: false,
        leader: 0,
        in_buildings: false,
        buildings_bonus: 1,
        modifier: 0,
        hit_points: 3,
    }
}

fn bench_chain<C: Chain + Clone>(c: &mut Criterion, name: &str, chain: C) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(TRIALS));
    group.sample_size(10);
    for sampler in [Sampler::Table, Sampler::Dice] {
        let sim = ChainSim::with_sampler(chain.clone(), sampler);
        for threads in [1, 2] {
            let spec = RunSpec {
                trials: TRIALS,
                seed: 1,
                stream: 0,
                threads: Some(threads),
            };
            group.bench_function(format!("{}/{threads}-threads", sampler.name()), |b| {
                b.iter(|| engine::run(&sim, &spec, &Control::new()).unwrap())
            });
        }
    }
    group.finish();
}

fn rally(c: &mut Criterion) {
    let start = rf::UnitState {
        status: rf::Status::Routing,
        lost: 2,
        rerolls: 0,
    };
    let chain = RfRally::new(
        unit(rf::Class::Veteran, 7),
        rf::Options::default(),
        start,
        100,
    );
    bench_chain(c, "rally-rank-and-file", chain);
}

fn under_fire(c: &mut Criterion) {
    let start = rf::UnitState {
        status: rf::Status::Good,
        lost: 0,
        rerolls: 0,
    };
    let chain = RfUnderFire::new(
        unit(rf::Class::Regular, 8),
        rf::Options::default(),
        start,
        12,
        Fire::dice(4, 6),
        true,
        true,
        false,
    );
    bench_chain(c, "under-fire-rank-and-file", chain);
}

fn under_fire_effectiveness(c: &mut Criterion) {
    use morale_lab::rules::effectiveness as ef;
    use morale_lab::scenario::under_fire::{EfUnderFire, Enemy};
    let unit = |class| ef::Unit {
        class,
        general: false,
        supported: false,
        natural_one_fails: false,
        return_on: 5,
    };
    let start = ef::UnitState {
        status: ef::Status::InLine,
        quarters: 4,
        hits: 0,
    };
    // The defaults of `morale-lab under-fire --system effectiveness --option retreat-on-fire`.
    let chain = EfUnderFire::new(
        unit(ef::Class::Regular),
        start,
        12,
        Fire::dice(4, 5),
        2,
        true,
        Enemy {
            unit: unit(ef::Class::Regular),
            fire: Fire::dice(4, 5),
        },
        None,
        true,
    );
    bench_chain(c, "under-fire-effectiveness", chain);
}

fn melee_linear_warfare(c: &mut Criterion) {
    use morale_lab::rules::linear_warfare::{Side, UnitType};
    use morale_lab::scenario::melee::{FollowUp, LwMelee};
    // The example: charging Guards (7 pips) against Line (5 pips) behind an obstacle.
    let side = |kind, pips, charging, obstacle| Side {
        kind,
        pips,
        stands: 6,
        charging,
        obstacle,
        general: false,
    };
    let chain = LwMelee::new(
        side(UnitType::Guards, 7, true, false),
        side(UnitType::Line, 5, false, true),
        FollowUp::Always,
        true,
        4,
        false,
    );
    bench_chain(c, "melee-linear-warfare", chain);
}

fn melee_rank_and_file_and_effectiveness(c: &mut Criterion) {
    use morale_lab::dice::Weights;
    use morale_lab::scenario::melee::{EfFight, RfFight};
    use morale_lab::system::effectiveness::parse_unit;
    use morale_lab::system::rank_and_file::parse_fighter;
    // Rank & File: Veteran cavalry (6 stands) against Regular infantry (8 stands).
    let (a, sa) = parse_fighter("--attacker", "veteran cavalry stands=6", &[]).unwrap();
    let (d, sd) = parse_fighter("--defender", "regular infantry stands=8", &[]).unwrap();
    let rules = rf::MeleeRules {
        to_hit: 4,
        hits_per_stand: 1,
        six_always_hits: true,
        auto_rout_on_win: false,
    };
    let chain = RfFight::new(a, d, [sa, sd], rf::Options::default(), rules, 200, None);
    bench_chain(c, "melee-rank-and-file", chain);
    // Effectiveness: Regular against Regular, 4 dice each at 4+.
    let (a, sa, _) = parse_unit("--attacker", "regular", false).unwrap();
    let chain = EfFight::new(
        a,
        a,
        [sa, sa],
        [Weights::hits(4, 4), Weights::hits(4, 4)],
        2,
        None::<Weights>,
        200,
    );
    bench_chain(c, "melee-effectiveness", chain);
}

/// Whole fights through the library's own builder: `line` 6 v 6 regular units a side (12
/// turns, side A charging shaken units) and `engagement` 1 v 1, in every system (battles per
/// second).
fn battles(c: &mut Criterion) {
    use morale_lab::params::Input;
    use morale_lab::scenario::RunOptions;
    const BATTLES: u64 = 1 << 18;
    for (scenario, specs) in [
        ("line", ["attacker=6 x regular", "defender=6 x regular"]),
        ("engagement", ["attacker=regular", "defender=regular"]),
    ] {
        let mut group = c.benchmark_group(format!("{scenario}-battles"));
        group.throughput(Throughput::Elements(BATTLES));
        group.sample_size(10);
        for (system, unit) in [
            ("rank-and-file", "regular infantry"),
            ("effectiveness", "regular"),
            ("linear-warfare", "line"),
        ] {
            let pairs: Vec<Input> = specs
                .iter()
                .map(|s| Input::parse_set(&s.replace("regular", unit)).unwrap())
                .collect();
            let job = morale_lab::system::build(system, scenario, &pairs, &[]).unwrap();
            for threads in [1, 2] {
                let options = RunOptions {
                    spec: RunSpec {
                        trials: BATTLES,
                        seed: 1,
                        stream: 0,
                        threads: Some(threads),
                    },
                    confidence: 0.95,
                    exact_only: false,
                    sampler: Sampler::Dice,
                    precision: None,
                };
                group.bench_function(format!("{system}/{threads}-threads"), |b| {
                    b.iter(|| job.run(&options, &Control::new()).unwrap())
                });
            }
        }
        group.finish();
    }
}

criterion_group!(
    benches,
    battles,
    melee_rank_and_file_and_effectiveness,
    rally,
    under_fire,
    under_fire_effectiveness,
    melee_linear_warfare
);
criterion_main!(benches);
