//! `odds`: the publishable sheet of exact pass chances for a system.

use clap::Args;

use morale_lab::error::{Error, Result};
use morale_lab::report::Format;
use morale_lab::system;

use crate::cli::files::{load_ruleset, rules_of};
use crate::cli::flags::{format_of, int_in, invalid, odds_formats, systems};

#[derive(Debug, Args)]
pub(crate) struct OddsArgs {
    /// Rule system [default: the --rules file's].
    #[arg(value_name = "SYSTEM", value_parser = systems())]
    pub(crate) system: Option<String>,
    /// A rule-set file: the sheet shows its rule parameters (its optional rules do not change
    /// these tables).
    #[arg(long = "rules", value_name = "FILE")]
    pub(crate) rules_file: Option<std::path::PathBuf>,
    /// Change a number of the rules (repeatable), e.g. --rule base_green=6; the sheet says
    /// which rules differ from the source.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub(crate) rules: Vec<String>,
    /// Rank & File: the unit's starting stands: the test table marks the rows where the 50% rule
    /// makes every test fail, and the rally tables are for a unit of that size [default: 8].
    /// `any`: a test table for every unit size, its first column giving the sizes the 50% rule
    /// fails at each loss (the rally tables stay at 8).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub(crate) stands: Option<String>,
    /// Rank & File: the largest number of stands lost shown in the test table [default: 6; with
    /// --stands N, N − 1].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub(crate) max_lost: Option<String>,
    /// Rank & File: the rally tables for a unit that has already lost this many stands
    /// [default: 0].
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    pub(crate) lost: Option<String>,
    /// Rank & File: the last rally phase of the rally tables, to set the sheet beside a report
    /// of that many turns (2 to 20) [default: 8].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub(crate) phases: Option<String>,
    /// Output format; `html` is a print-ready quick-reference page (A4 or Letter).
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = odds_formats())]
    pub(crate) format: String,
    /// With --format html: the paper the printed sheet asks for (a4 or letter); the tables fit
    /// both.
    #[arg(long, value_name = "SIZE", default_value = "a4", value_parser = ["a4", "letter"])]
    pub(crate) paper: String,
    /// The sheet's title (default: the system's; with --rules, the rule set's name, with its
    /// description under it).
    #[arg(long, value_name = "TEXT")]
    pub(crate) title: Option<String>,
}

pub(crate) fn run_odds(a: OddsArgs) -> Result<String> {
    let html = a.format == "html";
    let format = if html {
        Format::Text
    } else {
        format_of(&a.format)?
    };
    if a.system.is_none() && a.rules_file.is_none() {
        return Err(Error::Conflict(
            "odds needs a rule system (rank-and-file, effectiveness, linear-warfare) or --rules FILE".into(),
        ));
    }
    // A player's sheet is for a unit of a stated size by default, so that no chance is printed
    // for a unit the 50% rule already fails (writers' trials 48 and 50 read "Regular, 4 lost:
    // 1/6" for a unit of 8); `any` keeps the table for every size.
    let (stands, any_size) = match a.stands.as_deref().map(str::trim) {
        None => (None, false),
        Some("any") => (None, true),
        Some(s) => (
            Some(
                int_in("--stands", s, 1, 40)
                    .map_err(|_| invalid("--stands", s, "a whole number from 1 to 40, or any"))?
                    as u8,
            ),
            false,
        ),
    };
    let ask = morale_lab::odds::OddsAsk {
        stands,
        any_size,
        max_lost: a
            .max_lost
            .as_deref()
            .map(|m| int_in("--max-lost", m, 0, 39).map(|v| v as u8))
            .transpose()?,
        lost: a
            .lost
            .as_deref()
            .map(|m| int_in("--lost", m, 0, 39).map(|v| v as u8))
            .transpose()?,
        phases: a
            .phases
            .as_deref()
            .map(|m| int_in("--phases", m, 2, 20).map(|v| v as u8))
            .transpose()?,
    };
    // A rule set's optional rules do not change these tables: only its rule parameters count.
    let (system, rules, _options) = rules_of(
        (a.system.as_ref(), "odds"),
        a.rules_file.as_deref(),
        &a.rules,
    )?;
    let mut sheet = system::odds(&system, &ask, &rules)?;
    // The title: the user's, else a rule set's name beside the system's title; a rule set's
    // description under it.
    let set = a.rules_file.as_deref().map(load_ruleset).transpose()?;
    let description = set.as_ref().map(|s| s.description.as_str());
    if let Some(title) = &a.title {
        let t = title.trim();
        if !morale_lab::publish::is_title(t) {
            return Err(invalid(
                "--title",
                title,
                morale_lab::publish::TITLE_ALLOWED,
            ));
        }
        sheet.set_title(t, description);
    } else if let Some(set) = &set {
        let title = format!("{} — {}", set.name, sheet.title);
        sheet.set_title(&title, description);
    }
    Ok(if html {
        sheet.html_on(morale_lab::odds::Paper::parse(&a.paper))
    } else {
        sheet.render(format)
    })
}
