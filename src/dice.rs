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
    /// A die when `roll` (as [`Roll::d6`]), else 0 and no die taken: the same dice in the same
    /// order as `if roll { d6() } else { 0 }`, which [`Dice`] serves without a branch on `roll`
    /// (a test that follows the dice, as whether a unit lost a step this turn, is a branch the
    /// processor cannot predict).
    #[inline(always)]
    fn d6_if(&mut self, roll: bool) -> u8 {
        if roll { self.d6() } else { 0 }
    }
    /// The total of one draw from each of `hits`' tables (a volley too large for one table).
    /// The exact solver overrides it to branch once over the total's distribution.
    #[inline(always)]
    fn hits(&mut self, hits: &Hits) -> u32 {
        // One table (any volley of up to 24 dice): a single draw, inlined in the rules' loop.
        if let [one] = hits.parts.as_slice() {
            return self.pick(one) as u32;
        }
        hits.parts.iter().map(|t| self.pick(t) as u32).sum()
    }
    /// True for the exact solver's stand-in for dice, which follows every branch of chance:
    /// rule code may then take a whole process played out within a turn (a melee fought to its
    /// end) as one [`Roll::branch`] over its outcomes, worked out exactly, instead of following
    /// each of its dice through every round. Dice and scripted dice roll every die, so the
    /// samplers check the worked-out distribution against the dice.
    #[inline(always)]
    fn follows_branches(&self) -> bool {
        false
    }
    /// One of the outcomes whose chances are `pmf` (positive, summing to 1): one branch of the
    /// exact solver. Rule code calls it only where [`Roll::follows_branches`] says so; anything
    /// else that rolls has no use for it and takes the first outcome (a defect the audits and
    /// the Monte Carlo tests would show).
    fn branch(&mut self, pmf: &[f64]) -> usize {
        debug_assert!(
            false,
            "branch() is for the exact solver ({} outcomes)",
            pmf.len()
        );
        0
    }
}

/// Most dice in one hit table: 6^24 < 2^64.
pub const MAX_TABLE_DICE: u32 = 24;

/// The hits of a volley of any size: the sum of one draw from each of its tables (each of at
/// most [`MAX_TABLE_DICE`] dice, so exact in 64 bits), with the distribution of the total
/// worked out once (the binomial counts convolved), so the exact solver branches over the
/// totals (dice + 1 outcomes) instead of over every combination of the tables' outcomes.
#[derive(Debug, Clone)]
pub struct Hits {
    parts: Vec<Weights>,
    /// P(total = k).
    pmf: Vec<f64>,
    /// The totals' exact weights over a common denominator, where they fit 128 bits.
    exact: Option<(Vec<u128>, u128)>,
}

/// Two volleys are equal when their tables are (the rest follows from them).
impl PartialEq for Hits {
    fn eq(&self, other: &Hits) -> bool {
        self.parts == other.parts
    }
}
impl Eq for Hits {}

impl Hits {
    /// `dice` dice each hitting on `to_hit` or more, in tables of at most `per_table` dice
    /// (1 ≤ `per_table` ≤ [`MAX_TABLE_DICE`]).
    pub fn dice(dice: u32, to_hit: u8, per_table: u32) -> Hits {
        let per_table = per_table.clamp(1, MAX_TABLE_DICE);
        let mut parts = Vec::new();
        let mut left = dice;
        while left > 0 {
            let n = left.min(per_table);
            parts.push(Weights::hits(n, to_hit));
            left -= n;
        }
        Hits::of(parts)
    }

    /// The sum of one draw from each table (an empty list: always 0).
    pub fn of(parts: Vec<Weights>) -> Hits {
        let mut pmf = vec![1.0];
        let mut exact = Some((vec![1u128], 1u128));
        for t in &parts {
            let mut next = vec![0.0; pmf.len() + t.len() - 1];
            for (i, &a) in pmf.iter().enumerate() {
                for k in 0..t.len() {
                    next[i + k] += a * t.p(k);
                }
            }
            pmf = next;
            exact = exact.and_then(|(w, den)| {
                let mut next = vec![0u128; w.len() + t.len() - 1];
                for (i, &a) in w.iter().enumerate() {
                    for k in 0..t.len() {
                        let add = a.checked_mul(u128::from(t.weight(k)))?;
                        next[i + k] = next[i + k].checked_add(add)?;
                    }
                }
                Some((next, den.checked_mul(u128::from(t.total()))?))
            });
        }
        Hits { parts, pmf, exact }
    }

