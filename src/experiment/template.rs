//! The experiment a designer starts from (`morale-lab new NAME`): a small, runnable file whose
//! comments say what every key does and what else may go there.

/// A commented experiment named `name` (letters, digits, `-` and `_`): two variants of a rally
/// from rout compared, with a sweep left commented out. It parses and runs as written.
pub fn template(name: &str) -> String {
    format!(
        r#"# {name}: an experiment of morale-lab. Run it with
#   morale-lab run {name}.toml                      # the report goes to reports/{name}/
#   morale-lab run {name}.toml --trials 10000       # a quick look first
# Every parameter, its range and default: morale-lab list (or list --system rank-and-file).

# The report folder's name: letters, digits, '-' and '_'.
name = "{name}"
# The report's title: a heading for the page and the printed document (one line, at most 100
# characters). Without it, the question heads the report.
title = "A leader and a routing Regular unit"
# The question the report answers, in a designer's words: what would you ask a friend who
# knows the odds? The report opens with its answer.
question = "Does a +1 leader help a routing Regular unit rally?"
# One of: test, rally, under-fire, melee, charge, engagement, line.
scenario = "rally"
# The same seed gives the same numbers to the bit, whatever the machine or --threads.
seed = 1
# Monte Carlo trials per variant (and per sweep point). The exact value, where there is one,
# is printed beside every estimate.
trials = 1_000_000
# The confidence level of every interval and comparison.
confidence = 0.95
# Parameters every variant shares (`morale-lab list` names them all).
set = {{ class = "regular", stands = 8, lost = 2, state = "routing", turns = 6 }}

# The variants, side by side. The first is the baseline the others are compared against.
[[variant]]
name = "no leader"
system = "rank-and-file"      # rank-and-file, effectiveness or linear-warfare

[[variant]]
name = "+1 leader"
system = "rank-and-file"
set = {{ leader = 1 }}        # this variant's own parameters, over the shared ones
options = []                  # optional rules to switch on, e.g. ["waiver-tests"]
# rules = {{ base_green = 4 }}  # rule numbers changed for this variant (`morale-lab list`)
# reference = true            # shown for comparison, kept out of the answer
# play = "optimal"            # in an engagement: side A makes the best choices, solved exactly

# A sweep runs every variant at each value (one axis: a chart of lines; two: a heat map).
# [sweep]
# x = {{ key = "lost", values = [0, 1, 2, 3] }}
# y = {{ key = "class", values = ["veteran", "regular", "green"] }}

# Or, instead of a sweep, solve for the number that makes it fair: here the base number that
# brings the unit without a leader level with the led one (or `target = 0.5`, a number).
# [balance]
# solve = "base_regular"
# against = "+1 leader"
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Experiment;

    #[test]
    fn the_template_parses_as_written_and_with_its_sweep() {
        let text = template("my-question");
        let exp = Experiment::parse("my-question.toml", &text).unwrap();
        assert_eq!(exp.name, "my-question");
        assert_eq!(exp.variants.len(), 2);
        assert!(exp.sweep.is_empty());
        let swept = text
            .replace("# [sweep]", "[sweep]")
            .replace("# x = ", "x = ")
            .replace("# y = ", "y = ");
        let exp = Experiment::parse("my-question.toml", &swept).unwrap();
        assert_eq!(exp.sweep.len(), 2);
        assert_eq!(exp.runs(), 2 * 4 * 3);
        let solved = text
            .replace("# [balance]", "[balance]")
            .replace("# solve = ", "solve = ")
            .replace("# against = ", "against = ");
        let exp = Experiment::parse("my-question.toml", &solved).unwrap();
        let result = exp
            .with_overrides(Some(1000), None)
            .run(Some(1), Default::default(), &crate::engine::Control::new())
            .unwrap();
        assert_eq!(result.balance.len(), 1);
        assert!(!result.balance[0].1.crossings.is_empty());
    }
}
