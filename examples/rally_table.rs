//! Print the exact chance that a routing Rank & File unit is back in good order, removed, or
//! still shaken after its rally phases, for each morale class and stands already lost — a table
//! for a rulebook, from the exact solution alone (no sampling).
//!
//! `cargo run --example rally_table [STANDS]` (default 8 stands; 12 rally phases).

use morale_lab::{Control, RunOptions};

fn main() -> morale_lab::Result<()> {
    let stands: u8 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .filter(|s| (2..=40).contains(s))
        .unwrap_or(8);
    let options = RunOptions::new(1, 1).exact_only(true);
    println!("A routing unit of {stands} stands rallying for 12 turns (RF-3, RF-5), exact:\n");
    println!(
        "{:<8} {:>4} {:>10} {:>10} {:>12}",
        "class", "lost", "recovered", "removed", "unrecovered"
    );
    for class in ["veteran", "regular", "green"] {
        // At half the stands lost the 50% rule disperses a routing unit at once (RF-3).
        for lost in 0..stands.div_ceil(2) {
            let lost_text = lost.to_string();
            let stands_text = stands.to_string();
            let settings = [
                ("class", class),
                ("stands", stands_text.as_str()),
                ("lost", lost_text.as_str()),
            ];
            let job = morale_lab::job("rank-and-file", "rally", &settings, &[])?;
            let report = job.run(&options, &Control::new())?;
            let p = |name: &str| {
                report
                    .outcomes
                    .iter()
                    .find(|o| o.outcome == name)
                    .and_then(|o| o.cell.exact)
                    .unwrap_or(f64::NAN)
            };
            println!(
                "{class:<8} {lost:>4} {:>10.4} {:>10.4} {:>12.4}",
                p("recovered"),
                p("removed"),
                p("unrecovered")
            );
        }
    }
    Ok(())
}
