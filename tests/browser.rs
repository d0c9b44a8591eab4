//! The HTML report in a real headless browser (Debian's chromium): the page loads with no
//! console errors, its screenshot is not blank, and its tables sort.
//!
//! The browser is `MORALE_LAB_CHROMIUM`, else `chromium` or `chromium-browser` on the PATH. On a
//! machine without one these tests print "skipped: no chromium" and pass, unless
//! `MORALE_LAB_REQUIRE_BROWSER=1` (`.ci/run` sets it, after installing chromium): then a
//! missing browser fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::reports::{SMALL, run_into, scratch};

/// The browser, or `None` (the test is skipped) when there is none and none is required.
pub(crate) fn chromium(test: &str) -> Option<PathBuf> {
    let required = std::env::var_os("MORALE_LAB_REQUIRE_BROWSER").is_some_and(|v| v != "0");
    let found = match std::env::var_os("MORALE_LAB_CHROMIUM") {
        Some(p) => Some(PathBuf::from(p)).filter(|p| p.exists()),
        None => std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .flat_map(|dir| ["chromium", "chromium-browser"].map(|b| dir.join(b)))
                .find(|p| p.is_file())
        }),
    };
    match found {
        Some(p) => Some(p),
        None if required => panic!(
            "no browser (MORALE_LAB_REQUIRE_BROWSER is set): apt-get install chromium, or set MORALE_LAB_CHROMIUM"
        ),
        None => {
            // Straight to stderr, past the test harness's capture, so the skip is seen.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "{test}: skipped: no chromium (install it, or set MORALE_LAB_CHROMIUM)"
            );
            None
        }
    }
}

/// Chromium's flags for a headless run with no background traffic (this machine has no
/// network): the report pages' tests and the explorer's.
pub(crate) const QUIET: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
];

/// Chromium headless with a fresh profile and no background traffic (this machine has no
/// network), logging the page's console to stderr. Returns (stdout, stderr).
pub(crate) fn headless(
    browser: &Path,
    work: &Path,
    args: &[String],
    url: &str,
) -> (String, String) {
    let profile = work.join("profile");
    // A browser that hangs fails the test after two minutes instead of stalling CI.
    let out = Command::new("timeout")
        .arg("120")
        .arg(browser)
        .args(QUIET)
        .args(["--disable-quic", "--enable-logging=stderr", "--v=0"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("chromium starts");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "chromium failed on {url}:\n{stderr}");
    (stdout, stderr)
}

/// The page's console messages (chromium logs each, errors and uncaught exceptions included, as
/// `…:CONSOLE:line] "text", source: …`). The report page writes none, so any is a failure.
fn console_errors(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(str::to_string)
        .collect()
}

/// Load `page`: no console errors, a screenshot with real content, tables that sort.
fn check_page(browser: &Path, page: &Path, work: &Path) {
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    let shot = work.join("shot.png");
    let (_, stderr) = headless(
        browser,
        work,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,2000".into(),
        ],
        &url,
    );
    let errors = console_errors(&stderr);
    assert!(
        errors.is_empty(),
        "{}: console errors {errors:#?}",
        page.display()
    );
    // Not blank: a real page has text, rules and chart colours on white.
    let img = image::open(&shot).expect("a PNG screenshot").to_rgb8();
    let total = img.pixels().len();
    let inked = img
        .pixels()
        .filter(|p| p.0.iter().any(|&c| c < 200))
        .count();
    let colours: std::collections::HashSet<[u8; 3]> = img.pixels().map(|p| p.0).collect();
    assert!(
        inked * 100 > total && colours.len() > 16,
        "{}: the screenshot looks blank ({inked} of {total} pixels inked, {} colours)",
        page.display(),
        colours.len()
    );
    // The page's own check sorts every numeric column both ways.
    let (dom, stderr) = headless(
        browser,
        work,
        &["--dump-dom".into()],
        &format!("{url}#check-sorting"),
    );
    assert!(console_errors(&stderr).is_empty(), "{stderr}");
    // "ok N": N columns sorted and checked; "ok 0" (nothing sorted) is a failure too
    // (mutation tried: the page's check skipping every column fails this test).
    let checked = dom
        .split("data-sort-check=\"ok ")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .and_then(|n| n.trim().parse::<u32>().ok());
    assert!(
        checked.is_some_and(|n| n > 0),
        "{}: sorting check: {}",
        page.display(),
        dom.split("data-sort-check=")
            .nth(1)
            .unwrap_or("(not run)")
            .chars()
            .take(200)
            .collect::<String>()
    );
}

