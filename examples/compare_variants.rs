//! Compare two variants of the rules with the library: the same Regular unit under the same
//! fire for 8 turns under the plain 25% effectiveness rules and with the retreat amendment,
//! Monte Carlo beside the exact value.
//!
//! `cargo run --release --example compare_variants`

use morale_lab::{Control, RunOptions};

fn main() -> morale_lab::Result<()> {
    let settings = [
        ("class", "regular"),
        ("turns", "8"),
        ("fire_dice", "3"),
        ("fire_to_hit", "5"),
    ];
    let options = RunOptions::new(1_000_000, 1);
    for (name, rules) in [
        ("25% rules", &[][..]),
        ("25% rules + retreat-on-fire", &["retreat-on-fire"][..]),
    ] {
        let job = morale_lab::job("effectiveness", "under-fire", &settings, rules)?;
        let report = job.run(&options, &Control::new())?;
        println!("{name}:");
        for o in &report.outcomes {
            let (lo, hi) = (o.cell.ci_low.unwrap_or(0.0), o.cell.ci_high.unwrap_or(0.0));
            println!(
                "  {:<11} {:.4} [{lo:.4}, {hi:.4}]  exact {:.4}",
                o.outcome,
                o.cell.p,
                o.cell.exact.unwrap_or(f64::NAN)
            );
        }
        if let Some(m) = report.metrics.iter().find(|m| m.name == "empty_turns") {
            println!(
                "  turns of 8 the place stood empty: {:.3} (exact {:.3})",
                m.value.unwrap_or(f64::NAN),
                m.exact.unwrap_or(f64::NAN)
            );
        }
    }
    Ok(())
}
