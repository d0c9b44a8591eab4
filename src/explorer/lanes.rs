//! The explorer's run lanes: at most [`Limits::max_runs`](super::Limits::max_runs) runs of
//! a kind at once (exact answers and Monte Carlo runs in lanes apart), a request waiting its
//! turn up to [`Limits::wait_seconds`](super::Limits::wait_seconds), and every run stopped at
//! [`Limits::max_seconds`](super::Limits::max_seconds).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::engine::Control;

use super::Explorer;
use super::response::Failure;

/// Runs of one kind under way, and a signal when one ends.
#[derive(Default)]
pub(super) struct Lane {
    busy: Mutex<usize>,
    freed: Condvar,
}

/// A run slot, given back when dropped.
pub(super) struct Slot<'a>(&'a Lane);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut busy = self.0.busy.lock().unwrap_or_else(|e| e.into_inner());
        *busy -= 1;
        self.0.freed.notify_one();
    }
}

impl Explorer {
    /// Take a run slot, waiting up to the limit.
    pub(super) fn slot(&self, exact: bool) -> std::result::Result<Slot<'_>, Failure> {
        let lane = &self.lanes[usize::from(exact)];
        let deadline = Instant::now() + Duration::from_secs_f64(self.limits.wait_seconds);
        let mut busy = lane.busy.lock().unwrap_or_else(|e| e.into_inner());
        while *busy >= self.limits.max_runs {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Failure::busy(format!(
                    "the server is busy ({} runs under way, its limit): try again in a moment",
                    *busy
                )));
            }
            busy = lane
                .freed
                .wait_timeout(busy, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        *busy += 1;
        Ok(Slot(lane))
    }

    /// `f`, with `control` cancelled once it passes the server's limit for one run: what it
    /// returned, and whether the limit stopped it.
    pub(super) fn within_limit<T>(
        &self,
        control: &Arc<Control>,
        f: impl FnOnce() -> T,
    ) -> (T, bool) {
        let timed_out = Arc::new(AtomicBool::new(false));
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let watchdog = {
            let control = Arc::clone(control);
            let timed_out = Arc::clone(&timed_out);
            let budget = Duration::from_secs_f64(self.limits.max_seconds);
            std::thread::spawn(move || {
                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    done_rx.recv_timeout(budget)
                {
                    timed_out.store(true, Ordering::SeqCst);
                    control.cancel();
                }
            })
        };
        let out = f();
        let _ = done_tx.send(());
        let _ = watchdog.join();
        (out, timed_out.load(Ordering::SeqCst))
    }
}