    /// The tables drawn from.
    pub fn parts(&self) -> &[Weights] {
        &self.parts
    }

    /// The chance of each total, 0 to the most.
    pub fn pmf(&self) -> &[f64] {
        &self.pmf
    }

    /// Total `k`'s exact weight and the common denominator, where they fit 128 bits.
    pub fn exact(&self, k: usize) -> Option<(u128, u128)> {
        self.exact.as_ref().map(|(w, den)| (w[k], *den))
    }

    /// The most hits.
    pub fn max(&self) -> u32 {
        self.pmf.len() as u32 - 1
    }

    /// The expected hits.
    pub fn mean(&self) -> f64 {
        self.pmf.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
    }
}

/// A discrete distribution with integer weights, sampled exactly.
///
/// The weights are usually counts of dice sequences (see [`Weights::hits`]), so a draw from the
/// table has exactly the probabilities of rolling the dice it stands for.
///
/// Sampling is Walker's alias method in integers: the outcomes are padded to a power of two,
/// 2^k, of equal buckets, each of capacity `total`; bucket b keeps its own outcome for the first
/// `cut[b]` of its `total` units and hands the rest to one other outcome, `alias[b]`. Each
/// outcome's units over all buckets are exactly `weight · 2^k`, so a uniform bucket and a uniform
/// unit within it give outcome i with probability exactly `weight(i) / total`. Bucket and unit
/// come from one uniform draw of 64 bits (128 bits when `total` is too large for a draw's other
/// 64 − k bits to give the unit with rejections under 1 in 256), with no data-dependent loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights {
    weights: Vec<u64>,
    total: u64,
    /// k: the buckets are 2^k (0 for a single outcome).
    bits: u32,
    /// Bucket b: (cut, alias).
    buckets: Vec<(u64, u32)>,
    /// True when bucket and unit come from a 128-bit draw (two 64-bit numbers).
    wide: bool,
    /// Lemire's rejection threshold for the unit drawn from the draw's low W − k bits,
    /// shifted up by k: (2^(W − k) mod total) · 2^k, W = 64 or 128.
    threshold: u128,
}

impl Weights {
    /// A table from integer weights. `None` if the weights are empty, all zero, or sum past
    /// `u64::MAX`.
    pub fn new(weights: Vec<u64>) -> Option<Self> {
        let mut total: u64 = 0;
        for &w in &weights {
            total = total.checked_add(w)?;
        }
        if total == 0 {
            return None;
        }
        let n = weights.len();
        let bits = n.next_power_of_two().trailing_zeros();
        let buckets = alias_buckets(&weights, total, 1 << bits);
        // One 64-bit draw while rejections stay under 1 in 256: total ≤ 2^(56 − k).
        let wide = bits > 0 && u128::from(total) > 1u128 << (56u32.saturating_sub(bits));
        let threshold = match (bits, wide) {
            (0, _) => 0,
            (_, false) => ((1u128 << (64 - bits)) % u128::from(total)) << bits,
            (_, true) => {
                // 2^(128 − k) mod total, from 2^(128 − k) = 2^64 · 2^(64 − k).
                let t = u128::from(total);
                let a = (1u128 << 64) % t;
                let b = (1u128 << (64 - bits)) % t;
                (a * b % t) << bits
            }
        };
        Some(Weights {
            weights,
            total,
            bits,
            buckets,
            wide,
            threshold,
        })
    }

