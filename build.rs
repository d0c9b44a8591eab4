//! What a build is made of, for `morale-lab bench` to key its figures to: the commit and
//! whether the sources differed from it, the compiler, the profile and the target features.
//! Outside a git checkout (a source archive) the commit is "unknown".

use std::process::Command;

fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let git = |args: &[&str]| output(Command::new("git").args(args));
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    // Only the files the binary is built from count: a change to the docs or tests does not
    // make a build dirty.
    let dirty = git(&[
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        "src",
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
    ])
    .map_or("unknown".to_string(), |s| (!s.is_empty()).to_string());
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = output(Command::new(rustc).arg("--version")).unwrap_or_else(|| "unknown".into());
    let profile = std::env::var("PROFILE").unwrap_or_default();
    let opt = std::env::var("OPT_LEVEL").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    println!("cargo:rustc-env=MORALE_LAB_COMMIT={commit}");
    println!("cargo:rustc-env=MORALE_LAB_DIRTY={dirty}");
    println!("cargo:rustc-env=MORALE_LAB_RUSTC={version}");
    println!("cargo:rustc-env=MORALE_LAB_PROFILE={profile} (opt-level {opt})");
    println!("cargo:rustc-env=MORALE_LAB_TARGET_FEATURES={features}");
    // A path named here that does not exist would run this script, and so rebuild the crate,
    // on every build: only those that exist (a commit writes refs/heads; a fresh clone may
    // keep its refs packed).
    for path in [
        "src",
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
        ".git/HEAD",
        ".git/refs/heads",
        ".git/packed-refs",
    ] {
        if std::path::Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
