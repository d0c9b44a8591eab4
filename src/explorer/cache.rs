//! The explorer's answer cache: answers kept by the request's text, within
//! [`Limits::cache`](super::Limits::cache) answers and
//! [`Limits::cache_bytes`](super::Limits::cache_bytes) bytes; full, it starts afresh.

use std::collections::BTreeMap;

use super::Explorer;

/// Answers kept, and their bytes.
#[derive(Default)]
pub(super) struct Cache {
    answers: BTreeMap<String, Vec<u8>>,
    pub(super) bytes: usize,
}

impl Explorer {
    pub(super) fn cached(&self, key: &str) -> Option<Vec<u8>> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.answers.get(key).cloned()
    }

    /// Keep an answer, within the count and the bytes allowed (both its key and its bytes
    /// count: a key is the request's text). Full, the cache starts afresh.
    pub(super) fn keep(&self, key: String, bytes: &[u8]) {
        let size = key.len() + bytes.len();
        if self.limits.cache == 0 || size > self.limits.cache_bytes / 4 {
            return;
        }
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.answers.len() >= self.limits.cache || cache.bytes + size > self.limits.cache_bytes
        {
            cache.answers.clear();
            cache.bytes = 0;
        }
        if let Some(old) = cache.answers.insert(key.clone(), bytes.to_vec()) {
            cache.bytes -= key.len() + old.len();
        }
        cache.bytes += size;
    }
}
