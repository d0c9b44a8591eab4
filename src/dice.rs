//! Fast, unbiased six-sided dice from a seeded generator, and the [`Roll`] trait through which
//! every rule draws its chance.
//!
//! The rules never touch a generator directly: they ask a [`Roll`] for a die ([`Roll::d6`]) or for
//! one outcome of a discrete distribution with integer weights ([`Roll::pick`]). Monte Carlo runs
//! pass [`Dice`], which draws from a seeded [`Pcg64Mcg`]; the exact solver passes an enumerating
//! oracle (see [`crate::exact`]) that follows every outcome with its probability. The same rule
//! code therefore serves both.
//!
//! Unbiasedness: [`Dice::d6`] takes 20 dice from one 64-bit draw by exact rejection (a draw at or
//! above the largest multiple of 6^20 is redrawn, probability about 1.1e-4), then reads the draw's
//! base-6 digits. [`Dice::below`] is Lemire's multiply-and-reject method. A [`Weights`] table whose
//! weights count dice sequences (for example hits among N dice) is therefore sampled with exactly
//! the probabilities of rolling those dice.

use rand_core::Rng;
use rand_pcg::Pcg64Mcg;

/// 6^20: the number of equally likely outcomes of twenty dice.
const SIX_POW_20: u64 = 3_656_158_440_062_976;
/// The largest multiple of 6^20 not above `u64::MAX`; draws at or above it are rejected.
const POOL_LIMIT: u64 = (u64::MAX / SIX_POW_20) * SIX_POW_20;
/// Dice taken from one accepted 64-bit draw.
const POOL_DICE: u32 = 20;

/// A source of chance for the rules: a die, or one outcome of a weighted table.
pub trait Roll {
    /// One six-sided die, 1 to 6, each with probability 1/6.
    fn d6(&mut self) -> u8;
    /// One index of `table`, index `i` with probability `weight(i) / total`.
    fn pick(&mut self, table: &Weights) -> usize;
}

/// A discrete distribution with integer weights, sampled exactly.
///
/// The weights are usually counts of dice sequences (see [`Weights::hits`]), so a draw from the
/// table has exactly the probabilities of rolling the dice it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights {
    weights: Vec<u64>,
    cumulative: Vec<u64>,
    total: u64,
    /// Guide table for long tables: `guide[g]` is the first outcome whose cumulative weight
    /// exceeds g·total/len, so a search can start near its answer (Chen and Asau's method).
    guide: Vec<u32>,
    /// Lemire's rejection threshold, 2^64 mod total, computed once.
    threshold: u64,
}

/// Tables longer than this get a guide table.
const GUIDED: usize = 8;

impl Weights {
    /// A table from integer weights. `None` if the weights are empty, all zero, or sum past
    /// `u64::MAX`.
    pub fn new(weights: Vec<u64>) -> Option<Self> {
        let mut total: u64 = 0;
        let mut cumulative = Vec::with_capacity(weights.len());
        for &w in &weights {
            total = total.checked_add(w)?;
            cumulative.push(total);
        }
        if total == 0 {
            return None;
        }
        let n = weights.len();
        let mut guide = Vec::new();
        if n > GUIDED && n as u64 <= total {
            let mut i = 0usize;
            for g in 0..n {
                let floor = (u128::from(total) * g as u128 / n as u128) as u64;
                while cumulative[i] <= floor {
                    i += 1;
                }
                guide.push(i as u32);
            }
        }
        Some(Weights {
            weights,
            cumulative,
            total,
            guide,
            threshold: total.wrapping_neg() % total,
        })
    }

    /// The number of hits among `dice` dice that each hit on `to_hit` or more (1 ≤ `to_hit` ≤ 7,
    /// 7 meaning never): index k has weight C(dice, k) · s^k · (6 − s)^(dice − k), where s is
    /// the number of hitting faces, out of 6^dice. `dice` is at most 24 (6^24 < 2^64); larger
    /// volleys are split by the caller.
    pub fn hits(dice: u32, to_hit: u8) -> Self {
        assert!(dice <= 24, "at most 24 dice in one table");
        let s = u64::from(7u8.saturating_sub(to_hit.clamp(1, 7)));
        let f = 6 - s;
        let n = dice as usize;
        let mut weights = vec![0u64; n + 1];
        let mut binom: u64 = 1; // C(n, k)
        for (k, w) in weights.iter_mut().enumerate() {
            *w = binom * s.pow(k as u32) * f.pow((n - k) as u32);
            binom = binom * (n - k) as u64 / (k as u64 + 1);
        }
        Weights::new(weights).expect("6^dice > 0")
    }

    /// Number of outcomes.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// True when the table has no outcomes (never, for a constructed table).
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// The weight of outcome `i`.
    pub fn weight(&self, i: usize) -> u64 {
        self.weights[i]
    }

    /// The sum of all weights.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The probability of outcome `i`.
    pub fn p(&self, i: usize) -> f64 {
        self.weights[i] as f64 / self.total as f64
    }

    /// The outcome a uniform integer `u` in `0..total` falls in, scanning from `from`.
    #[inline(always)]
    fn scan(&self, u: u64, from: usize) -> usize {
        let mut i = from;
        while self.cumulative[i] <= u {
            i += 1;
        }
        i
    }

