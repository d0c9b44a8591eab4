//! Tests of `dice`, kept beside it.

use super::*;

/// A conditional die is the branch it replaces: over a long run of conditions (pools
/// refilled many times over, conditions in runs and alone), the same faces, and the dice
/// left in the same state for what follows.
#[test]
fn conditional_die_is_the_branch_it_replaces() {
    let (mut fast, mut plain) = (Dice::from_state(11), Dice::from_state(11));
    let mut cond = Dice::from_state(12);
    let mut rolled = 0;
    for k in 0..100_000u32 {
        // Runs of rolls and of skips, and coin flips.
        let roll = match k % 3 {
            0 => cond.below(2) == 0,
            1 => k % 40 < 25,
            _ => cond.below(7) != 0,
        };
        let want = if roll { plain.d6() } else { 0 };
        assert_eq!(fast.d6_if(roll), want, "draw {k}");
        rolled += u32::from(roll);
    }
    assert!(rolled > 20_000, "the run rolled {rolled} dice");
    for _ in 0..100 {
        assert_eq!(fast.d6(), plain.d6());
    }
    assert_eq!(fast.next_u64(), plain.next_u64());
}

#[test]
fn hit_tables_of_certain_hits_and_misses() {
    let all = Weights::hits(MAX_TABLE_DICE, 1);
    assert_eq!(all.p(24), 1.0);
    let none = Weights::hits(MAX_TABLE_DICE, 7);
    assert_eq!(none.p(0), 1.0);
}

