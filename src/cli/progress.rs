//! Progress on standard error, shown only on a terminal and not with `--quiet`: one guard that
//! draws while it lives and clears the line when dropped, so no command tears a bar down by hand.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use morale_lab::engine::Control;

/// A bar or counter on standard error; dropping it clears it (and stops its drawing thread).
pub(crate) struct Progress {
    bar: ProgressBar,
    follower: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// Whether a display belongs on standard error: a terminal, and not `--quiet`.
    fn shown(quiet: bool) -> bool {
        !quiet && std::io::stderr().is_terminal()
    }

    /// The trials of a run, read from `control`'s counter until the guard is dropped: a bar when
    /// `total` is known in advance, a counter when it is not (a run to a precision, a search).
    pub(crate) fn trials(
        quiet: bool,
        total: u64,
        known: bool,
        control: &Arc<Control>,
    ) -> Option<Progress> {
        if !Progress::shown(quiet) {
            return None;
        }
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(if known {
                "{spinner} [{elapsed_precise}] {wide_bar} {percent}% · {human_pos}/{human_len} trials · {rate} · ETA {eta} {msg}"
            } else {
                "{spinner} [{elapsed_precise}] {human_pos} trials · {rate} · running until the precision is reached {msg}"
            })
            .expect("valid template")
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1} M trials/s", state.per_sec() / 1e6);
                },
            ),
        );
        let b = bar.clone();
        let control = Arc::clone(control);
        let follower = std::thread::spawn(move || {
            while !b.is_finished() {
                // The checks after the runs run trials of their own: the bar stays full.
                let done = control.done();
                b.set_position(if known { done.min(total) } else { done });
                // The exact solution comes first: say which turn it has reached; after the runs,
                // which check.
                match (control.exact_progress(), control.checking()) {
                    (Some((done, of)), _) => {
                        b.set_message(format!("· exact solution: turn {done} of {of}"))
                    }
                    (None, Some((done, of))) => b.set_message(format!(
                        "· checking the assumptions: setting {} of {of}",
                        done + 1
                    )),
                    (None, None) => b.set_message(""),
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        Some(Progress {
            bar,
            follower: Some(follower),
        })
    }

    /// A count of `what` (matchups, runs) that the caller moves with [`Progress::at`].
    pub(crate) fn count(quiet: bool, template: &str) -> Option<Progress> {
        Progress::shown(quiet).then(|| {
            let bar = ProgressBar::new(0);
            bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
            Progress {
                bar,
                follower: None,
            }
        })
    }

    /// A counter of matchups (or another unit of work) with an estimate of the time left.
    pub(crate) fn matchups(quiet: bool, what: &str) -> Option<Progress> {
        Progress::count(
            quiet,
            &format!(
                "{{spinner}} [{{elapsed_precise}}] {what} {{pos}}/{{len}} {{wide_bar}} ETA {{eta}}"
            ),
        )
    }

    /// Done `done` of `total`.
    pub(crate) fn at(&self, done: u64, total: u64) {
        self.bar.set_length(total);
        self.bar.set_position(done);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
        if let Some(follower) = self.follower.take() {
            let _ = follower.join();
        }
    }
}
