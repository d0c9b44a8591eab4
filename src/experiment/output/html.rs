//! `index.html`: the experiment's report as one self-contained page — the question, the
//! plain-words answer, every table (sortable by any column), the charts inline as SVG and the
//! reproducibility block. No network: no scripts, styles or fonts from elsewhere.

use super::{BETTER_ROW, Page, Tab};
use crate::experiment::ExperimentResult;

/// The page's style: readable on screen and on paper, no web fonts.
const STYLE: &str = r#"
:root { color-scheme: light; --ink: #1b1b1b; --muted: #555; --rule: #d6d6d6; --band: #f6f6f3; --accent: #1f5f8b; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 68rem; padding: 1.5rem 1.25rem 4rem; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 1.8rem; margin: 0 0 1rem; }
h2 { font-size: 1.25rem; margin: 2.2rem 0 0.6rem; border-bottom: 1px solid var(--rule); padding-bottom: 0.2rem; }
p.question, p.answer, div.answer { font-size: 1.08rem; }
p.answer, div.answer { background: var(--band); border-left: 4px solid var(--accent); padding: 0.75rem 1rem; }
div.answer p { margin: 0 0 0.6rem; }
div.answer p:last-child { margin-bottom: 0; }
p.method, p.note { color: var(--muted); }
p.after { font-size: 0.9rem; color: var(--muted); margin-top: -0.4rem; }
p.meanings, div.meanings { font-size: 0.85rem; color: var(--muted); margin-top: 0.3rem; }
div.meanings p { margin: 0; }
div.meanings ul { margin: 0.1rem 0 0.4rem; padding-left: 1.2rem; }
span.rounding, p.rounding { display: block; font-size: 0.85rem; color: var(--muted); margin-top: 0.3rem; }
code { font: 0.92em ui-monospace, "DejaVu Sans Mono", monospace; background: var(--band); padding: 0 0.2em; border-radius: 3px; }
table { border-collapse: collapse; margin: 0.6rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { padding: 0.3rem 0.7rem; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
th.num, td.num { text-align: right; }
td.num { white-space: nowrap; }
td.ids { white-space: nowrap; }
thead th { background: var(--band); }
thead tr:has(+ tr.better) th { border-bottom: 0; }
thead tr.better th { font-weight: 400; font-style: italic; font-size: 0.85em; color: var(--muted); padding-top: 0; }
thead th.group { text-align: center; font-weight: 600; border-bottom: 1px solid #999; }
th button { all: inherit; display: inline; cursor: pointer; padding: 0; border: 0; background: none; }
th button::after { content: " \2195"; color: #999; font-size: 0.8em; }
th[aria-sort="ascending"] button::after { content: " \2191"; color: var(--accent); }
th[aria-sort="descending"] button::after { content: " \2193"; color: var(--accent); }
tbody tr:hover { background: #fafaf0; }
.scroll { overflow-x: auto; }
figure { margin: 1.2rem 0 2rem; }
figure svg { display: block; width: 100%; max-width: 960px; height: auto; border: 1px solid var(--rule); }
figcaption { color: var(--muted); font-size: 0.9rem; margin-top: 0.3rem; }
pre { background: var(--band); padding: 0.75rem 1rem; overflow-x: auto; }
footer { margin-top: 3rem; color: var(--muted); font-size: 0.85rem; }
p.folded { display: none; }
ul.setup { margin: -0.6rem 0 1rem; padding-left: 1.4rem; }
ul.setup ul { margin: 0; padding-left: 1.2rem; }
p.caption { font-weight: 600; margin: 1.2rem 0 0.2rem; }
.print-only { display: none; }
.prt { display: none; }
@media print {
  @page { size: A4; margin: 14mm 12mm; }
  body { max-width: none; padding: 0; font-size: 10pt; }
  h1 { font-size: 17pt; margin-bottom: 0.5rem; }
  /* A heading never split across two pages (writer trial 74: "…, played" at page 4's foot,
     "well" at page 5's head). */
  h2 { break-after: avoid; break-inside: avoid; margin-top: 1.2rem; }
  p.question, p.answer, div.answer, p.setup, ul.setup { font-size: 10pt; }
  ul.setup { margin: -0.5rem 0 0.4rem; font-size: 9pt !important; line-height: 1.25; }
  .screen { display: none !important; }
  .print-only { display: block; font-size: 8pt; color: var(--muted); }
  ul.notes { columns: 2; column-gap: 8mm; margin: 0.1rem 0 0.5rem; font-size: 9pt; line-height: 1.25; }
  /* A note is never cut between the two columns ("ending with its | back to the enemy"). */
  ul.notes li { break-inside: avoid; }
  ul.notes.one { columns: 1; }
  /* A step's setting on two lines at most ("Regular base number" ran to three beside a wide
     last column, writer trial 74). */
  section.printed td:first-child { min-width: 24mm; }
  /* The step tables' last column, sentences, as wide as the rest allows: at a fifth of the
     page it ran to five lines a row (writer trial 74). */
  table:has(th.group) td:last-child { width: 26%; }
  /* On paper a step table leaves off its last column, a sentence a row on the other
     comparisons: it read as program output (writer trial 74); the answer names what matters. */
  table:has(th.group) tr > :last-child { display: none; }
  .scr { display: none; }
  .prt { display: inline; }
  p.rounding { margin: -0.6rem 0 0.4rem; font-size: 7.5pt; }
  p.meanings { margin: 0.2rem 0 0.6rem; font-size: 8.5pt; color: #333; break-before: avoid; }
  p.meanings.before { margin: 0 0 0.3rem; break-before: auto; break-after: avoid; }
  /* A glossary of several columns may open the next page: kept with the table, it pushed the
     table off the first page. */
  div.meanings { margin: 0.2rem 0 0.6rem; font-size: 8.5pt; color: #333; }
  /* The glossary's heading goes with its first entries: it was left alone at page 1's foot
     (writer trial 66). */
  div.meanings > p { break-after: avoid; }
  div.meanings li { break-inside: avoid; }
  /* Paragraphs of the answer and the Why a little closer on paper: the Why of five paragraphs
     ran the notes of the 25% rules onto a page of their own (writer trial 74). */
  div.answer p { margin-bottom: 0.35rem; }
  p.rounding { break-before: avoid; }
  p.after { font-size: 8.5pt; color: #333; margin-top: -0.6rem; }
  /* A measure's head on three lines, not five ("turns the / unit's / place / stood / empty",
     writer trial 74). */
  th.banded { min-width: 23mm; }
  th button::after { content: ""; }
  .scroll { overflow: visible; }
  table { width: 100%; font-size: 8pt; }
  table.keep, tr { break-inside: avoid; }
  /* A table that runs onto another page repeats its head there: the sorting button gives way
     to its words (chromium repeats a head's band without a button's text). */
  th button { display: contents; }
  /* A table's head stays with its first row, and a section's heading and opening paragraph with
     what they introduce: none is left alone at a page's foot. (Kept with two rows, a table of
     sentences needed more than the third of a page left and moved whole to the next, writer
     trial 74.) */
  thead, thead tr { break-after: avoid; }
  tbody tr:first-child { break-before: avoid; }
  /* Nor is a table's last row left alone on the page it runs onto. */
  tbody tr:last-child { break-before: avoid; }
  h2 + p { break-after: avoid; }
  /* A section's opening is short: it moves whole with its table rather than split across two
     pages with the page's foot left blank between (writer trial 54). */
  h2 + p { break-inside: avoid; }
  /* No line of a paragraph alone at a page's foot or head. */
  p { orphans: 3; widows: 3; }
  thead th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  th, td { padding: 1px 4px; line-height: 1.25; }
  td.num, th.num { white-space: normal; }
  td.num .n { white-space: nowrap; }
  tr.zero { display: none; }
  p.folded { display: block; font-size: 8pt; color: var(--muted); margin-top: -0.6rem; }
  p.caption { break-after: avoid; margin-top: 0.8rem; font-size: 9pt; }
  span.rounding { font-size: 7.5pt; margin-top: 0.1rem; line-height: 1.2; }
  figure { display: block; width: 100%; margin: 0.6rem 0 0.8rem; break-inside: avoid; }
  /* No chart taller than 98 mm, so two share a page with their captions: a state map at
     160 mm wide was as tall, one to a page with ~40% of each page blank (writer trial 74). */
  figure svg { width: 160mm; max-width: 100%; height: auto; max-height: 98mm; border: 0; }
  /* The chart that answers shares the first page with the answer and its table: at 160 mm a
     tall chart pushed the table, the answer's numbers, onto page 2 (writer trial 50). */
  main > figure:first-of-type svg { width: 108mm; margin: 0 auto; }
  /* Its caption is text beside it, not under it: the chart prints a tenth wider in less
     height (drawn inside it, the caption's letters were ~6 pt, writer trial 74). */
  main > figure:first-of-type { display: flex; align-items: center; gap: 6mm; }
  main > figure:first-of-type svg { width: 120mm; flex: none; margin: 0; }
  main > figure:first-of-type figcaption { flex: 1; margin: 0; }
  figcaption { font-size: 8.5pt; }
  /* A variant's name on one line where it can be: wrapped, five names of five made the
     answer's table a third taller and pushed it off the first page. */
  table.keep td:first-child { min-width: 34mm; }
  /* The page's foot names the report on paper, on every page (the colophon). */
  footer { display: none; }
  figcaption a { color: inherit; text-decoration: none; }
}
"#;

/// Sorting: a click on a column head sorts its table by that column, numbers as numbers (an
/// interval by its lower end; a dash last), again to reverse; ties keep their order. With the
/// address ending in `#check-sorting` the page sorts every numeric column both ways, checks the
/// order and writes `ok` (or what failed) into `body[data-sort-check]` — the browser test reads it.
const SCRIPT: &str = r##"
(function () {
  "use strict";
  var number = /[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/i;
  function key(cell) {
    var m = cell.textContent.trim().replace(/\u2212/g, "-").match(number);
    return m ? parseFloat(m[0]) : null;
  }
  // The row of heads that sort: the last but a "which way is better" row under it.
  function heads(table) {
    var r = table.tHead.rows, last = r[r.length - 1];
    return last.classList.contains("better") ? r[r.length - 2] : last;
  }
  function sort(table, col, dir) {
    var numeric = heads(table).cells[col].classList.contains("num");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col], y = b.cells[col], c;
      if (numeric) {
        var p = key(x), q = key(y);
        if (p === null || q === null) {
          c = (p === null) - (q === null);
          return c || a.dataset.row - b.dataset.row;
        }
        c = p - q;
      } else {
        c = x.textContent.localeCompare(y.textContent);
      }
      return dir * c || a.dataset.row - b.dataset.row;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(heads(table).cells, function (th, i) {
      th.setAttribute("aria-sort", i === col ? (dir > 0 ? "ascending" : "descending") : "none");
    });
  }
  var tables = document.querySelectorAll("table.sortable");
  Array.prototype.forEach.call(tables, function (table) {
    Array.prototype.forEach.call(table.tBodies[0].rows, function (r, i) { r.dataset.row = i; });
    Array.prototype.forEach.call(heads(table).cells, function (th, col) {
      th.querySelector("button").addEventListener("click", function () {
        sort(table, col, th.getAttribute("aria-sort") === "ascending" ? -1 : 1);
      });
    });
  });
  if (location.hash === "#check-sorting") {
    var failed = [], checked = 0;
    Array.prototype.forEach.call(tables, function (table, t) {
      Array.prototype.forEach.call(heads(table).cells, function (th, col) {
        if (!th.classList.contains("num")) { return; }
        [1, -1].forEach(function (dir) {
          th.querySelector("button").click();
          var keys = Array.prototype.map.call(table.tBodies[0].rows, function (r) { return key(r.cells[col]); })
            .filter(function (k) { return k !== null; });
          for (var i = 1; i < keys.length; i++) {
            if (dir * (keys[i] - keys[i - 1]) < 0) { failed.push("table " + t + " column " + col); break; }
          }
          if (th.getAttribute("aria-sort") !== (dir > 0 ? "ascending" : "descending")) { failed.push("aria-sort " + t + "/" + col); }
          checked++;
        });
      });
    });
    document.body.setAttribute("data-sort-check", failed.length ? "failed: " + failed.join(", ") : "ok " + checked);
  }
})();
"##;

pub use crate::report::escape_html as escape;

/// Escape text and turn its `code` spans into `<code>` elements.
fn inline(s: &str) -> String {
    escape(s)
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{part}</code>")
            } else {
                part.to_string()
            }
        })
        .collect()
}

/// A table; `extra` adds classes to its box (`screen`: left out of print).
fn table(tab: &Tab, caption: &str, extra: &str) -> String {
    let class = |numeric: bool| if numeric { " class=\"num\"" } else { "" };
    // A short table is kept whole on paper; a long one breaks between rows. A row of sentences
    // runs to two or three printed lines, so such a table counts as long sooner: kept whole,
    // it would leave a third of a page blank above it.
    let sentences = tab.rows.iter().flatten().any(|c| c.chars().count() > 80);
    let keep = match (tab.rows.len(), sentences) {
        (0..=8, false) | (0..=3, true) => " keep",
        _ => "",
    };
    let mut out = format!(
        "<div class=\"scroll{}{extra}\"><table class=\"sortable{keep}\">\n<caption hidden>{}</caption>\n<thead><tr>",
        if extra.is_empty() { "" } else { " " },
        escape(caption)
    );
    // Columns under a head of their own: a band above them names what they are, and each
    // keeps a short head; the other columns' band is empty (the heads that sort are the last
    // row's).
    let under = |i: usize| -> Option<&str> {
        let g = tab.group.as_ref()?;
        (i >= g.first && i < g.first + g.heads.len()).then(|| g.heads[i - g.first].as_str())
    };
    let screen_only = |head: &str| head == "rule";
    if let Some(g) = &tab.group {
        for (i, (head, _)) in tab.head.iter().enumerate() {
            let hide = match screen_only(head) {
                true => " class=\"screen\"",
                false => "",
            };
            if i == g.first {
                out += &format!(
                    "<th class=\"group\" colspan=\"{}\" scope=\"colgroup\">{}</th>",
                    g.heads.len(),
                    escape(&g.title)
                );
            } else if under(i).is_none() {
                out += &format!("<th{hide}></th>");
            }
        }
        out += "</tr>\n<tr>";
    }
    for (i, (head, numeric)) in tab.head.iter().enumerate() {
        out += &format!(
            "<th{} scope=\"col\" aria-sort=\"none\"><button type=\"button\">{}</button></th>",
            // The rule ids are for the designer at the screen (docs/RULES.md numbers them). A
            // number under a band keeps room for its head (squeezed to a word a line beside a
            // column of sentences, writer trial 56).
            match (screen_only(head), under(i).is_some() && *numeric) {
                (true, _) => " class=\"screen\"",
                (false, true) => " class=\"num banded\"",
                (false, false) => class(*numeric),
            },
            escape(under(i).unwrap_or(head))
        );
    }
    // The grid's "better is" row is a head of its own: which way is better in each column,
    // set under the heads (in the body it read as one more row of data, writer trial 62; in
    // the heads it made them five lines tall). It stays in the head when the table is sorted.
    let mut rows = tab.rows.iter().peekable();
    if let Some(row) = rows.next_if(|r| r.first().is_some_and(|c| c == BETTER_ROW)) {
        out += "</tr>\n<tr class=\"better\">";
        for (i, (cell, (head, _))) in row.iter().zip(&tab.head).enumerate() {
            let hide = match screen_only(head) {
                true => " screen",
                false => "",
            };
            let text = match (i, cell.as_str()) {
                (0, _) | (_, "") => String::new(),
                (_, way) => format!("{way} is better"),
            };
            let class = match (text.is_empty(), hide.is_empty()) {
                (true, true) => String::new(),
                (true, false) => " class=\"screen\"".into(),
                (false, _) => format!(" class=\"num{hide}\""),
            };
            out += &format!("<th{class}>{}</th>", escape(&text));
        }
    }
    out += "</tr></thead>\n<tbody>\n";
    let mut folded = Vec::new();
    // A cell: a rule column's ids never break at their hyphen ("RF-" / "1"), and stay on
    // screen.
    let td = |cell: &str, head: &str, numeric: bool| {
        if head == "rule" {
            format!("<td class=\"ids screen\">{}</td>", cell_html(cell, numeric))
        } else {
            format!("<td{}>{}</td>", class(numeric), cell_html(cell, numeric))
        }
    };
    for row in rows {
        // A row whose every number is zero is left out of print (the screen keeps it) and
        // named under the table.
        let numbers: Vec<&String> = row
            .iter()
            .zip(&tab.head)
            .filter(|(_, (_, numeric))| *numeric)
            .map(|(c, _)| c)
            .collect();
        let zero = !numbers.is_empty()
            && numbers.iter().all(|c| all_zero(c))
            && numbers
                .iter()
                .any(|c| c.chars().any(|x| x.is_ascii_digit()));
        if zero {
            folded.push(row.first().cloned().unwrap_or_default());
            out += "<tr class=\"zero\">";
            for (cell, (head, numeric)) in row.iter().zip(&tab.head) {
                out += &td(cell, head, *numeric);
            }
            out += "</tr>\n";
            continue;
        }
        out += "<tr>";
        for (cell, (head, numeric)) in row.iter().zip(&tab.head) {
            out += &td(cell, head, *numeric);
        }
        out += "</tr>\n";
    }
    out += "</tbody></table></div>\n";
    if !folded.is_empty() {
        out += &format!(
            "<p class=\"folded\">Left out here: {} row{} zero throughout ({}).</p>\n",
            folded.len(),
            if folded.len() == 1 { "" } else { "s" },
            escape(&folded.join(", "))
        );
    }
    out
}

/// A cell's text as HTML. In a number column the numbers (up to the first `, ` outside
/// brackets: `+7.56 [+7.52, +7.59]`) are one unbreakable span and the words after them (`, could
/// be chance`, `, exact`) may wrap, so a printed number never breaks across lines.
fn cell_html(cell: &str, numeric: bool) -> String {
    if !numeric {
        return escape(cell);
    }
    let mut depth = 0i32;
    let mut split = None;
    for (i, ch) in cell.char_indices() {
        match ch {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 && cell[i..].starts_with(", ") => {
                split = Some(i);
                break;
            }
            _ => {}
        }
    }
    let (numbers, words) = cell.split_at(split.unwrap_or(cell.len()));
    format!(
        "<span class=\"n\">{}</span>{}",
        escape(numbers),
        escape(words)
    )
}

/// Every number in a cell's text is zero (`0.0000`, `[0.0000, 0.0000]`, `+0.0000`); a dash
/// counts as no number.
fn all_zero(cell: &str) -> bool {
    cell.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e'))
        .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
        .all(|t| t.parse::<f64>().is_ok_and(|v| v == 0.0))
}

/// An SVG document as an element inside the page: without an XML declaration, labelled.
fn inline_svg(svg: &str, title: &str) -> String {
    let body = match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    };
    body.replacen(
        "<svg ",
        &format!("<svg role=\"img\" aria-label=\"{}\" ", escape(title)),
        1,
    )
}

/// A chart as the page shows it: its file stem, title, the SVG drawn without a caption, and
/// the caption's words, which the page prints as text under it.
pub(crate) struct PageChart {
    pub stem: String,
    pub title: String,
    pub svg: String,
    pub note: String,
}

/// The page of an experiment's result.
pub(crate) fn index_html(
    result: &ExperimentResult,
    page: &Page,
    command: &str,
    charts: &[PageChart],
) -> String {
    let exp = &result.experiment;
    // The note on changes goes under the table that gives them, on screen and on paper; the
    // answer's box closes with it only where there is no such table (a paragraph of its own,
    // with its margins, pushed a first page's chart off the page).
    let under_table = page.headline.is_some() || !page.pivots.is_empty();
    let mut out = opening_html(result, page, under_table);
    let figures = Figures::new(result, page, charts);
    // The chart that answers the question shares the first page with the answer, its table
    // after it: a chart placed after the table does not fit under it on most first pages, and
    // (a chart never breaks across pages) would leave a third to a half of the page blank.
    let (first, rest) = figures.order.split_at(figures.order.len().min(1));
    for c in first {
        out += &figures.figure(c);
    }
    out += &tables_html(page, under_table);
    out += &why_html(page);
    if !page.detail.is_empty() {
        out += &format!(
            "<p class=\"detail screen\"><strong>Detail.</strong> {}</p>\n",
            inline(&page.detail)
        );
    }
    out += &format!("<p class=\"method\">{}</p>\n", inline(&page.method));
    if !rest.is_empty() {
        let any_printed = rest.iter().any(|c| figures.printed.contains(&c.stem));
        out += &format!(
            "<h2 id=\"charts\"{}>Charts</h2>\n",
            if any_printed { "" } else { " class=\"screen\"" }
        );
        for c in rest {
            out += &figures.figure(c);
        }
    }
    for (i, s) in page.sections.iter().enumerate() {
        out += &section_html(i, s);
    }
    out += &reproduce(result, page, command);
    out += &format!(
        "</main>\n<footer>Figures worked out with morale-lab {}<span class=\"screen\">, from <code>{}</code> (seed {}). Tables sort by any column: click its head</span>.</footer>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        escape(&result.version),
        escape(command),
        exp.seed
    );
    out
}

/// The page's head and heading, the question (where the title is not it), the setup and the
/// answer (closing with the note on changes unless `under_table`).
fn opening_html(result: &ExperimentResult, page: &Page, under_table: bool) -> String {
    let exp = &result.experiment;
    let mut out = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"morale-lab {}\">\n<title>{} — morale-lab</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>{STYLE}</style>\n<style>{}</style>\n</head>\n<body>\n<main>\n<h1>{}</h1>\n",
        escape(&result.version),
        escape(&page.title),
        colophon(
            &page.title,
            // A credit, not a command line (writer trial 62) nor a file's path (writer trial
            // 74): the command and the file are in the Reproduce box.
            // Nor the seed, a programmer's word on paper (writer trial 74): it is in the
            // Reproduce box with the command.
            // Nor the version, a software string (writer trial 74): the screen's footer has it.
            "Figures worked out with morale-lab"
        ),
        escape(&page.title)
    );
    // Without a title the question is the heading, and is not said twice.
    if exp.title.is_some() {
        out += &format!(
            "<p class=\"question\"><strong>Question.</strong> {}</p>\n",
            inline(&page.question)
        );
    }
    out += &setup_html(&page.setup);
    out += &format!(
        "<p class=\"answer\"><strong>Answer.</strong> {}{}</p>\n",
        inline(&page.answer),
        page.rounding
            .as_ref()
            .filter(|_| !under_table)
            .map(|n| format!("<span class=\"rounding\">{}</span>", inline(n)))
            .unwrap_or_default()
    );
    out
}

/// On paper, the foot of every page: the report's title, so that a loose page says what it is
/// part of, and the page's number; and at the head of the first page alone, in small grey
/// type, what made the figures (`made`): a printed copy named nothing, so a writer could not
/// credit or date it (writer trial 59), while on every page it read as the tool's stamp on
/// the article (writer trial 65). The other pages' head is set empty: with no box of its own
/// there, a browser prints its own header (the date and the page's title).
fn colophon(title: &str, made: &str) -> String {
    // A CSS string: its quotes and backslashes escaped, no line breaks.
    let quoted = |t: &str| {
        t.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace(['\n', '\r'], " ")
            .replace('<', "\\3c ")
    };
    format!(
        "@page {{ @top-right {{ content: \"\"; }} @bottom-left {{ content: \"{}\"; font: 7pt sans-serif; color: #666; }} @bottom-right {{ content: \"page \" counter(page) \" of \" counter(pages); font: 7pt sans-serif; color: #666; }} }} @page :first {{ @top-right {{ content: \"{}\"; font: 7pt sans-serif; color: #666; }} }}",
        quoted(title),
        quoted(made)
    )
}

/// The charts in the page's order, and which of them print.
///
/// On paper, a few charts at a readable size: the trade-off, the sweep, the heat maps, a
/// metric headline's bars, else the outcomes; the rest stay on screen and in the files.
/// The page gives the printed ones first, in that order, so figures are numbered alike on
/// screen and on paper; the first is the chart that answers the question and comes with
/// the answer, before the tables (on paper it then shares the first page with the answer,
/// and the tables flow on).
struct Figures<'a> {
    printed: Vec<String>,
    order: Vec<&'a PageChart>,
    /// The variants' names, as written: a chart's title capitalises them, a caption does not.
    names: Vec<String>,
}

impl<'a> Figures<'a> {
    fn new(result: &ExperimentResult, page: &Page, charts: &'a [PageChart]) -> Self {
        let printed = printed_charts(
            charts,
            !page.pivots.is_empty(),
            &super::charts::telling_outcomes(result),
        );
        let order: Vec<&PageChart> = printed
            .iter()
            .filter_map(|p| charts.iter().find(|c| &c.stem == p))
            .chain(charts.iter().filter(|c| !printed.contains(&c.stem)))
            .collect();
        let names = result
            .experiment
            .variants
            .iter()
            .map(|v| v.name.clone())
            .collect();
        Figures {
            printed,
            order,
            names,
        }
    }

    /// The chart's figure, numbered by its place in the order. A caption says what the chart
    /// shows without repeating its title.
    fn figure(&self, chart: &PageChart) -> String {
        let PageChart {
            stem,
            title,
            svg,
            note,
        } = chart;
        let number = |stem: &str| self.order.iter().position(|c| c.stem == stem).unwrap_or(0) + 1;
        format!(
            "<figure id=\"chart-{}\"{}>\n{}\n<figcaption>{}{}<span class=\"screen\"> Also as <a href=\"{}.png\">PNG</a> and <a href=\"{}.svg\">SVG</a>.</span></figcaption>\n</figure>\n",
            escape(stem),
            if self.printed.contains(stem) {
                ""
            } else {
                " class=\"screen\""
            },
            inline_svg(svg, title),
            // A chart whose title and note say what it shows is not numbered on paper: the
            // page refers to no figure by number, and a lone "Figure 1." says nothing.
            match caption(stem, title, &self.names) {
                c if c.is_empty() =>
                    format!("<span class=\"screen\">Figure {}.</span>", number(stem)),
                c => format!("Figure {}: {}.", number(stem), escape(&c)),
            },
            // The chart's own caption, as text of the page's size (drawn, it shrank with the
            // chart to ~6 pt on paper, writer trial 74).
            match note.is_empty() {
                true => String::new(),
                false => format!(" {}", escape(note)),
            },
            escape(stem),
            escape(stem)
        )
    }
}

/// The pivots, the headline table, and under it the note on changes (where `under_table`) and
/// what its columns count.
fn tables_html(page: &Page, under_table: bool) -> String {
    let mut out = String::new();
    // One column's reading in a sentence goes above the table, where the reader meets the
    // word (under it, after the note on rounding, "recovered" was defined after the reader had
    // read the numbers, writer trial 74); a glossary of several stays under it.
    let one_line = page.meanings.as_deref().filter(|m| !m.contains("\n\n"));
    let before = |out: &mut String| {
        if let Some(m) = one_line {
            *out += &format!("<p class=\"meanings before\">{}</p>\n", inline(m));
        }
    };
    if !page.pivots.is_empty() {
        before(&mut out);
    }
    for (caption, tab) in &page.pivots {
        out += &format!("<p class=\"caption\">{}</p>\n", inline(caption));
        out += &table(tab, caption, "pivot");
    }
    // With a pivot, the table of every setting stays on screen: the pivot prints.
    let every = if page.pivots.is_empty() { "" } else { "screen" };
    if let Some(tab) = &page.headline {
        // A title over the table, so that on paper, where it may open a page, it does not
        // stand cut off from the answer it gives the numbers of.
        if page.pivots.is_empty() {
            out += "<p class=\"caption\">The numbers behind the answer</p>\n";
            before(&mut out);
        }
        out += &table(tab, "The headline, variant by variant", every);
    }
    if page.pivots.is_empty() && page.headline.is_none() {
        before(&mut out);
    }
    // Under the table it explains (the brackets, the rounding).
    if let (Some(note), true) = (&page.rounding, under_table) {
        out += &format!("<p class=\"rounding\">{}</p>\n", inline(note));
    }
    // What the table's columns count, under it, on screen and on paper.
    if let Some((head, items)) = page.meanings.as_deref().and_then(|m| m.split_once("\n\n")) {
        // A glossary of several columns, a line each.
        out += &format!(
            "<div class=\"meanings\"><p>{}</p><ul>{}</ul></div>\n",
            inline(head),
            items
                .lines()
                .map(|l| format!("<li>{}</li>", inline(l.trim_start_matches("- "))))
                .collect::<String>()
        );
    }
    out
}

/// Why, after the numbers it explains; the experiment's author wrote it, not the tool, and
/// it says so. The author's paragraphs (a blank line apart in the file), in one box.
fn why_html(page: &Page) -> String {
    let Some(why) = &page.why else {
        return String::new();
    };
    let paras: Vec<String> = why
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(inline)
        .collect();
    format!(
        "<div class=\"answer why\"><p><strong>Why.</strong> {}</p></div>\n",
        paras.join("</p><p>")
    )
}

/// `text` as HTML, on paper without the rule ids and the pointer to the project's rules
/// notes: a magazine reader can look up neither (writer trial 74). On screen, as written.
fn screen_and_paper(text: &str) -> String {
    let paper = for_paper(text);
    match paper == text {
        true => inline(text),
        false => format!(
            "<span class=\"scr\">{}</span><span class=\"prt\">{}</span>",
            inline(text),
            inline(&paper)
        ),
    }
}

/// `text` without rule ids (a bracket of ids only, or an id among a bracket's words), the key
/// to them, and "(what and why: docs/RULES.md §5)".
fn for_paper(text: &str) -> String {
    let mut ids = Vec::new();
    let t = crate::odds::in_players_words(text, &mut ids);
    let mut out = String::with_capacity(t.len());
    let mut rest = t.as_str();
    while let Some(open) = rest.find('(') {
        let Some(len) = rest[open..].find(')') else {
            break;
        };
        let inner = &rest[open + 1..open + len];
        let words: Vec<&str> = inner
            .split(", ")
            .filter(|p| !crate::odds::is_rule_id(p.trim_end_matches(['.', ';'])))
            .collect();
        let pointer =
            inner.starts_with("what and why:") || inner.starts_with("in brackets, the rule");
        if pointer || words.is_empty() {
            out += rest[..open].trim_end_matches(' ');
        } else {
            out += &rest[..open];
            out += &format!("({})", words.join(", "));
        }
        rest = &rest[open + len + 1..];
    }
    out += rest;
    out
}

/// Section `i` of the page: its heading, paragraph, list and tables.
fn section_html(i: usize, s: &super::Section) -> String {
    let mut out = format!(
        "<section{}>\n<h2 id=\"section-{i}\">{}</h2>\n<p>{}</p>\n",
        if s.printed {
            " class=\"printed\""
        } else {
            " class=\"screen\""
        },
        inline(&s.title),
        screen_and_paper(&s.intro)
    );
    let list = |out: &mut String| {
        if !s.list.is_empty() {
            // One note alone is not set in two columns (its right column stood empty, writer
            // trial 74).
            *out += match s.list.len() {
                1 => "<ul class=\"notes one\">\n",
                _ => "<ul class=\"notes\">\n",
            };
            for item in &s.list {
                *out += &format!("<li>{}</li>\n", screen_and_paper(item));
            }
            *out += "</ul>\n";
        }
    };
    if s.closing.is_empty() {
        list(&mut out);
    }
    for tab in &s.tables {
        out += &table(tab, &s.title, "");
    }
    if !s.closing.is_empty() {
        let closing = match s.closing_paper.is_empty() || s.closing_paper == s.closing {
            true => inline(&s.closing),
            false => format!(
                "<span class=\"scr\">{}</span><span class=\"prt\">{}</span>",
                inline(&s.closing),
                inline(&s.closing_paper)
            ),
        };
        out += &format!("<p class=\"after\">{closing}</p>\n");
        list(&mut out);
    }
    out += "</section>\n";
    out
}

/// The setup: its sentence as a paragraph, and the variants beneath it as a list (a line
/// "- item" each, "  - item" under a system), as the Markdown has them.
fn setup_html(setup: &str) -> String {
    let mut lines = setup.lines();
    let mut out = format!(
        "<p class=\"setup\"><strong>Setup.</strong> {}</p>\n",
        inline(lines.next().unwrap_or(""))
    );
    let items: Vec<(bool, &str)> = lines
        .filter_map(|l| {
            l.strip_prefix("  - ")
                .map(|i| (true, i))
                .or_else(|| l.strip_prefix("- ").map(|i| (false, i)))
        })
        .collect();
    if items.is_empty() {
        return out;
    }
    out += "<ul class=\"setup\">";
    let mut open = false;
    for (i, (nested, text)) in items.iter().enumerate() {
        match (nested, open) {
            (true, false) => {
                out += "<ul>";
                open = true;
            }
            (false, true) => {
                out += "</ul></li>";
                open = false;
            }
            (false, false) if i > 0 => out += "</li>",
            _ => {}
        }
        if *nested {
            out += &format!("<li>{}</li>", inline(text));
        } else {
            out += &format!("<li>{}", inline(text));
        }
    }
    out += if open {
        "</ul></li></ul>\n"
    } else {
        "</li></ul>\n"
    };
    out
}

/// A figure's caption after its number: empty where the chart's own title and note say what it
/// shows; where a report shows several charts of a kind (a turn-by-turn chart per variant, the
/// outcomes at each setting), which variant or setting this one is (read off its title).
fn caption(stem: &str, title: &str, names: &[String]) -> String {
    // The chart's own note says how to read it: the caption only numbers it, and names the
    // variant or setting where several charts of a kind are shown.
    let what = caption_of(stem);
    if !stem.starts_with("per_turn_") && !stem.starts_with("outcomes_") {
        return String::new();
    }
    let title = title.split(" \u{2014} ").next().unwrap_or(title);
    if stem.starts_with("per_turn_")
        && let Some((variant, _)) = title.split_once(": ")
    {
        // The name as written ("the plain 25% rules"), where the title capitalised it.
        let variant = names
            .iter()
            .find(|n| crate::labels::capitalised(n) == variant)
            .map_or(variant, String::as_str);
        return format!("the state of the unit turn by turn under {variant}");
    }
    if stem.starts_with("outcomes_")
        && let Some(at) = title
            .rsplit_once(" (at ")
            .and_then(|(_, a)| a.strip_suffix(')'))
    {
        return format!("{what}, at {at}");
    }
    what.to_string()
}

/// What a chart of several of a kind shows, by its kind (the file name's first word).
fn caption_of(stem: &str) -> &'static str {
    match stem.split('_').next().unwrap_or(stem) {
        "outcomes" => "the chance of each outcome, a bar per variant",
        "per" => "the state of the unit turn by turn, one variant",
        _ => "",
    }
}

/// The most charts a printed report carries.
const MOST_PRINTED: usize = 3;

/// The charts (file stems) a printed report carries, at most [`MOST_PRINTED`], in this order of
/// preference: trade-offs, the best choice by state, the sweep, heat maps (unless `pivots` print), what number makes it
/// fair, a metric headline's bars, the sensitivity tornado; then, while fewer
/// than two, the first outcome bars, and the gaps in side A's line.
/// Over a sweep, the outcome bars printed are those at `outcomes` (the setting where the
/// variants differ most), not the first setting's.
fn printed_charts(charts: &[PageChart], pivots: bool, outcomes: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for prefix in [
        "tradeoff",
        "play",
        "sweep",
        "heatmap_",
        "balance",
        "headline",
        "sensitivity",
    ] {
        // A two-axis sweep prints its pivot tables, which give what its heat maps show.
        if prefix == "heatmap_" && pivots {
            continue;
        }
        for PageChart { stem, .. } in charts {
            if stem.starts_with(prefix) && out.len() < MOST_PRINTED {
                out.push(stem.clone());
            }
        }
    }
    // The outcomes (or a battle's line) when no chart above answers the question: beside one
    // that does, they stay on screen (a second chart on paper left a page half empty).
    for prefix in ["outcomes", "lines_gaps_a"] {
        if out.is_empty()
            && let Some(PageChart { stem, .. }) = charts
                .iter()
                .find(|c| prefix == "outcomes" && c.stem == outcomes)
                .or_else(|| charts.iter().find(|c| c.stem.starts_with(prefix)))
        {
            out.push(stem.clone());
        }
    }
    out
}

/// The reproducibility block: what was run, and each variant's definition.
fn reproduce(result: &ExperimentResult, page: &Page, command: &str) -> String {
    let exp = &result.experiment;
    let mut out = format!(
        "<section class=\"screen\">\n<h2 id=\"reproduce\">Reproduce</h2>\n<pre><code>{}</code></pre>\n<p>{}</p>\n",
        escape(command),
        inline(&page.reproduce)
    );
    let mut tab = Tab {
        head: ["variant", "system", "rules", "options", "parameters"]
            .iter()
            .map(|h| (h.to_string(), false))
            .collect(),
        rows: Vec::new(),
        group: None,
    };
    for (i, v) in exp.variants.iter().enumerate() {
        let file = result
            .runs
            .iter()
            .find(|r| r.variant == i)
            .and_then(|r| r.report.source.clone());
        let set: Vec<String> = v
            .set
            .iter()
            .map(|(k, x)| format!("{k} = {}", x.as_input()))
            .collect();
        let rules: Vec<String> = v
            .rules
            .iter()
            .map(|(k, x)| format!("{k} = {}", x.as_input()))
            .collect();
        tab.rows.push(vec![
            v.name.clone(),
            file.unwrap_or_else(|| v.system.clone()),
            if rules.is_empty() && v.system.ends_with(".rhai") {
                "as the file writes them".into()
            } else if rules.is_empty() {
                "as written".into()
            } else {
                rules.join("; ")
            },
            if v.options.is_empty() {
                "none".into()
            } else {
                v.options.join(", ")
            },
            if set.is_empty() {
                "defaults".into()
            } else {
                set.join("; ")
            },
        ]);
    }
    // The file's own keys, said to be so: this is the one place a reader meets them, and it
    // is for typing the run again, not for reading the answer.
    out += "<p>The variants as the experiment file writes them, in its own keys (<code>morale-lab list</code> says what each means):</p>\n";
    out += &table(&tab, "variant definitions", "");
    let mut facts = vec![
        ("version", result.version.clone()),
        ("scenario", exp.scenario.to_string()),
        ("seed", exp.seed.to_string()),
        ("trials per variant", crate::report::thousands(exp.trials)),
        ("confidence", format!("{}", exp.confidence)),
        (
            "threads",
            format!("{} (results do not depend on threads)", result.threads),
        ),
    ];
    for axis in &exp.sweep {
        let values: Vec<String> = axis.values.iter().map(|v| v.as_input()).collect();
        facts.push(("swept", format!("{} over {}", axis.key, values.join(", "))));
    }
    for o in &exp.overrides {
        facts.push(("not the file as written", o.clone()));
    }
    out += "<table>\n<tbody>\n";
    for (k, v) in facts {
        out += &format!(
            "<tr><th scope=\"row\">{}</th><td>{}</td></tr>\n",
            escape(k),
            escape(&v)
        );
    }
    out += "</tbody></table>\n</section>\n";
    out
}

#[cfg(test)]
mod tests;