    /// The number of hits among `dice` dice that each hit on `to_hit` or more (1 ≤ `to_hit` ≤ 7,
    /// 7 meaning never): index k has weight C(dice, k) · s^k · (6 − s)^(dice − k), where s is
    /// the number of hitting faces, out of 6^dice. `dice` is at most [`MAX_TABLE_DICE`]
    /// (6^24 < 2^64); larger volleys are a [`Hits`] of several tables.
    pub fn hits(dice: u32, to_hit: u8) -> Self {
        assert!(dice <= MAX_TABLE_DICE, "at most 24 dice in one table");
        let s = u64::from(7u8.saturating_sub(to_hit.clamp(1, 7)));
        let f = 6 - s;
        let n = dice as usize;
        let mut weights = vec![0u64; n + 1];
        let mut binom: u64 = 1; // C(n, k)
        for (k, w) in weights.iter_mut().enumerate() {
            // In 128 bits: with every face hitting (or none), C(n, k)·s^k alone can pass 2^64
            // before the zero factor; a nonzero weight is at most 6^24.
            let wide =
                u128::from(binom) * u128::from(s.pow(k as u32)) * u128::from(f.pow((n - k) as u32));
            *w = u64::try_from(wide).expect("a weight is at most 6^24");
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

    /// The outcome of a uniform draw x (64 bits `hi`, or 128 bits `hi`·2^64 + `lo()` for a wide
    /// table, which alone draws `lo`): its top k bits are the bucket and [`Weights::unit`] the
    /// unit within it; `None` when the draw is rejected.
    #[inline(always)]
    fn decide(&self, hi: u64, lo: impl FnOnce() -> u64) -> Option<usize> {
        let b = (hi >> (64 - self.bits)) as usize;
        let (low, r) = self.unit(hi, lo);
        (low >= self.threshold).then(|| self.resolve(b, r))
    }

    /// Lemire's multiply-and-reject on the draw's bits below the bucket's, shifted up
    /// (z = x · 2^k mod 2^W): z · total as (its low W bits, the unit above them). The draw is
    /// rejected when the low bits fall below the threshold.
    #[inline(always)]
    fn unit(&self, hi: u64, lo: impl FnOnce() -> u64) -> (u128, u64) {
        let k = self.bits;
        let total = u128::from(self.total);
        if self.wide {
            let lo = lo();
            // z = zh · 2^64 + zl; z · total = zh·total·2^64 + zl·total.
            let zh = (hi << k) | (lo >> (64 - k));
            let zl = lo << k;
            let a = u128::from(zl) * total;
            let upper = u128::from(zh) * total + (a >> 64);
            (
                (upper << 64) | (a & u128::from(u64::MAX)),
                (upper >> 64) as u64,
            )
        } else {
            let m = u128::from(hi << k) * total;
            (u128::from(m as u64), (m >> 64) as u64)
        }
    }

    /// The outcome of bucket `b` and unit `r` (`r < total`).
    #[inline(always)]
    fn resolve(&self, b: usize, r: u64) -> usize {
        let (cut, alias) = self.buckets[b];
        // Branch-free: which of the two is a coin flip the predictor cannot learn (and the
        // compiler turns the masks of a plain select back into a branch).
        std::hint::select_unpredictable(r < cut, b, alias as usize)
    }
}

/// The most outcome bits (k) of a table packed for a loop of picks ([`Weights::packed_words`]).
const PACKED_MAX_BITS: u32 = 16;
/// The most words before a packed table's words (its place in a word, 18 bits).
const PACKED_MAX_AT: usize = 1 << 18;
/// A packed bucket's cut in its low bits, its alias above them.
const PACKED_CUT_BITS: u32 = 40;

impl Weights {
    /// This table's words for [`Dice::pick_packed`], when it is narrow enough to pack: its
    /// rejection threshold, then each bucket as `cut | alias · 2^40`. `None` for a table of one
    /// outcome (which draws nothing), one whose unit takes 128 bits, a total of 2^40 or more, or
    /// more than 2^16 buckets.
    pub fn packed_words(&self) -> Option<Vec<u64>> {
        if self.bits == 0 || self.wide || self.bits > PACKED_MAX_BITS {
            return None;
        }
        if self.total >> PACKED_CUT_BITS != 0 {
            return None;
        }
        let mut words = vec![u64::try_from(self.threshold).ok()?];
        words.extend(
            self.buckets
                .iter()
                .map(|&(cut, alias)| cut | u64::from(alias) << PACKED_CUT_BITS),
        );
        Some(words)
    }

    /// The word that names this table to [`Dice::pick_packed`] when its
    /// [`Weights::packed_words`] start at `at` of the words passed: its bits k (bits 0 to 5),
    /// `at` (bits 6 to 23) and its total (bits 24 to 63); never 0. `None` where
    /// [`Weights::packed_words`] is, or `at` is 2^18 or more.
    pub fn packed_word(&self, at: usize) -> Option<u64> {
        self.packed_words()?;
        (at < PACKED_MAX_AT)
            .then(|| u64::from(self.bits) | (at as u64) << 6 | self.total << (64 - PACKED_CUT_BITS))
    }
}

/// Vose's construction of the alias buckets in exact integers: outcome i owns `w_i · m` units
/// (m buckets of `total` units each); a bucket is filled by one outcome short of `total` units
/// and topped up from one with a surplus, until every bucket is full.
fn alias_buckets(weights: &[u64], total: u64, m: usize) -> Vec<(u64, u32)> {
    let t = u128::from(total);
    let mut units: Vec<u128> = (0..m)
        .map(|i| u128::from(weights.get(i).copied().unwrap_or(0)) * m as u128)
        .collect();
    let mut buckets = vec![(total, 0u32); m];
    for (i, b) in buckets.iter_mut().enumerate() {
        b.1 = i as u32;
    }
    let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..m).partition(|&i| units[i] < t);
    while let (Some(&l), Some(&g)) = (small.last(), large.last()) {
        small.pop();
        buckets[l] = (units[l] as u64, g as u32);
        units[g] -= t - units[l];
        if units[g] < t {
            large.pop();
            small.push(g);
        }
    }
    // The units sum to m · total exactly, so no bucket is left short.
    debug_assert!(small.is_empty());
    buckets
}

/// A uniform integer in `0..n` (`n` ≥ 1) from uniform 64-bit draws, by Lemire's
/// multiply-and-reject method: the high word of x · n, unless its low word falls below
/// 2^64 mod n (worked out only when the low word is below n, which it must be to fall below).
#[inline(always)]
fn lemire(n: u64, mut draw: impl FnMut() -> u64) -> u64 {
    debug_assert!(n > 0);
    let mut m = u128::from(draw()) * u128::from(n);
    let mut low = m as u64;
    if low < n {
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            m = u128::from(draw()) * u128::from(n);
            low = m as u64;
        }
    }
    (m >> 64) as u64
}