    /// The outcome `u` in `0..total` falls in (a plain scan; for tests and slow paths).
    #[cfg(test)]
    fn locate(&self, u: u64) -> usize {
        self.scan(u, 0)
    }
}

/// Seeded dice for Monte Carlo trials.
///
/// Each engine chunk builds its own `Dice` from (seed, stream, chunk) with [`Dice::for_chunk`], so
/// results do not depend on which thread runs which chunk.
#[derive(Debug, Clone)]
pub struct Dice {
    rng: Pcg64Mcg,
    pool: u64,
    left: u32,
}

/// SplitMix64's finaliser: a strong 64-bit mixer.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Dice {
    /// Dice from a 128-bit generator state.
    pub fn from_state(state: u128) -> Self {
        Dice {
            rng: Pcg64Mcg::new(state),
            pool: 0,
            left: 0,
        }
    }

    /// The dice of chunk `chunk` of stream `stream` (a variant) of a run seeded with `seed`.
    /// Distinct (seed, stream, chunk) triples get unrelated generator states.
    pub fn for_chunk(seed: u64, stream: u64, chunk: u64) -> Self {
        let a = mix64(seed ^ mix64(stream ^ 0x6A09_E667_F3BC_C908));
        let hi = mix64(a ^ mix64(chunk));
        let lo = mix64(hi ^ 0xBB67_AE85_84CA_A73B);
        Dice::from_state((u128::from(hi) << 64) | u128::from(lo))
    }

    /// A raw 64-bit draw.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// A uniform integer in `0..n` (`n` ≥ 1), by Lemire's multiply-and-reject method.
    #[inline(always)]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.rng.next_u64()) * u128::from(n);
        let mut low = m as u64;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u128::from(self.rng.next_u64()) * u128::from(n);
                low = m as u64;
            }
        }
        (m >> 64) as u64
    }

    #[inline]
    fn refill(&mut self) {
        loop {
            let x = self.rng.next_u64();
            if x < POOL_LIMIT {
                self.pool = x;
                self.left = POOL_DICE;
                return;
            }
        }
    }
}

impl Roll for Dice {
    #[inline]
    fn d6(&mut self) -> u8 {
        if self.left == 0 {
            self.refill();
        }
        self.left -= 1;
        let d = (self.pool % 6) as u8 + 1;
        self.pool /= 6;
        d
    }

    /// Lemire's method with the table's precomputed threshold. For a guided table the guide
    /// cell comes from the same 64-bit draw x: with u = ⌊x·T/2⁶⁴⌋ and n ≤ T guide cells,
    /// ⌊x·n/2⁶⁴⌋ is u's cell or the one after it, so the scan starts one cell lower.
    #[inline(always)]
    fn pick(&mut self, table: &Weights) -> usize {
        let total = u128::from(table.total);
        let mut x = self.rng.next_u64();
        let mut m = u128::from(x) * total;
        while (m as u64) < table.threshold {
            x = self.rng.next_u64();
            m = u128::from(x) * total;
        }
        let u = (m >> 64) as u64;
        let from = if table.guide.is_empty() {
            0
        } else {
            let n = table.guide.len() as u128;
            let g = ((u128::from(x) * n) >> 64) as usize;
            table.guide[g.saturating_sub(1)] as usize
        };
        table.scan(u, from)
    }
}

/// Dice that replay a fixed sequence: for checking the sources' worked examples.
///
/// Panics when the rules ask for more dice than scripted, or when a table is picked from (a
/// scripted `pick` value is taken from the same list, as an index).
#[derive(Debug, Clone)]
pub struct Scripted {
    rolls: Vec<u8>,
    next: usize,
}

impl Scripted {
    /// Dice that will show `rolls` in order.
    pub fn new(rolls: &[u8]) -> Self {
        Scripted {
            rolls: rolls.to_vec(),
            next: 0,
        }
    }

    /// How many scripted values were used.
    pub fn used(&self) -> usize {
        self.next
    }
}

impl Roll for Scripted {
    fn d6(&mut self) -> u8 {
        let d = self.rolls[self.next];
        self.next += 1;
        d
    }
    fn pick(&mut self, table: &Weights) -> usize {
        let i = usize::from(self.d6());
        assert!(i < table.len());
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn guided_tables_find_every_outcome() {
        let w: Vec<u64> = (0..50).map(|i| (i * 7919 % 13) as u64).collect();
        let t = Weights::new(w.clone()).unwrap();
        assert!(!t.guide.is_empty());
        // Every u lands where a plain scan of the cumulative weights says.
        let mut u = 0u64;
        for (i, &wi) in w.iter().enumerate() {
            for _ in 0..wi {
                assert_eq!(t.locate(u), i);
                u += 1;
            }
        }
        let big = Weights::new(vec![u64::MAX / 20; 20]).unwrap();
        assert_eq!(big.locate(0), 0);
        assert_eq!(big.locate(big.total() - 1), 19);
        assert_eq!(big.locate(u64::MAX / 20), 1);
        // Guided picks agree with the exact chances: chi-square over 50 outcomes (49 df,
        // P(X > 94.5) ≈ 1e-4).
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
}
