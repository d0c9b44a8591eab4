//! A hash map for the rule code's own states: quick on their many small fields.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A map keyed by states with a hash that is quick on their many small fields (a battle's
/// state is some hundred bytes in a few hundred fields): the solver looks a state up for every
/// move of every live state. Its order is never read (the solver orders states by their `Ord`).
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FieldHasher>>;

/// A multiply-and-rotate hash over the fields written (not for untrusted keys: the states are
/// the rule code's own).
#[derive(Default)]
pub(crate) struct FieldHasher(u64);

impl FieldHasher {
    #[inline(always)]
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FieldHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, v: u8) {
        self.add(u64::from(v));
    }
    #[inline]
    fn write_u16(&mut self, v: u16) {
        self.add(u64::from(v));
    }
    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    #[inline]
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}