/// Whether a 64-bit draw serves as a pool of [`POOL_DICE`] dice: below [`POOL_LIMIT`], where
/// every base-6 digit is uniform.
#[inline(always)]
const fn pool_accepts(x: u64) -> bool {
    x < POOL_LIMIT
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

    /// Dice seeded from any `rand` generator (128 bits of its output): for a program that
    /// brings its own source of randomness. A run's chunks still seed their own dice from the
    /// run's seed ([`Dice::for_chunk`]).
    pub fn from_rng<R: Rng + ?Sized>(rng: &mut R) -> Self {
        let hi = u128::from(rng.next_u64());
        Dice::from_state((hi << 64) | u128::from(rng.next_u64()))
    }

    /// A raw 64-bit draw.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// A uniform integer in `0..n` (`n` ≥ 1), by Lemire's multiply-and-reject method.
    #[inline(always)]
    pub fn below(&mut self, n: u64) -> u64 {
        let rng = &mut self.rng;
        lemire(n, || rng.next_u64())
    }

    /// A fresh pool of [`POOL_DICE`] dice.
    #[inline(always)]
    fn refill(&mut self) {
        (self.rng, self.pool) = fresh_pool(self.rng.clone());
        self.left = POOL_DICE;
    }
}

/// A draw that serves as a pool of dice, and the generator after it: out of line, every
/// [`POOL_DICE`] dice, so that a loop of dice keeps only the pool in its registers, not the
/// generator's constants (the generator passes by value: a loop's dice have no address, so
/// the pool stays in a register).
#[cold]
#[inline(never)]
fn fresh_pool(mut rng: Pcg64Mcg) -> (Pcg64Mcg, u64) {
    loop {
        let x = rng.next_u64();
        if pool_accepts(x) {
            return (rng, x);
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

    #[inline(always)]
    fn d6_if(&mut self, roll: bool) -> u8 {
        // The pool's refill, every 20 dice, is the one branch (rarely taken, so predicted).
        if roll & (self.left == 0) {
            self.refill();
        }
        let rest = self.pool / 6;
        let d = (self.pool - rest * 6) as u8 + 1;
        self.pool = std::hint::select_unpredictable(roll, rest, self.pool);
        self.left -= u32::from(roll);
        std::hint::select_unpredictable(roll, d, 0)
    }

    /// The alias method (see [`Weights`]): the bucket is the top k bits of a uniform draw x of
    /// 64 or 128 bits; the unit within it is Lemire's multiply-and-reject on x's other bits
    /// (shifted up: x · 2^k). A rejected draw is redrawn whole.
    #[inline(always)]
    fn pick(&mut self, table: &Weights) -> usize {
        if table.bits == 0 {
            return 0;
        }
        loop {
            let hi = self.rng.next_u64();
            let rng = &mut self.rng;
            if let Some(i) = table.decide(hi, || rng.next_u64()) {
                return i;
            }
        }
    }
}

impl Dice {
    /// [`Roll::pick`] of the table that `word` names in `words` (see [`Weights::packed_word`]):
    /// the same draws and the same outcome, with the table's numbers in one word (a loop that
    /// holds it in a register, or reads it with its node, waits on no other load for them) and
    /// a rejected draw drawn again out of line.
    #[inline(always)]
    pub fn pick_packed(&mut self, word: u64, words: &[u64]) -> usize {
        let hi = self.rng.next_u64();
        match packed_decide(word, words, hi) {
            Some(i) => i,
            None => {
                let (rng, i) = repick_packed(self.rng.clone(), word, words);
                self.rng = rng;
                i
            }
        }
    }
}

/// The outcome of the packed table `word` for the draw `hi`, as [`Weights::decide`] gives
/// it; `None` when the draw is rejected.
#[inline(always)]
fn packed_decide(word: u64, words: &[u64], hi: u64) -> Option<usize> {
    let k = (word & 63) as u32;
    let at = (word >> 6) as usize & (PACKED_MAX_AT - 1);
    let total = word >> (64 - PACKED_CUT_BITS);
    let b = (hi >> (64 - k)) as usize;
    let m = u128::from(hi << k) * u128::from(total);
    if (m as u64) < words[at] {
        return None;
    }
    let bucket = words[at + 1 + b];
    let cut = bucket & ((1 << PACKED_CUT_BITS) - 1);
    Some(std::hint::select_unpredictable(
        ((m >> 64) as u64) < cut,
        b,
        (bucket >> PACKED_CUT_BITS) as usize,
    ))
}

/// Draws again after a rejected draw of [`Dice::pick_packed`] until one is kept, out of line
/// (about one draw in 2^8 or fewer); the generator passes by value, as in [`fresh_pool`].
#[cold]
#[inline(never)]
fn repick_packed(mut rng: Pcg64Mcg, word: u64, words: &[u64]) -> (Pcg64Mcg, usize) {
    loop {
        let hi = rng.next_u64();
        if let Some(i) = packed_decide(word, words, hi) {
            return (rng, i);
        }
    }
}

/// `Dice` is a `rand` generator too (its raw 64-bit draws, apart from the pool of dice), so it
/// can drive `rand`'s distributions where exactness is not needed.
impl rand_core::TryRng for Dice {
    type Error = std::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.rng.next_u32())
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.rng.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.rng.fill_bytes(dst);
        Ok(())
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
mod tests;
