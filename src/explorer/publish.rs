//! The explorer's publishing: `/api/publish`, the page of the profile the form edits over the
//! fields left open, made as `publish` makes it from the command line, in a run slot.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::engine::Control;
use crate::error::{Error, Result};

use super::response::{Failure, for_the_page};
use super::run::whose;
use super::view::View;
use super::view::inputs_of;
use super::{Explorer, value};

impl Explorer {
    /// `/api/publish`: the page of the profile the form edits over the fields left open
    /// (`open=KEY` or `open=KEY=VALUES`, repeatable), every exact answer in it, as `publish`
    /// makes it from the command line; in a run slot, stopped at the server's time limit.
    pub(super) fn publish(
        &self,
        pairs: &[(String, String)],
    ) -> std::result::Result<Value, Failure> {
        // The view is the link's keys; the fields left open are the page's own.
        let view: Vec<(String, String)> = pairs
            .iter()
            .filter(|(k, _)| k != "open" && k != "title")
            .cloned()
            .collect();
        let v = View::parse(&view, self.limits.max_trials).map_err(|e| Failure::of(&e, ""))?;
        let p = &v.profiles[v.edit];
        let prefix = v.prefix(v.edit);
        let (name, _hold) = self
            .system_of(&p.setting, &prefix)
            .map_err(|f| whose(f, &v, p))?;
        let refused = |message: String| Failure {
            status: 400,
            message: format!("publish: {message}"),
            field: Some("publish.add".into()),
            line: None,
        };
        let open = pairs
            .iter()
            .filter(|(k, _)| k == "open")
            .map(|(_, o)| crate::publish::open_field(&name, v.scenario, o))
            .collect::<Result<Vec<_>>>()
            .map_err(|e| refused(for_the_page(&e)))?;
        if open.is_empty() {
            return Err(refused(
                "add a field the reader may change (the page holds its answers at each value)"
                    .into(),
            ));
        }
        // A title is one line of at most 200 characters, as the command line's --title.
        let title = value(pairs, "title")
            .map(str::trim)
            .filter(|t| !t.is_empty());
        if let Some(t) = title
            && !crate::publish::is_title(t)
        {
            return Err(Failure {
                status: 400,
                message: "publish: a title is one line of 1 to 200 characters".into(),
                field: Some("publish.title".into()),
                line: None,
            });
        }
        let ask = crate::publish::Ask {
            system: name,
            scenario: v.scenario,
            inputs: inputs_of(&p.setting),
            options: p.setting.options.clone(),
            title: title.map(str::to_string),
            open,
        };
        // The page's command line carries what the page fixes; each open field's value is the
        // page's to add (the form's value of it is where the page opens).
        let mut fixed = p.setting.clone();
        fixed
            .sets
            .retain(|(k, _)| !ask.open.iter().any(|o| &o.key == k));
        fixed
            .rules
            .retain(|(k, _)| !ask.open.iter().any(|o| &o.key == k));
        fixed
            .options
            .retain(|n| !ask.open.iter().any(|o| o.option && o.covers(n)));
        let _slot = self.slot(true)?;
        let control = Arc::new(Control::new());
        // The page's command line solves exactly: the view's trials and seed are not its.
        let mut words = Vec::new();
        let mut skip = false;
        let full = v.command(&fixed);
        for w in full.split(' ') {
            if skip {
                skip = false;
            } else if w == "--trials" || w == "--seed" {
                skip = true;
            } else {
                words.push(w);
            }
        }
        let (made, timed_out) = self.within_limit(&control, || {
            crate::publish::publish(&ask, &words.join(" "), env!("CARGO_PKG_VERSION"), &control)
        });
        let page = match made {
            Ok(page) => page,
            Err(Error::Cancelled) if timed_out => {
                return Err(Failure::busy(format!(
                    "stopped after {} s, the server's limit for one run: leave fewer values open",
                    self.limits.max_seconds
                )));
            }
            Err(e) => return Err(refused(for_the_page(&e))),
        };
        Ok(json!({
            "html": page.html,
            "answers": page.answers,
            "refused": page.refused,
            "bytes": page.html.len(),
        }))
    }
}
