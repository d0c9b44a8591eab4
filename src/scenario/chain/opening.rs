//! The opening: every path of a trial's first turns, drawn in one go.

use super::*;

/// Most paths an opening table may hold.
pub(super) const MAX_OPENING_PATHS: usize = 4096;

/// Every path of a trial's first turns, drawn in one go: each path's exact weight and the
/// tally increments it makes, and where a trial that outlives the opening carries on.
#[derive(Debug, Clone)]
pub(super) struct Opening {
    pub(super) turns: usize,
    pub(super) table: Weights,
    pub(super) paths: Vec<OpeningPath>,
    pub(super) incs: Vec<u32>,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct OpeningPath {
    /// Its tally increments are `incs[from..to]`.
    pub(super) from: u32,
    pub(super) to: u32,
    /// Where the trial carries on after the opening (`None`: it ended within it).
    pub(super) cont: Option<Cont>,
}

/// Where a trial that outlived its opening carries on: its state, and the turns its place
/// stood empty so far.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cont {
    pub(super) state: u32,
    pub(super) empty: u32,
}

impl<C: Chain> ChainSim<C> {
    /// The opening table of the first `k` turns, if its paths are few enough and their
    /// common denominator fits 64 bits.
    pub(super) fn build_opening(&self, table: &Table<C::State>, k: usize) -> Option<Opening> {
        if table.rows[0].absorbing {
            return None;
        }
        let paths = table.paths(0, k, MAX_OPENING_PATHS)?;
        let lcm = common_denominator(&paths)?;
        let lcm = u64::try_from(lcm).ok()?;
        let mut weights = Vec::with_capacity(paths.len());
        let mut records = Vec::with_capacity(paths.len());
        let mut incs = Vec::new();
        for (path, num, den) in &paths {
            weights.push(u64::try_from(num * (u128::from(lcm) / den)).ok()?);
            let from = incs.len() as u32;
            let cont = self.replay(table, path, &mut incs);
            records.push(OpeningPath {
                from,
                to: incs.len() as u32,
                cont,
            });
        }
        let table_w = Weights::new(weights)?;
        assert_eq!(
            table_w.total(),
            lcm,
            "an opening's paths cover every dice sequence"
        );
        Some(Opening {
            turns: k,
            table: table_w,
            paths: records,
            incs,
        })
    }

    /// The tally increments of a trial that visits `path` (the state after each turn), as the
    /// table sampler records them, and where it stands afterwards if it has not ended.
    pub(super) fn replay(
        &self,
        table: &Table<C::State>,
        path: &[u32],
        incs: &mut Vec<u32>,
    ) -> Option<Cont> {
        let (record, empty, cont) = self.path_record(table, 0, 0, path);
        incs.extend(record);
        if cont == ENDED {
            incs.push(self.layout.empty(empty as usize) as u32);
            return None;
        }
        Some(Cont { state: cont, empty })
    }
}
