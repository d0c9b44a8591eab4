//! Paths as the files that name other files write them: relative to the naming file, and
//! normalised so one file goes by one name. Below every module that reads files through a
//! caller's reader (rule sets, experiments, mechanic files) and the registry that finds them.

/// The file name ending of mechanic files.
pub const MECHANIC_EXTENSION: &str = ".rhai";

/// Whether `name` names a mechanic file (a path ending in `.rhai`) rather than a system.
pub fn is_mechanic(name: &str) -> bool {
    name.ends_with(MECHANIC_EXTENSION)
}

/// `rel` read from the folder of `path` (a path as written: `/` and `\\` both separate).
pub fn relative_to(path: &str, rel: &str) -> String {
    let rel_path = std::path::Path::new(rel);
    if rel_path.is_absolute() {
        return rel.to_string();
    }
    match std::path::Path::new(path).parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(rel).to_string_lossy().into_owned(),
        _ => rel.to_string(),
    }
}

/// `path` with `.` and `a/..` taken out, `/`-separated: the name a file goes by.
pub fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_normalise_and_resolve() {
        assert_eq!(
            normalize("experiments/../mechanics/./x.rhai"),
            "mechanics/x.rhai"
        );
        assert_eq!(normalize("/a/b/../c.rhai"), "/a/c.rhai");
        assert_eq!(normalize("../x.rhai"), "../x.rhai");
        assert_eq!(
            relative_to("experiments/e.toml", "../m.rhai"),
            "experiments/../m.rhai"
        );
        assert_eq!(relative_to("e.toml", "m.rhai"), "m.rhai");
        assert!(is_mechanic("m.rhai") && !is_mechanic("rank-and-file"));
    }
}