#[test]
fn large_volleys_sum_their_tables_exactly() {
    // 45 dice at 4+: Binomial(45, 1/2), in tables of 24 and 21 dice.
    let h = Hits::dice(45, 4, MAX_TABLE_DICE);
    assert_eq!(h.parts().len(), 2);
    assert_eq!(h.max(), 45);
    let mut c = 1u128; // C(45, k)
    for k in 0..=45usize {
        let (w, den) = h.exact(k).unwrap();
        assert_eq!(den, 6u128.pow(45));
        assert_eq!(w, c * 3u128.pow(45), "k = {k}");
        assert!((h.pmf()[k] / (c as f64 / 2f64.powi(45)) - 1.0).abs() < 1e-12);
        c = c * (45 - k as u128) / (k as u128 + 1);
    }
    assert!((h.mean() - 22.5).abs() < 1e-12);
    // Past 6^49 the exact weights do not fit; the chances still do.
    let big = Hits::dice(200, 6, 20);
    assert!(big.exact(0).is_none());
    assert!((big.pmf().iter().sum::<f64>() - 1.0).abs() < 1e-12);
    // Dice draw one number per table.
    let mut d = Dice::from_state(5);
    assert!((0..1000).all(|_| d.hits(&h) <= 45));
    // An odd number of tables: 30 dice at 5+ in three tables of 10. (Caught the mutant
    // that subtracted each product in the convolution, whose signs cancel over an even
    // number of tables.)
    let odd = Hits::dice(30, 5, 10);
    assert_eq!(odd.parts().len(), 3);
    assert!(odd.pmf().iter().all(|&p| p >= 0.0));
    assert!((odd.pmf().iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!((odd.mean() - 10.0).abs() < 1e-12);
}

/// A volley's hits are the sum of one draw from each of its tables: scripted draws of 3
/// from the 24-dice table and 2 from the 6-dice one make 5. (Caught the mutants that made
/// `Roll::hits` always 0 or 1.)
#[test]
fn a_volley_sums_one_draw_per_table() {
    let h = Hits::dice(30, 5, MAX_TABLE_DICE);
    let mut script = Scripted::new(&[3, 2]);
    assert_eq!(script.hits(&h), 5);
    assert_eq!(script.used(), 2);
}

/// Two volleys are equal exactly when their tables are: the same dice and target, split
/// the same way. (Caught the mutants that made every volley equal, none, or the test
/// inverted.)
#[test]
fn volleys_are_equal_when_their_tables_are() {
    let h = Hits::dice(30, 5, MAX_TABLE_DICE);
    assert_eq!(h, Hits::dice(30, 5, MAX_TABLE_DICE));
    assert_ne!(h, Hits::dice(30, 4, MAX_TABLE_DICE));
    assert_ne!(h, Hits::dice(30, 5, 10));
    assert_ne!(h, Hits::dice(29, 5, MAX_TABLE_DICE));
}

#[test]
fn dice_seed_from_and_serve_as_a_rand_generator() {
    let mut a = Pcg64Mcg::new(7);
    let mut b = Pcg64Mcg::new(7);
    let (mut x, mut y) = (Dice::from_rng(&mut a), Dice::from_rng(&mut b));
    let rolls = |d: &mut Dice| (0..50).map(|_| d.d6()).collect::<Vec<_>>();
    assert_eq!(rolls(&mut x), rolls(&mut y));
    let mut z = Dice::from_rng(&mut a);
    assert_ne!(rolls(&mut z), rolls(&mut x), "the generator moved on");
    // As a `rand` generator it yields the same raw draws as `next_u64`.
    let (mut p, mut q) = (Dice::from_state(3), Dice::from_state(3));
    let generic = |r: &mut dyn rand_core::Rng| r.next_u64();
    assert_eq!(generic(&mut p), q.next_u64());
}

#[test]
fn pool_limit_is_a_multiple_below_two_to_the_64() {
    assert_eq!(POOL_LIMIT % SIX_POW_20, 0);
    assert!(u128::from(POOL_LIMIT) + u128::from(SIX_POW_20) > u128::from(u64::MAX));
    assert_eq!(6u64.pow(20), SIX_POW_20);
}

#[test]
fn d6_faces_are_uniform_chi_square() {
    // 600k dice; chi-square with 5 degrees of freedom: P(X > 20.5) ≈ 0.001.
    let mut d = Dice::for_chunk(7, 0, 0);
    let mut counts = [0u64; 6];
    let n = 600_000u64;
    for _ in 0..n {
        counts[usize::from(d.d6() - 1)] += 1;
    }
    let e = n as f64 / 6.0;
    let chi: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
    assert!(chi < 20.5, "chi-square {chi} counts {counts:?}");
}

/// Each face's share of `n` draws lies within `Z` binomial standard errors of `p`.
fn within(what: &str, counts: &[u64], p: &[f64], n: u64) {
    // Two-sided 1e-6 per face (z = 4.89), fixed seeds: the test repeats to the bit.
    const Z: f64 = 4.89;
    for (i, (&c, &p)) in counts.iter().zip(p).enumerate() {
        let share = c as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!(
            (share - p).abs() <= Z * se,
            "{what}: outcome {i} {share} against {p} (s.e. {se}, counts {counts:?})"
        );
    }
}

/// 120 million dice: each face within 1.7e-4 of 1/6 (4.89 standard errors of 3.4e-5). A
/// bias of one six in 256 turned into another face moves the sixes by 6.5e-4, 19 standard
/// errors (mutation tried: `d6` returning 1 for a six when the pool's low byte is 0 makes
/// this test fail; the 600,000-dice chi-square above passes it).
#[test]
fn d6_faces_are_uniform_to_a_part_in_six_thousand() {
    let mut d = Dice::for_chunk(20_261_124, 0, 0);
    let n = 120_000_000u64;
    let mut counts = [0u64; 6];
    for _ in 0..n {
        counts[usize::from(d.d6() - 1)] += 1;
    }
    within("d6", &counts, &[1.0 / 6.0; 6], n);
}

/// The alias picks of a six-face table and of a hit table, 50 million each, within 4.89
/// standard errors of their exact chances (mutations tried: `resolve` keeping its own
/// outcome at `r == cut`, and the bucket taken from one bit fewer: each makes this test
/// fail).
#[test]
fn alias_picks_are_exact_to_a_part_in_ten_thousand() {
    for (what, t) in [
        ("six faces", Weights::new(vec![1; 6]).unwrap()),
        ("hits of 4 dice on 5+", Weights::hits(4, 5)),
        (
            "lopsided",
            Weights::new(vec![1000, 1, 7, 300, 0, 2]).unwrap(),
        ),
    ] {
        let mut d = Dice::for_chunk(20_261_124, 1, 2);
        let n = 50_000_000u64;
        let mut counts = vec![0u64; t.len()];
        for _ in 0..n {
            counts[d.pick(&t)] += 1;
        }
        let p: Vec<f64> = (0..t.len()).map(|i| t.p(i)).collect();
        within(what, &counts, &p, n);
    }
}

/// A draw whose unit falls below Lemire's threshold is redrawn whole: the pick is the
/// second draw's, and exactly two draws are spent. The table's total makes about one draw
/// in 513 a rejection, so a seed with a rejected first draw is found quickly (mutation
/// tried: the rejection removed, whose bias of under 1 in 2^55 no sampling test could see,
/// makes this test fail).
#[test]
fn a_rejected_draw_is_drawn_again() {
    let total = u64::MAX / 513;
    let t = Weights::new(vec![total / 3, total - total / 3]).unwrap();
    assert!(!t.wide && t.bits == 1);
    assert!(
        t.threshold > u128::from(total) / 2,
        "about 1 in 513 rejected"
    );
    let k = t.bits;
    let low_of = |x: u64| (u128::from(x << k) * u128::from(t.total)) as u64;
    let mut found = 0;
    for chunk in 0..100_000u64 {
        let mut d = Dice::for_chunk(5, 5, chunk);
        let mut peek = d.clone();
        let (x1, x2, x3) = (peek.next_u64(), peek.next_u64(), peek.next_u64());
        if u128::from(low_of(x1)) >= t.threshold || u128::from(low_of(x2)) < t.threshold {
            continue;
        }
        let b = (x2 >> (64 - k)) as usize;
        let r = ((u128::from(x2 << k) * u128::from(t.total)) >> 64) as u64;
        assert_eq!(d.pick(&t), t.resolve(b, r), "chunk {chunk}");
        assert_eq!(d.next_u64(), x3, "chunk {chunk}: two draws spent");
        found += 1;
        if found == 20 {
            break;
        }
    }
    assert_eq!(found, 20, "rejected first draws found");
}

#[test]
fn consecutive_dice_are_independent_pairs() {
    // 36 cells of (die, next die); chi-square with 35 df: P(X > 66.6) ≈ 0.001.
    let mut d = Dice::for_chunk(11, 3, 5);
    let mut counts = [0u64; 36];
    let n = 720_000u64;
    for _ in 0..n {
        let a = usize::from(d.d6() - 1);
        let b = usize::from(d.d6() - 1);
        counts[a * 6 + b] += 1;
    }
    let e = n as f64 / 36.0;
    let chi: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
    assert!(chi < 66.6, "chi-square {chi}");
}

#[test]
fn hit_tables_count_dice_sequences() {
    let t = Weights::hits(6, 4);
    assert_eq!(t.total(), 6u64.pow(6));
    assert_eq!(t.weight(0), 3u64.pow(6)); // 1/64 of 6^6
    let mean: f64 = (0..t.len()).map(|k| k as f64 * t.p(k)).sum();
    assert!((mean - 3.0).abs() < 1e-12);
    let never = Weights::hits(3, 7);
    assert_eq!(never.weight(0), never.total());
    let always = Weights::hits(3, 1);
    assert_eq!(always.weight(3), always.total());
    assert_eq!(Weights::hits(24, 5).total(), 6u64.pow(24));
}

#[test]
fn below_and_pick_stay_in_range() {
    let mut d = Dice::for_chunk(1, 2, 3);
    for n in [1u64, 2, 3, 6, 7, 1 << 40, u64::MAX] {
        for _ in 0..1000 {
            assert!(d.below(n) < n);
        }
    }
    let t = Weights::new(vec![0, 5, 0, 1]).unwrap();
    for _ in 0..1000 {
        let i = d.pick(&t);
        assert!(i == 1 || i == 3);
    }
    assert!(Weights::new(vec![0, 0]).is_none());
    assert!(Weights::new(vec![u64::MAX, 1]).is_none());
}

/// Every outcome owns exactly `weight · buckets` units across the buckets.
fn assert_exact(t: &Weights) {
    let m = t.buckets.len();
    assert_eq!(m, 1 << t.bits);
    let mut units = vec![0u128; m];
    for (b, &(cut, alias)) in t.buckets.iter().enumerate() {
        assert!(cut <= t.total);
        units[b] += u128::from(cut);
        units[alias as usize] += u128::from(t.total - cut);
    }
    for (i, &u) in units.iter().enumerate() {
        let w = if i < t.len() { t.weight(i) } else { 0 };
        assert_eq!(u, u128::from(w) * m as u128, "outcome {i}");
    }
}

#[test]
fn alias_buckets_hold_each_outcome_exactly() {
    let mut d = Dice::for_chunk(9, 9, 9);
    for n in [1usize, 2, 3, 5, 8, 13, 50, 4097] {
        let w: Vec<u64> = (0..n).map(|_| d.below(1 << 20)).collect();
        if let Some(t) = Weights::new(w) {
            assert_exact(&t);
        }
    }
    for dice in [1, 4, 12, 20, 24] {
        let t = Weights::hits(dice, 4);
        assert_exact(&t);
        // 6^20 ≈ 2^51.7 > 2^(56 − 5): 21 outcomes in 32 buckets.
        assert_eq!(t.wide, dice >= 20);
    }
    // Totals that need every bit take a 128-bit draw.
    let big = Weights::new(vec![u64::MAX / 20; 20]).unwrap();
    assert!(big.wide);
    assert_exact(&big);
    let lopsided = Weights::new(vec![u64::MAX - 3, 1, 1, 0, 1]).unwrap();
    assert_exact(&lopsided);
}

#[test]
fn rejection_thresholds_are_lemires() {
    // total 3 in 2 buckets: the unit comes from 63 bits, threshold (2^63 mod 3) << 1.
    let t = Weights::new(vec![1, 2]).unwrap();
    assert!(!t.wide);
    assert_eq!(t.threshold, (1u128 << 63) % 3 * 2);
    assert_exact(&t);
    // A wide table's threshold is 2^(128 − k) mod total, shifted up by k.
    let total = 3 * (1u64 << 60) + 7;
    let w = Weights::new(vec![total - 5, 2, 3]).unwrap();
    assert!(w.wide);
    assert_eq!(w.threshold, ((1u128 << 126) % u128::from(total)) << 2);
    assert_exact(&w);
}

#[test]
fn alias_picks_agree_with_the_exact_chances() {
    // Chi-square over 50 outcomes (49 df, P(X > 94.5) ≈ 1e-4), one-draw and two-draw tables.
    let w: Vec<u64> = (0..50).map(|i| (i * 7919 % 13) as u64).collect();
    let scaled: Vec<u64> = w.iter().map(|&x| x * (u64::MAX / 700)).collect();
    for t in [Weights::new(w).unwrap(), Weights::new(scaled).unwrap()] {
        let mut d = Dice::for_chunk(3, 1, 4);
        let mut counts = vec![0u64; 50];
        let n = 500_000u64;
        for _ in 0..n {
            counts[d.pick(&t)] += 1;
        }
        let chi: f64 = (0..50)
            .filter(|&i| t.weight(i) > 0)
            .map(|i| {
                let e = n as f64 * t.p(i);
                (counts[i] as f64 - e).powi(2) / e
            })
            .sum();
        assert!(chi < 94.5, "chi-square {chi}");
        assert!((0..50).all(|i| t.weight(i) > 0 || counts[i] == 0));
    }
}

#[test]
fn chunks_get_different_streams() {
    let a: Vec<u8> = {
        let mut d = Dice::for_chunk(1, 0, 0);
        (0..32).map(|_| d.d6()).collect()
    };
    let b: Vec<u8> = {
        let mut d = Dice::for_chunk(1, 0, 1);
        (0..32).map(|_| d.d6()).collect()
    };
    let c: Vec<u8> = {
        let mut d = Dice::for_chunk(1, 0, 0);
        (0..32).map(|_| d.d6()).collect()
    };
    assert_ne!(a, b);
    assert_eq!(a, c);
}

/// SplitMix64's finaliser gives its published outputs: the generator's first two from
/// state 0 (mix64 adds the golden-ratio increment itself). (Caught the mutants of each
/// shift and exclusive-or.)
#[test]
fn mix64_is_splitmix64s_finaliser() {
    assert_eq!(mix64(0), 0xE220_A839_7B1D_CDAF);
    assert_eq!(mix64(0x9E37_79B9_7F4A_7C15), 0x6E78_9E6A_A1B9_65F4);
    assert_eq!(mix64(12_345), 0x2211_8258_A9D1_11A0);
}

/// A chunk's generator state, worked out apart from the code (by the formula in
/// `for_chunk`'s comment, in another language): (seed 20261124, stream 3, chunk 7) starts
/// at hi = 0xFA84…9642, lo = 0xEA27…10EB. Every committed report rests on this
/// derivation; a change to it changes them all. (Caught the mutants of its exclusive-ors,
/// `|` and shift; `^` for the `|` joining the halves is equivalent, the halves not
/// overlapping.)
#[test]
fn a_chunks_state_is_pinned() {
    let state = (0xFA84_71D3_4F19_9642u128 << 64) | 0xEA27_9661_3E36_10EB;
    let (mut a, mut b) = (Dice::for_chunk(20_261_124, 3, 7), Dice::from_state(state));
    for _ in 0..8 {
        assert_eq!(a.next_u64(), b.next_u64());
    }
}

/// `from_rng` takes its first 64 bits as the state's high half and the next as its low.
/// (Caught `&` for `|` and the shift reversed; `^` for `|` is equivalent.)
#[test]
fn from_rng_takes_the_high_half_first() {
    struct Two(u64);
    impl rand_core::TryRng for Two {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            unreachable!()
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            self.0 += 1;
            Ok(self.0 * 0x1234_5678_9ABC)
        }
        fn try_fill_bytes(&mut self, _dst: &mut [u8]) -> Result<(), Self::Error> {
            unreachable!()
        }
    }
    let mut d = Dice::from_rng(&mut Two(0));
    let mut e = Dice::from_state((0x1234_5678_9ABCu128 << 64) | 0x2468_ACF1_3578);
    assert_eq!(d.next_u64(), e.next_u64());
}

/// As a `rand` generator, `Dice` gives its raw draws: 32 bits are the low half of a 64-bit
/// draw, and bytes are the draws' little-endian bytes in order. (Caught the mutants that
/// answered 0 or 1, or filled nothing.)
#[test]
fn rand_draws_are_the_raw_draws() {
    use rand_core::Rng;
    let (mut d, mut raw) = (Dice::from_state(99), Dice::from_state(99));
    assert_eq!(d.next_u32(), raw.next_u64() as u32);
    let mut bytes = [0u8; 16];
    d.fill_bytes(&mut bytes);
    let want: Vec<u8> = (0..2).flat_map(|_| raw.next_u64().to_le_bytes()).collect();
    assert_eq!(bytes.to_vec(), want);
}

/// `below(n)` is Lemire's method, checked against its plain statement on the same raw
/// draws: take x; if the low word of x·n is below 2^64 mod n, draw again; answer the high
/// word. With n = 2^63 + 1 half of all draws are rejected, so rejection is exercised
/// every few calls. (Caught every mutant of `below`'s arithmetic and comparisons.)
#[test]
fn below_is_lemires_method() {
    let mut d = Dice::for_chunk(4, 4, 4);
    let mut raw = d.clone();
    for n in [
        1u64,
        2,
        3,
        6,
        7,
        1000,
        (1 << 63) + 1,
        u64::MAX - 1,
        u64::MAX,
    ] {
        let threshold = ((1u128 << 64) % u128::from(n)) as u64;
        for _ in 0..200 {
            let want = loop {
                let m = u128::from(raw.next_u64()) * u128::from(n);
                if (m as u64) >= threshold {
                    break (m >> 64) as u64;
                }
            };
            assert_eq!(d.below(n), want, "n = {n}");
        }
    }
    assert_eq!(d.next_u64(), raw.next_u64(), "the same draws spent");
    // A low word exactly at the threshold is kept: for n = 2^63 + 1 the threshold is
    // 2^63 − 1, the low word of (2^64 − 1) · n. (Caught `<=` for the loop's `<`; `<=` for
    // the `<` before it is equivalent, the threshold being below n.)
    let n = (1u64 << 63) + 1;
    let mut draws = [u64::MAX, 5].into_iter();
    let kept = lemire(n, || draws.next().unwrap());
    assert_eq!(kept, ((u128::from(u64::MAX) * u128::from(n)) >> 64) as u64);
    assert_eq!(draws.next(), Some(5), "one draw spent");
}

/// A pool is the draws below the largest multiple of 6^20, that one refused. (Caught `<=`
/// for `<`, which no run could: a draw of exactly the limit comes once in 2^64.)
#[test]
fn a_pool_draw_stops_below_the_limit() {
    assert!(pool_accepts(POOL_LIMIT - 1) && pool_accepts(0));
    assert!(!pool_accepts(POOL_LIMIT) && !pool_accepts(u64::MAX));
}

/// z · total for z < 2^128 and total < 2^64 as (low 128 bits, the bits above): schoolbook
/// in 32-bit limbs, apart from the 64-bit split of `decide`.
fn product(z: u128, total: u64) -> (u128, u64) {
    let zs: Vec<u64> = (0..4)
        .map(|i| (z >> (32 * i)) as u64 & 0xFFFF_FFFF)
        .collect();
    let ts = [total & 0xFFFF_FFFF, total >> 32];
    let mut limbs = [0u64; 7];
    for (i, &a) in zs.iter().enumerate() {
        for (j, &b) in ts.iter().enumerate() {
            limbs[i + j] += (a * b) & 0xFFFF_FFFF;
            limbs[i + j + 1] += (a * b) >> 32;
        }
    }
    for i in 0..6 {
        limbs[i + 1] += limbs[i] >> 32;
        limbs[i] &= 0xFFFF_FFFF;
    }
    let low = (0..4).fold(0u128, |acc, i| acc | (u128::from(limbs[i]) << (32 * i)));
    (low, limbs[4] | (limbs[5] << 32))
}

/// The alias pick of a draw, against its definition worked out in 32-bit limbs: bucket =
/// the draw's top k bits; z = the draw · 2^k (mod 2^64 or 2^128); the unit is z · total's
/// bits above the draw's width and the draw is rejected when the bits below fall under
/// the threshold. Tables of one draw and of two, over many draws, a rejected draw built on
/// purpose (z = 0) and one exactly at the threshold, which is kept. (Caught the mutants of
/// the two-draw arithmetic, whose bias is far too small for any sampling test, and `<=`
/// for the rejection's `<`; `^` for the `|` that join bits that do not overlap are
/// equivalent.)
#[test]
fn each_pick_follows_its_definition() {
    let narrow = Weights::new(vec![7, 1, 300, 2, 9]).unwrap();
    let wide = Weights::new(vec![u64::MAX / 7, 3, u64::MAX / 5, 1 << 40, 11]).unwrap();
    assert!(!narrow.wide && wide.wide && narrow.bits == 3 && wide.bits == 3);
    let want = |t: &Weights, hi: u64, lo: u64| -> Option<usize> {
        let k = t.bits;
        let b = (hi >> (64 - k)) as usize;
        let (low, r) = if t.wide {
            product(((u128::from(hi) << 64) | u128::from(lo)) << k, t.total)
        } else {
            let (low, r) = product(u128::from(hi << k) << 64, t.total);
            (low >> 64, r)
        };
        (low >= t.threshold).then(|| t.resolve(b, r))
    };
    let mut d = Dice::for_chunk(8, 8, 8);
    for _ in 0..20_000 {
        let (hi, lo) = (d.next_u64(), d.next_u64());
        for t in [&narrow, &wide] {
            assert_eq!(t.decide(hi, || lo), want(t, hi, lo), "{hi:x} {lo:x}");
        }
        // The product itself, bit for bit (a slip in its low bits or a lost carry would
        // change one pick in 2^60, beyond any count of picks).
        assert_eq!(
            wide.unit(hi, || lo),
            product(
                ((u128::from(hi) << 64) | u128::from(lo)) << wide.bits,
                wide.total
            )
        );
        let (low, r) = product(u128::from(hi << narrow.bits) << 64, narrow.total);
        assert_eq!(narrow.unit(hi, || lo), (low >> 64, r));
    }
    // z = 0: the product's low bits are 0, below any threshold but 0.
    for t in [&narrow, &wide] {
        assert!(t.threshold > 0);
        assert_eq!(t.decide(2 << 61, || 0), None);
    }
    // A one-draw table's product low word exactly at the threshold: z·total ≡ threshold
    // (mod 2^64), z = threshold · total⁻¹ for an odd total (its inverse by Newton's
    // iteration); the draw is kept.
    let t = Weights::new(vec![1, 2, 4]).unwrap();
    assert!(!t.wide && t.total % 2 == 1 && t.threshold > 0);
    let mut inv = 1u64;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(t.total.wrapping_mul(inv)));
    }
    assert_eq!(t.total.wrapping_mul(inv), 1);
    let z = (t.threshold as u64).wrapping_mul(inv);
    assert_eq!(z % (1 << t.bits), 0, "z is a draw shifted up by k");
    let hi = (3u64 << (64 - t.bits)) | (z >> t.bits);
    assert_eq!(hi << t.bits, z);
    assert!(t.decide(hi, || 0).is_some());
    assert_eq!(want(&t, hi, 0), t.decide(hi, || 0));
}

