//! `publish` (issue 76): one self-contained page holding every exact answer over the fields
//! left open; opened from `file://` in chromium, the answer a link picks is the command
//! line's, to the bit; too many answers are refused before anything is written.

use crate::browser::{chromium, headless};
use crate::common::bin;
use crate::reports::scratch;
use serde_json::Value;

/// The command lines a page shows, as text (its words are spans that keep each unbroken).
fn command_of(dom: &str) -> String {
    let at = dom.find("<pre id=\"command\">").expect("the command line");
    let inner = &dom[at + "<pre id=\"command\">".len()..];
    let inner = &inner[..inner.find("</pre>").unwrap()];
    let mut out = String::new();
    let mut tag = false;
    for c in inner.chars() {
        match c {
            '<' => tag = true,
            '>' => tag = false,
            c if !tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// The exact value of each outcome and measure the command line gives for `sets`.
fn command_line(sets: &[&str]) -> Vec<(String, f64)> {
    let mut args = vec![
        "rally",
        "--system",
        "rank-and-file",
        "--exact-only",
        "--format",
        "json",
    ];
    for s in sets {
        args.extend(["--set", s]);
    }
    let out = bin().args(&args).output().unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut all = Vec::new();
    for o in v["outcomes"].as_array().unwrap() {
        all.push((
            o["outcome"].as_str().unwrap().to_string(),
            o["exact"].as_f64().unwrap(),
        ));
    }
    for m in v["metrics"].as_array().unwrap() {
        if let Some(x) = m["exact"].as_f64() {
            all.push((m["name"].as_str().unwrap().to_string(), x));
        }
    }
    all
}

#[test]
fn a_published_page_shows_the_command_lines_exact_values_from_a_file() {
    let dir = scratch("publish");
    let page = dir.join("rally.html");
    let out = bin()
        .args([
            "publish",
            "rally",
            "--system",
            "rank-and-file",
            "--open",
            "class",
            "--open",
            "lost=0..3",
            "--out",
        ])
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("12 exact answers"), "{said}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("publishing 12 exact answers"));
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing fetched.
    assert!(
        !html.contains("src=\"http")
            && !html.contains("fetch(")
            && !html.contains("<link rel=\"stylesheet")
    );
    let Some(browser) =
        chromium("a_published_page_shows_the_command_lines_exact_values_from_a_file")
    else {
        return;
    };
    for (hash, sets) in [
        ("class=veteran&lost=0", ["class=veteran", "lost=0"]),
        ("class=regular&lost=1", ["class=regular", "lost=1"]),
        ("class=green&lost=3", ["class=green", "lost=3"]),
    ] {
        let url = format!("file://{}#{hash}", page.display());
        let (dom, _) = headless(&browser, &dir, &["--dump-dom".to_string()], &url);
        let want = command_line(&sets);
        assert!(!want.is_empty());
        for (name, x) in want {
            let at = format!("<tr data-key=\"{name}\">");
            let Some(i) = dom.find(&at) else {
                panic!("{hash}: no row {name} in the page");
            };
            let rest = &dom[i..];
            let v = rest.split("data-value=\"").nth(1).unwrap();
            let shown: f64 = v[..v.find('"').unwrap()].parse().unwrap();
            assert_eq!(shown, x, "{hash}: {name}");
        }
        // The command line shown reproduces the answer.
        assert!(
            command_of(&dom).contains(&format!(
                "morale-lab rally --system rank-and-file --set {} --set {} --exact-only",
                sets[0], sets[1]
            )),
            "{hash}"
        );
        // Each state's chance after each turn is drawn (a bar a turn and state) and tabled:
        // the table's last turn is the command line's, as a percentage to two decimals.
        assert!(
            dom.contains("aria-label=\"The chance of each state after each turn\""),
            "{hash}: no chart by turn"
        );
        assert!(dom.matches("<rect ").count() >= 12, "{hash}");
        let json = crate::common::json_of(&[
            "rally",
            "--system",
            "rank-and-file",
            "--set",
            sets[0],
            "--set",
            sets[1],
            "--exact-only",
            "--format",
            "json",
        ]);
        let rows = json["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "per_turn")
            .unwrap()["rows"]
            .as_array()
            .unwrap()
            .clone();
        let last: Vec<String> = rows.last().unwrap()["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| format!("{:.2}%", 100.0 * c["exact"].as_f64().unwrap()))
            .collect();
        let tables = &dom[dom.find("id=\"turn-tables\"").unwrap()..];
        let row = tables
            .split("<tr>")
            .find(|r| r.starts_with(&format!("<td>{}</td>", rows.len())))
            .unwrap_or_else(|| panic!("{hash}: no row for the last turn"));
        for cell in &last {
            assert!(
                row.contains(&format!(">{cell}<")),
                "{hash}: {cell} not in {row}"
            );
        }
    }
}

#[test]
fn too_many_answers_are_refused_with_the_count_and_nothing_written() {
    let dir = scratch("publish-refused");
    let page = dir.join("big.html");
    let out = bin()
        .args([
            "publish",
            "rally",
            "--system",
            "rank-and-file",
            "--open",
            "stands=2..40",
            "--open",
            "lost=0..39",
            "--open",
            "class",
            "--open",
            "leader=0..3",
            "--out",
        ])
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("answers on one page, not ") && err.contains("narrow"),
        "{err}"
    );
    assert!(!page.exists());
}

/// A value every setting refuses is left off the page (8 stands lost of 8); a field that
/// changes no answer, a field twice, and a field both fixed and open are refused; a link asking
/// for a value the page does not hold says so.
#[test]
fn a_page_holds_only_values_that_answer_and_says_when_a_link_misses() {
    let dir = scratch("publish-values");
    let page = dir.join("lost.html");
    let out = bin()
        .args([
            "publish",
            "rally",
            "--system",
            "rank-and-file",
            "--open",
            "lost",
            "--out",
        ])
        .arg(&page)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("8 exact answers"));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("\"values\":[\"0\",\"1\",\"2\",\"3\",\"4\",\"5\",\"6\",\"7\"]"),
        "{html}"
    );
    // The setting behind the answers is said.
    assert!(
        html.contains("8 stands")
            && html.contains("routing at the start")
            && html.contains("12 turns")
    );
    for (open, why) in [
        (vec!["--open", "to_hit"], "makes no difference here"),
        (
            vec!["--open", "class", "--open", "class"],
            "each field once",
        ),
        (
            vec!["--set", "class=green", "--open", "class=veteran,regular"],
            "values that hold class=green",
        ),
    ] {
        let mut args = vec!["publish", "rally", "--system", "rank-and-file"];
        args.extend(open);
        let x = dir.join("x.html");
        let out = bin().args(&args).arg("--out").arg(&x).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(why),
            "{args:?}"
        );
        assert!(!x.exists());
    }
    let Some(browser) =
        chromium("a_page_holds_only_values_that_answer_and_says_when_a_link_misses")
    else {
        return;
    };
    let url = format!("file://{}#lost=9", page.display());
    let (dom, _) = headless(&browser, &dir, &["--dump-dom".to_string()], &url);
    assert!(dom.contains("Already lost 9 is not on this page"), "{dom}");
}

/// An optional rule can be left open (the page holds both answers, and its command line says
/// `--option` only where it is in play); a field the setting fixes opens at that value; the
/// page carries its author's title; and the answer it opens at is the command line's.
#[test]
fn a_page_leaves_an_optional_rule_open_and_opens_where_the_setting_is() {
    let dir = scratch("publish-option");
    let page = dir.join("amendment.html");
    let out = bin()
        .args([
            "publish",
            "under-fire",
            "--system",
            "effectiveness",
            "--set",
            "class=regular",
            "--set",
            "fire_dice=3",
            "--set",
            "fire_to_hit=5",
            "--set",
            "turns=8",
            "--option",
            "retreat-on-fire",
            "--option",
            "return-roll",
            "--open",
            "return-roll",
            "--open",
            "turns=4..12",
            "--title",
            "Does the return roll matter?",
            "--out",
        ])
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("18 exact answers"));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<h1 id=\"title\">Does the return roll matter?</h1>"));
    // A field the setting leaves alone opens at the value in force without it: a rally's
    // starting state is the scenario's own (routing), not the parameter's first value.
    let state = dir.join("state.html");
    let out = bin()
        .args([
            "publish",
            "rally",
            "--system",
            "rank-and-file",
            "--open",
            "state",
            "--out",
        ])
        .arg(&state)
        .output()
        .unwrap();
    assert!(out.status.success());
    let opened = std::fs::read_to_string(&state).unwrap();
    assert!(
        opened.contains("\"values\":[\"good\",\"unsteady\",\"routing\"],\"words\":[\"good\",\"unsteady\",\"routing\"],\"start\":2"),
        "{opened}"
    );
    // Optional rules joined by '+' are one field: the plain rules beside the whole amendment.
    let both = dir.join("both.html");
    let out = bin()
        .args([
            "publish",
            "under-fire",
            "--system",
            "effectiveness",
            "--open",
            "retreat-on-fire+return-roll",
            "--out",
        ])
        .arg(&both)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("2 exact answers"));
    assert!(
        std::fs::read_to_string(&both)
            .unwrap()
            .contains("\"label\":\"Retreat on Fire + Return Roll\"")
    );
    assert!(
        html.contains(
            "The 25% effectiveness rules: a unit holding its place in the line under fire"
        )
    );
    let Some(browser) =
        chromium("a_page_leaves_an_optional_rule_open_and_opens_where_the_setting_is")
    else {
        return;
    };
    // No link: the page opens where the command line fixed it (8 turns, the return roll in
    // play), and shows what the command line gives there.
    let eliminated = |extra: &[&str]| -> f64 {
        let mut args = vec![
            "under-fire",
            "--system",
            "effectiveness",
            "--set",
            "class=regular",
            "--set",
            "fire_dice=3",
            "--set",
            "fire_to_hit=5",
            "--option",
            "retreat-on-fire",
            "--exact-only",
            "--format",
            "json",
        ];
        args.extend(extra);
        let out = bin().args(&args).output().unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["outcome"] == "eliminated")
            .unwrap()["exact"]
            .as_f64()
            .unwrap()
    };
    let shown = |hash: &str| -> (f64, String) {
        let url = format!("file://{}{hash}", page.display());
        let (dom, _) = headless(&browser, &dir, &["--dump-dom".to_string()], &url);
        let i = dom
            .find("<tr data-key=\"eliminated\">")
            .expect("an eliminated row");
        let v = dom[i..].split("data-value=\"").nth(1).unwrap();
        let command = command_of(&dom);
        (v[..v.find('"').unwrap()].parse().unwrap(), command)
    };
    let (x, command) = shown("#beside=");
    assert_eq!(
        x,
        eliminated(&["--option", "return-roll", "--set", "turns=8"])
    );
    assert!(
        command.ends_with("--option return-roll --set turns=8 --exact-only"),
        "{command}"
    );
    // With no link the optional rule left open stands side by side: its first column is the
    // rule left out, and a command line per column.
    let (x, command) = shown("");
    assert_eq!(x, eliminated(&["--set", "turns=8"]));
    assert_eq!(command.lines().count(), 2, "{command}");
    // Side by side, one state's chance after each turn is a line a column on one chart (the
    // first state, still in the line, at first), each point the exact value of its turn.
    {
        let url = format!("file://{}", page.display());
        let (dom, _) = headless(&browser, &dir, &["--dump-dom".to_string()], &url);
        let i = dom
            .find("<figure class=\"lines\">")
            .expect("a line chart side by side");
        let chart = &dom[i..i + dom[i..].find("</figure>").unwrap()];
        assert_eq!(chart.matches("<polyline ").count(), 2, "{chart}");
        assert_eq!(
            chart.matches("<circle ").count(),
            16,
            "8 turns a line: {chart}"
        );
        assert!(chart.contains("after turn 1: "), "{chart}");
    }
    let (x, command) = shown("#return-roll=off&turns=12&beside=");
    assert_eq!(x, eliminated(&["--set", "turns=12"]));
    assert!(!command.contains("return-roll"), "{command}");
    // The plain rules and the amendment differ: the page holds a comparison.
    assert_ne!(
        eliminated(&["--set", "turns=8"]),
        eliminated(&["--option", "return-roll", "--set", "turns=8"])
    );
}
