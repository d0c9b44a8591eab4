//! Where a bench's figures come from: the build (commit, whether its sources differed from it,
//! compiler, profile, target features), the machine (CPU model and the flags the loops can use,
//! cores, threads used, operating system), the date and the load before and after; and the
//! processor time a run's threads had, or spent waiting for a core, so that contention is
//! measured rather than guessed.

use serde::{Deserialize, Serialize};

/// The version of the bench's JSON layout (docs/PERFORMANCE.md describes each). `--compare`
/// reads this one and [`OLDEST_READ`]; another is refused in one line.
/// 3: the explorer's rows give every request's time as a spread (median interval, noisy),
/// with their request; a case's set-up is timed for each sampler.
/// 4: `dirty` a boolean (null: unknown); every spread names its `unit` and its `outliers`
/// (Tukey's fences); each case and exact row keeps every timed run's wall and processor time
/// (`runs`) and its warm-up runs (not counted); `to_reference` is the spread of the paired
/// ratios to the hand loop (it replaces `ratio_to_reference` and `ratio_samples`).
pub const SCHEMA: u32 = 4;

/// The oldest layout `--compare` still reads (its figures upgraded on reading).
pub const OLDEST_READ: u32 = 3;

/// The build that ran the bench (from `build.rs`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Build {
    /// morale-lab's version.
    pub version: String,
    /// The git commit the binary was built from ("unknown" outside a checkout).
    pub commit: String,
    /// Whether its sources (src, Cargo.toml, Cargo.lock, build.rs) differed from the commit
    /// (`null`: unknown, outside a checkout). Layout 3 wrote it as text, which is read too.
    #[serde(deserialize_with = "bool_or_text")]
    pub dirty: Option<bool>,
    /// The compiler's `--version`.
    pub rustc: String,
    /// Cargo's profile and optimisation level.
    pub profile: String,
    /// The target features the build was compiled for.
    pub target_features: String,
}

impl Build {
    /// This binary's build.
    pub fn this() -> Build {
        Build {
            version: morale_lab::VERSION.into(),
            commit: env!("MORALE_LAB_COMMIT").into(),
            dirty: flag(env!("MORALE_LAB_DIRTY")),
            rustc: env!("MORALE_LAB_RUSTC").into(),
            profile: env!("MORALE_LAB_PROFILE").into(),
            target_features: env!("MORALE_LAB_TARGET_FEATURES").into(),
        }
    }

    /// `8b300b6`, `8b300b6+dirty` or `unknown commit`.
    pub fn short(&self) -> String {
        let mut s = if self.commit.len() >= 7 && self.commit != "unknown" {
            self.commit[..7].to_string()
        } else {
            "unknown commit".into()
        };
        if self.dirty == Some(true) {
            s += "+dirty";
        }
        s
    }
}

/// `true`, `false`, or anything else (`unknown`): not known.
fn flag(text: &str) -> Option<bool> {
    match text {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// A boolean, null, or (layout 3) the text "true", "false" or "unknown".
fn bool_or_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Bool(Option<bool>),
        Text(String),
    }
    Ok(match Either::deserialize(d)? {
        Either::Bool(b) => b,
        Either::Text(t) => flag(&t),
    })
}

/// The machine a bench ran on, as far as the system says.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Machine {
    /// The processor's model name (`/proc/cpuinfo` on Linux; "unknown" elsewhere).
    pub cpu: String,
    /// Those of the processor's flags that the compiled loops can use or that change their
    /// speed (vector units, bit manipulation), as the system lists them.
    pub cpu_flags: Vec<String>,
    /// Logical cores the process may use.
    pub cores: usize,
    /// Worker threads the runs used.
    pub threads: usize,
    /// Operating system and architecture.
    pub os: String,
    /// The load averages (1, 5 and 15 minutes) when the bench started, where the system says.
    pub load_before: Option<[f64; 3]>,
    /// The same when it ended.
    pub load_after: Option<[f64; 3]>,
}

/// The processor flags worth naming beside a speed.
const FLAGS: [&str; 9] = [
    "sse4_2", "popcnt", "avx", "avx2", "fma", "bmi2", "avx512f", "aes", "sha_ni",
];

impl Machine {
    /// This machine, now, running `threads` workers.
    pub fn here(threads: usize) -> Machine {
        let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |name: &str| {
            info.lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.split_whitespace().collect::<Vec<_>>())
        };
        let cpu = field("model name").map_or_else(|| "unknown".into(), |m| m.join(" "));
        let have = field("flags").unwrap_or_default();
        Machine {
            cpu,
            cpu_flags: FLAGS
                .iter()
                .filter(|f| have.contains(f))
                .map(|f| f.to_string())
                .collect(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            threads,
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            load_before: load(),
            load_after: None,
        }
    }
}

/// The load averages, where the system says (`/proc/loadavg`).
pub fn load() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = text.split_whitespace().map(|w| w.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// Now, in UTC, as `2026-11-28T04:40:12Z`.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The calendar date of a day counted from 1970-01-01 (H. Hinnant's days-to-civil).
fn civil(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The processor time this process's threads have had so far, and the time they have spent
/// ready to run but waiting for a core, in seconds (Linux: `/proc/self/task/*/schedstat`,
/// nanoseconds). `None` where the system does not say.
pub fn cpu_times() -> Option<(f64, f64)> {
    let (mut on, mut waited) = (0u64, 0u64);
    for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let Ok(text) = std::fs::read_to_string(task.path().join("schedstat")) else {
            // A thread that ended between the listing and the read.
            continue;
        };
        let mut it = text.split_whitespace().map(str::parse::<u64>);
        on += it.next()?.ok()?;
        waited += it.next()?.ok()?;
    }
    Some((on as f64 / 1e9, waited as f64 / 1e9))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_become_dates() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(20_785), (2026, 11, 28));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(now_utc().len(), 20);
    }

    #[test]
    fn a_build_is_named_by_its_short_commit() {
        let mut b = Build::this();
        b.commit = "8b300b6c0ffee".into();
        b.dirty = Some(true);
        assert_eq!(b.short(), "8b300b6+dirty");
        b.commit = "unknown".into();
        b.dirty = None;
        assert_eq!(b.short(), "unknown commit");
    }

    /// `dirty` is a boolean in layout 4, text in layout 3; both read.
    #[test]
    fn dirty_is_read_as_a_boolean_or_as_layout_3_text() {
        let mut b = serde_json::to_value(Build::this()).unwrap();
        for (given, read) in [
            (serde_json::json!(false), Some(false)),
            (serde_json::json!(true), Some(true)),
            (serde_json::json!(null), None),
            (serde_json::json!("false"), Some(false)),
            (serde_json::json!("true"), Some(true)),
            (serde_json::json!("unknown"), None),
        ] {
            b["dirty"] = given;
            let parsed: Build = serde_json::from_value(b.clone()).unwrap();
            assert_eq!(parsed.dirty, read);
        }
        let written = serde_json::to_value(Build::this()).unwrap();
        assert!(written["dirty"].is_boolean() || written["dirty"].is_null());
    }
}
