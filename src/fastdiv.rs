//! Division of small numbers by a small divisor without the processor's divide instruction:
//! the battles' hot loops divide a unit's hits by its hits per step and a firer's strength by
//! its full strength on every volley, and a hardware division costs as much as the rest of a
//! volley. The results are exactly those of `/` and `%`.

/// `RECIPROCAL[d]` = ⌈2^32 / d⌉ for 1 ≤ d < 256 (entry 0 unused).
const RECIPROCAL: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut d = 1;
    while d < 256 {
        t[d] = (1u64 << 32).div_ceil(d as u64);
        d += 1;
    }
    t
};

/// `x / d` (`d` ≥ 1). Exact: with m = ⌈2^32/d⌉ = (2^32 + e)/d, 0 ≤ e < d, x·m/2^32 exceeds x/d
/// by x·e/(d·2^32), less than 1/d while x·e < 2^32, so below the next multiple's fraction; for
/// d < 256 that holds for every x < 2^24. Other operands take the divide instruction.
#[inline(always)]
pub fn div(x: u32, d: u32) -> u32 {
    if d < 256 && x < (1 << 24) {
        ((u64::from(x) * RECIPROCAL[d as usize]) >> 32) as u32
    } else {
        x / d
    }
}

/// `(x / d, x % d)` (`d` ≥ 1), exactly, as [`div`].
#[inline(always)]
pub fn div_rem(x: u32, d: u32) -> (u32, u32) {
    let q = div(x, d);
    (q, x - q * d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_divide_instruction() {
        for d in 1..300u32 {
            for x in (0..70_000u32).chain([(1 << 24) - 1, 1 << 24, u32::MAX - 1, u32::MAX]) {
                assert_eq!(div_rem(x, d), (x / d, x % d), "{x} / {d}");
            }
        }
        // The largest quotients the fast path serves, for every divisor.
        for d in 1..256u32 {
            for x in ((1 << 24) - 2 * d)..(1 << 24) {
                assert_eq!(div(x, d), x / d, "{x} / {d}");
            }
        }
    }
}