/// A packed table picks as its table does, draw for draw: tables of hits and others, of
/// 2 to 25 outcomes, packed at other places in one array, with dice between the picks;
/// each draw is decided as the table decides it, rejected draws too (z = 0, below any
/// threshold but 0, and the largest totals that pack); tables too wide do not pack.
#[test]
fn packed_picks_are_the_tables_picks() {
    let mut tables: Vec<Weights> = (1..=15).map(|n| Weights::hits(n, 4)).collect();
    tables.push(Weights::hits(12, 6));
    tables.push(Weights::new(vec![5, 1]).unwrap());
    tables.push(Weights::new((1..=25).collect()).unwrap());
    tables.push(Weights::new(vec![(1 << 39) - 12_345, (1 << 39) + 1]).unwrap());
    let mut words = vec![0u64; 3];
    let mut names = Vec::new();
    for t in &tables {
        names.push(t.packed_word(words.len()).expect("a narrow table packs"));
        words.extend(t.packed_words().unwrap());
    }
    assert!(names.iter().all(|&w| w != 0));
    let (mut a, mut b) = (Dice::for_chunk(3, 1, 4), Dice::for_chunk(3, 1, 4));
    for i in 0..200_000 {
        let k = i % tables.len();
        assert_eq!(
            a.pick_packed(names[k], &words),
            b.pick(&tables[k]),
            "pick {i}"
        );
        if i % 3 == 0 {
            assert_eq!(a.d6(), b.d6());
        }
    }
    assert_eq!(a.next_u64(), b.next_u64());
    for (t, &name) in tables.iter().zip(&names) {
        assert!(t.threshold > 0);
        for bucket in 0..1u64 << t.bits {
            let hi = bucket << (64 - t.bits);
            assert_eq!(packed_decide(name, &words, hi), None);
            assert_eq!(t.decide(hi, || 0), None);
        }
        for _ in 0..2_000 {
            let hi = a.next_u64();
            assert_eq!(packed_decide(name, &words, hi), t.decide(hi, || 0));
        }
    }
    assert!(Weights::hits(16, 4).packed_word(0).is_none());
    assert!(
        Weights::new(vec![1 << 40, 0])
            .unwrap()
            .packed_word(0)
            .is_none()
    );
    assert!(Weights::new(vec![1]).unwrap().packed_word(0).is_none());
    assert!(Weights::hits(3, 4).packed_word(1 << 18).is_none());
}

/// Scripted dice replay their list, a pick taking the next value as an index, and count
/// what they used. (Caught the mutants that made them answer 0 or 1, or not move on.)
#[test]
fn scripted_dice_replay_in_order() {
    let mut s = Scripted::new(&[3, 5, 2, 6]);
    assert_eq!(s.used(), 0);
    assert_eq!((s.d6(), s.d6()), (3, 5));
    assert_eq!(s.used(), 2);
    let t = Weights::new(vec![1, 1, 1, 1]).unwrap();
    assert_eq!(s.pick(&t), 2);
    assert_eq!(s.used(), 3);
    assert!(!t.is_empty() && t.len() == 4);
}