#[test]
fn a_fresh_report_page_loads_cleanly_and_sorts() {
    let Some(browser) = chromium("a_fresh_report_page_loads_cleanly_and_sorts") else {
        return;
    };
    let dir = scratch("browser");
    let file = dir.join("small.toml");
    std::fs::write(&file, SMALL).unwrap();
    let out = dir.join("out");
    run_into(&file, &out);
    let page = out.join("index.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing fetched from elsewhere.
    // (The charts' embedded font is a data URL: inside the page.)
    let own = html
        .replace("xmlns=\"http://www.w3.org/2000/svg\"", "")
        .replace("url(data:font/ttf;base64,", "");
    for needle in ["http://", "https://", "src=", "@import", "url("] {
        assert!(
            !own.contains(needle),
            "the page refers outside itself: {needle}"
        );
    }
    assert!(html.contains("<svg role=\"img\""), "charts inline as SVG");
    check_page(&browser, &page, &dir);
    // A page that throws is caught: the check is not blind.
    let bad = dir.join("bad.html");
    std::fs::write(
        &bad,
        "<!doctype html><title>x</title><p>x</p><script>undefinedFunction();</script>",
    )
    .unwrap();
    let url = format!("file://{}", bad.display());
    let (_, stderr) = headless(&browser, &dir, &["--dump-dom".into()], &url);
    assert!(
        !console_errors(&stderr).is_empty(),
        "a thrown error shows: {stderr}"
    );
}

#[test]
#[ignore = "long tier: cargo test -- --ignored"]
fn the_committed_report_pages_load_cleanly() {
    let Some(browser) = chromium("the_committed_report_pages_load_cleanly") else {
        return;
    };
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let mut n = 0;
    for e in std::fs::read_dir(&reports).unwrap() {
        let dir = e.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let page = dir.join("index.html");
        assert!(page.exists(), "{} has no index.html", dir.display());
        let work = scratch(&format!("browser-{n}"));
        check_page(&browser, &page, &work);
        n += 1;
    }
    assert!(n >= 5, "committed reports: {n}");
}

/// `odds SYSTEM --format html`: a self-contained quick-reference page that prints (to PDF) and
/// whose tables fit the printable width of A4 and Letter (180 mm at 96 px/in: 680 px) with no
/// sideways overflow.
#[test]
fn the_odds_pages_print_within_a4_and_letter() {
    let Some(browser) = chromium("the_odds_pages_print_within_a4_and_letter") else {
        return;
    };
    let dir = scratch("odds-page");
    for system in morale_lab::system::systems().iter().map(|s| s.name()) {
        let o = crate::common::bin()
            .args(["odds", system, "--format", "html"])
            .assert()
            .success()
            .get_output()
            .clone();
        let html = String::from_utf8(o.stdout).unwrap();
        assert!(html.starts_with("<!doctype html>") && html.contains("@page"));
        assert!(html.contains("The rules in force") && html.contains("class=\"f\""));
        for needle in ["http://", "https://", "<script", "src="] {
            assert!(!html.contains(needle), "{system}: {needle}");
        }
        let page = dir.join(format!("{system}.html"));
        std::fs::write(&page, &html).unwrap();
        // Printed: a PDF of a few pages.
        let pdf = dir.join(format!("{system}.pdf"));
        let url = format!("file://{}", page.display());
        headless(
            &browser,
            &dir,
            &[
                format!("--print-to-pdf={}", pdf.display()),
                "--no-pdf-header-footer".into(),
            ],
            &url,
        );
        let bytes = std::fs::read(&pdf).unwrap();
        assert!(bytes.starts_with(b"%PDF"), "{system}: not a PDF");
        assert!(bytes.len() > 5_000, "{system}: an empty PDF");
        // Two sheets of paper at most, Rank & File's set beside a 12-turn report too (its
        // rally tables to the 12th phase: rows without a fraction take one line).
        assert!(
            pdf_pages(&bytes) <= 2,
            "{system}: {} pages",
            pdf_pages(&bytes)
        );
        if system == "rank-and-file" {
            let o = crate::common::bin()
                .args([
                    "odds", system, "--stands", "8", "--phases", "12", "--format", "html",
                ])
                .assert()
                .success()
                .get_output()
                .clone();
            let twelve = dir.join("rank-and-file-12.html");
            std::fs::write(&twelve, &o.stdout).unwrap();
            let pdf12 = dir.join("rank-and-file-12.pdf");
            headless(
                &browser,
                &dir,
                &[
                    format!("--print-to-pdf={}", pdf12.display()),
                    "--no-pdf-header-footer".into(),
                ],
                &format!("file://{}", twelve.display()),
            );
            let bytes = std::fs::read(&pdf12).unwrap();
            assert_eq!(
                pdf_pages(&bytes),
                2,
                "12 phases: {} pages",
                pdf_pages(&bytes)
            );
        }
        // At the printable width, nothing sticks out sideways.
        let probe = dir.join(format!("{system}-probe.html"));
        std::fs::write(
            &probe,
            html.replace(
                "</body>",
                "<script>document.body.setAttribute('data-overflow', String(document.documentElement.scrollWidth - document.documentElement.clientWidth));var split=[];document.querySelectorAll('td .f, td .p').forEach(function(s){var r=document.createRange();r.selectNodeContents(s);var t=Array.prototype.map.call(r.getClientRects(),function(x){return x.top;}).sort(function(a,b){return a-b;});for(var i=1;i<t.length;i++){if(t[i]-t[i-1]>4){split.push(s.textContent);break;}}});document.body.setAttribute('data-split',split.length?split.slice(0,4).join(' | '):'none');</script></body>",
            ),
        )
        .unwrap();
        let (dom, _) = headless(
            &browser,
            &dir,
            &["--dump-dom".into(), "--window-size=680,1000".into()],
            &format!("file://{}", probe.display()),
        );
        assert!(
            dom.contains("data-split=\"none\""),
            "{system}: a fraction or percentage breaks across lines: {}",
            dom.split("data-split=")
                .nth(1)
                .unwrap_or("?")
                .chars()
                .take(120)
                .collect::<String>()
        );
        assert!(
            dom.contains("data-overflow=\"0\""),
            "{system}: the tables overflow 180 mm: {}",
            dom.split("data-overflow=")
                .nth(1)
                .unwrap_or("?")
                .chars()
                .take(20)
                .collect::<String>()
        );
    }
}

/// A page script that writes into `body[data-wrapped]` `none`, or the first cells that fail: a
/// number cell (of every table shown) whose numbers (its `.n` span: the words after them may
/// wrap) run over more than one line, or a number
/// column's head that does not end where its numbers end (right-aligned over them; a long head
/// may wrap).
const WRAPPED: &str = "var bad=[];document.querySelectorAll('td.num, th.num').forEach(function(c){if(c.offsetParent===null){return;}var r=document.createRange();r.selectNodeContents(c.querySelector('.n')||c);var tops=Array.prototype.map.call(r.getClientRects(),function(x){return x.top;}).sort(function(a,b){return a-b;});for(var i=1;c.tagName==='TD'&&i<tops.length;i++){if(tops[i]-tops[i-1]>4){bad.push('wraps: '+c.textContent);break;}}if(c.tagName==='TH'){var t=c.closest('table');var col=c.cellIndex;var body=t.tBodies[0]&&t.tBodies[0].rows[0];var td=body&&body.cells[col];if(td){var rh=document.createRange();rh.selectNodeContents(c);var rd=document.createRange();rd.selectNodeContents(td);var eh=rh.getBoundingClientRect().right,ed=rd.getBoundingClientRect().right;if(Math.abs(eh-ed)>2){bad.push('head not over its numbers: '+c.textContent);}}}});document.body.setAttribute('data-wrapped',bad.length?bad.slice(0,4).join(' | '):'none');";

/// The pages a PDF of chromium's has: its page objects (`/Type /Page`, not `/Pages`).
fn pdf_pages(pdf: &[u8]) -> usize {
    let needle = b"/Type /Page";
    pdf.windows(needle.len() + 1)
        .filter(|w| w.starts_with(needle) && w[needle.len()] != b's')
        .count()
}

/// The pages chromium prints a page file to, as a PDF beside it without header and footer.
fn printed_pages(browser: &Path, dir: &Path, page: &Path) -> usize {
    let pdf = page.with_extension("pdf");
    headless(
        browser,
        dir,
        &[
            format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer".into(),
        ],
        &format!("file://{}", page.display()),
    );
    pdf_pages(&std::fs::read(&pdf).unwrap())
}

/// `rally-odds`'s page prints as a document: on US Letter and on A4, four pages at most (the
/// title, question, setup, answer and its class × stands-lost tables, a chart, the method),
/// and in print no number wraps (checked for every committed report in the test below).
#[test]
fn the_rally_odds_report_prints_in_four_pages_or_fewer() {
    let Some(browser) = chromium("the_rally_odds_report_prints_in_four_pages_or_fewer") else {
        return;
    };
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/rally-odds/index.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(
            "<h1>Rally odds: a routing Rank &amp; File unit by class and stands lost</h1>"
        )
    );
    assert!(
        html.contains("class=\"scroll pivot\""),
        "the class × stands-lost tables"
    );
    // Paper names no part it leaves out (a reader cannot turn to it).
    assert!(!html.contains("Not printed") && !html.contains("<p class=\"print-only\""));
    let dir = scratch("report-pages");
    for (paper, size) in [("letter", "letter"), ("a4", "A4")] {
        let probe = dir.join(format!("rally-odds-{paper}.html"));
        std::fs::write(
            &probe,
            html.replacen("</style>", &format!("@page {{ size: {size}; }}</style>"), 1),
        )
        .unwrap();
        let pages = printed_pages(&browser, &dir, &probe);
        assert!((1..=4).contains(&pages), "{paper}: {pages} pages");
    }
}

