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
            .filter(|(k, _)| k != "open" && k != "title" && k != "profiles")
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
        // Every profile side by side (`profiles=all`, with two or more): each a setting of its
        // own on the page, the fields left open applying to each.
        let compared = value(pairs, "profiles") == Some("all") && v.profiles.len() > 1;
        if open.is_empty() && !compared {
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
        // A command line carries what the page fixes; each open field's value is the page's to
        // add (the form's value of it is where the page opens). It solves exactly: the view's
        // trials and seed are not the page's.
        let command_of = |s: &super::view::Setting| {
            let mut fixed = s.clone();
            fixed
                .sets
                .retain(|(k, _)| !open.iter().any(|o| &o.key == k));
            fixed
                .rules
                .retain(|(k, _)| !open.iter().any(|o| &o.key == k));
            fixed
                .options
                .retain(|n| !open.iter().any(|o| o.option && o.covers(n)));
            let full = v.command(&fixed);
            let mut words = Vec::new();
            let mut skip = false;
            for w in full.split(' ') {
                if skip {
                    skip = false;
                } else if w == "--trials" || w == "--seed" {
                    skip = true;
                } else {
                    words.push(w);
                }
            }
            words.join(" ")
        };
        let command = command_of(&p.setting);
        // Each profile's system (an edited file is held while the page is made), in the order
        // the explorer lists them.
        let mut holds = Vec::new();
        let mut profiles = Vec::new();
        if compared {
            let mut order: Vec<usize> = (0..v.profiles.len()).collect();
            order.sort_by_key(|&i| v.profiles[i].label);
            for i in order {
                let q = &v.profiles[i];
                let (system, hold) = self
                    .system_of(&q.setting, &v.prefix(i))
                    .map_err(|f| whose(f, &v, q))?;
                holds.push(hold);
                profiles.push(crate::publish::Profile {
                    name: q.title(),
                    system,
                    inputs: inputs_of(&q.setting),
                    options: q.setting.options.clone(),
                    command: command_of(&q.setting),
                });
            }
        }
        let ask = crate::publish::Ask {
            system: name,
            scenario: v.scenario,
            inputs: inputs_of(&p.setting),
            options: p.setting.options.clone(),
            title: title.map(str::to_string),
            open,
            profiles,
        };
        let _slot = self.slot(true)?;
        let control = Arc::new(Control::new());
        let (made, timed_out) = self.within_limit(&control, || {
            crate::publish::publish(&ask, &command, env!("CARGO_PKG_VERSION"), &control)
        });
        drop(holds);
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