/// The answer's own table shares the printed first page with the question, the answer and its
/// chart: the page cut just after that table prints on one A4 page. (One more line in the
/// retreat report's answer once pushed the table to page 2, leaving page 1 a fifth blank,
/// writer trial 57.)
#[test]
fn the_answers_table_prints_on_the_first_page() {
    let Some(browser) = chromium("the_answers_table_prints_on_the_first_page") else {
        return;
    };
    let dir = scratch("first-page");
    for name in ["retreat-vs-rank-and-file", "green-rally-number"] {
        let html = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("reports")
                .join(name)
                .join("index.html"),
        )
        .unwrap();
        let caption = html
            .find("<p class=\"caption\">The numbers behind the answer")
            .unwrap_or_else(|| panic!("{name}: no answer's table"));
        let end =
            caption + html[caption..].find("</table></div>").unwrap() + "</table></div>".len();
        let probe = dir.join(format!("{name}.html"));
        std::fs::write(&probe, format!("{}\n</main></body></html>\n", &html[..end])).unwrap();
        let pages = printed_pages(&browser, &dir, &probe);
        assert_eq!(pages, 1, "{name}: the answer's table is on page {pages}");
    }
}

/// The committed report pages print: with the print style in force at the printable width of
/// A4 and Letter (180 mm at 96 px/in: 680 px) no table sticks out sideways, rows that are zero
/// throughout are left out of print and named under their table, and chromium prints the page
/// to a PDF.
#[test]
#[ignore = "long tier: cargo test -- --ignored"]
fn the_report_pages_print_within_a4_and_letter() {
    let Some(browser) = chromium("the_report_pages_print_within_a4_and_letter") else {
        return;
    };
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let dir = scratch("report-print");
    let mut n = 0;
    let mut folded = 0;
    for e in std::fs::read_dir(&reports).unwrap() {
        let report = e.unwrap().path();
        if !report.is_dir() {
            continue;
        }
        let name = report.file_name().unwrap().to_string_lossy().to_string();
        let html = std::fs::read_to_string(report.join("index.html")).unwrap();
        assert!(html.contains("@media print {"), "{name}: no print style");
        folded += html.matches("<tr class=\"zero\">").count();
        assert_eq!(
            html.matches("<tr class=\"zero\">").count() > 0,
            html.contains("<p class=\"folded\">"),
            "{name}: folded rows are named under their table"
        );
        // The print style applied on screen, at the printable width.
        let probe = dir.join(format!("{name}.html"));
        std::fs::write(
            &probe,
            html.replace("@media print {", "@media all {").replace(
                "</body>",
                &format!("<script>var w=0;document.querySelectorAll('table').forEach(function(t){{w=Math.max(w,t.getBoundingClientRect().right-document.documentElement.clientWidth);}});document.body.setAttribute('data-overflow', String(Math.max(0,Math.ceil(w), document.documentElement.scrollWidth - document.documentElement.clientWidth)));{WRAPPED}</script></body>"),
            ),
        )
        .unwrap();
        let (dom, _) = headless(
            &browser,
            &dir,
            &["--dump-dom".into(), "--window-size=680,1000".into()],
            &format!("file://{}", probe.display()),
        );
        assert!(
            dom.contains("data-wrapped=\"none\""),
            "{name}: in print, a number wraps or a head is not over its column: {}",
            dom.split("data-wrapped=")
                .nth(1)
                .unwrap_or("?")
                .chars()
                .take(200)
                .collect::<String>()
        );
        assert!(
            dom.contains("data-overflow=\"0\""),
            "{name}: a table overflows 180 mm in print: {}",
            dom.split("data-overflow=")
                .nth(1)
                .unwrap_or("?")
                .chars()
                .take(20)
                .collect::<String>()
        );
        n += 1;
    }
    assert!(n >= 5, "committed reports: {n}");
    assert!(folded > 0, "no committed report has a zero row to fold");
    // One printed for real.
    let pdf = dir.join("report.pdf");
    headless(
        &browser,
        &dir,
        &[
            format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer".into(),
        ],
        &format!(
            "file://{}",
            reports
                .join("line-retreat-vs-rank-and-file/index.html")
                .display()
        ),
    );
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF") && bytes.len() > 20_000);
}
