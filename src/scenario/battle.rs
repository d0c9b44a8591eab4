//! `engagement` and `line`: whole fights played turn by turn in each system's own turn order
//! (docs/RULES.md §4; RF-13 for Rank & File). An engagement is solved exactly as well: its chain
//! (both units, the range, the turn and what the fight carries) is small enough, and the exact
//! solver runs the very turn the dice sampler plays. A line's field has too many states, so it
//! runs by Monte Carlo only. Both run with the dice sampler and report per-turn means.
//!
//! The field is a row of `files` (1 for an engagement, up to [`MAX_FILES`] for a line). In each
//! file a unit of side A faces a unit of side B; in a line the first `supports` files of each
//! side also have a supporting unit of the same spec behind. Side A advances a move a turn from
//! `range` until in contact when its [`Policy`] has it charge at all, and charges when the policy
//! says. A support steps up into its file when the unit in front is gone. Fire goes at the unit
//! opposite; a unit facing an empty place fires at a neighbour of that place instead (gaps in a
//! line expose the units beside them). Each rule system's turn is its own
//! [`Army`] (in its folder under `system/`).

// Turns index several parallel per-side, per-file arrays (fronts, supports, hits, charges) by
// the same side and file: index loops say that more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::hash::Hash;

use crate::chain::{Chain, ClassInfo, ValueInfo};
use crate::dice::Roll;
use crate::frac::Frac;
use crate::scenario::fire::Fire;
use crate::scenario::invariants::{self, Check, ensure};

/// The most units a side may have in the front line.
pub const MAX_FILES: usize = 12;

/// How a unit stands, for the line's bookkeeping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// In its place in the line.
    InLine,
    /// Still on the field but out of its place (unsteady, routing, retreating, falling back):
    /// its place stands empty.
    Shaken,
    /// Removed, eliminated or destroyed: it never acts again.
    Gone,
    /// No unit in this slot (a file with no support).
    Absent,
}

/// When side A charges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// From this turn on, charge whenever able (0: never on this account).
    pub charge_at_turn: u32,
    /// Charge a target that is shaken (unsteady, retreating, falling back).
    pub when_shaken: bool,
}

impl Policy {
    /// Whether side A ever charges (and so advances to contact).
    pub fn active(&self) -> bool {
        self.charge_at_turn > 0 || self.when_shaken
    }
    /// Whether side A charges a target this turn.
    #[inline]
    pub fn charges(&self, turn: u32, target_shaken: bool) -> bool {
        (self.charge_at_turn > 0 && turn >= self.charge_at_turn)
            || (self.when_shaken && target_shaken)
    }
}

/// What a system's turn needs to know besides the field.
#[derive(Debug, Clone, Copy)]
pub struct TurnContext {
    /// The turn being played (1-based).
    pub turn: u32,
    /// Files in play.
    pub files: usize,
    /// Side A's charge policy.
    pub policy: Policy,
    /// Fire reaches this many moves.
    pub fire_range: u8,
    /// The distance between the lines at the start of the turn, before side A's advance (a
    /// charge declared at the start of the turn covers it).
    pub start_range: u8,
}

/// The units on the field: `front[side][file]`, `back[side][file]`, and the distance between the
/// lines in moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Field<U> {
    /// The front line of each side.
    pub front: [[U; MAX_FILES]; 2],
    /// The supports behind it.
    pub back: [[U; MAX_FILES]; 2],
    /// Distance between the lines, in moves.
    pub range: u8,
}

#[cfg(test)]
impl<U: Copy> Field<U> {
    /// For the systems' scripted turns: one unit a side in file 0, `range` moves apart, no
    /// supports.
    pub(crate) fn one_file<A: Army<Unit = U>>(army: &A, range: u8) -> Self {
        let mut f = Field {
            front: [[army.absent(); MAX_FILES]; 2],
            back: [[army.absent(); MAX_FILES]; 2],
            range,
        };
        f.front[0][0] = army.unit(0, 0);
        f.front[1][0] = army.unit(1, 0);
        f
    }
}

/// For the systems' scripted turns: play one turn with `dice` in order and return how many of
/// them were used.
#[cfg(test)]
pub(crate) fn scripted_turn<A: Army>(
    army: &A,
    f: &mut Field<A::Unit>,
    ctx: &TurnContext,
    dice: &[u8],
) -> usize {
    let mut r = crate::dice::Scripted::new(dice);
    army.turn(f, ctx, &mut r);
    r.used()
}

/// A side's fire: `dice` dice at full strength hitting on `to_hit`+, falling in proportion to
/// the firer's strength (rounded); or a fixed table of losses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Volley {
    by_dice: Vec<Fire>,
    fixed: Option<Fire>,
}

impl Volley {
    /// `full` dice at full strength, hitting on `to_hit`+.
    pub fn dice(full: u32, to_hit: u8) -> Volley {
        Volley {
            by_dice: (0..=full).map(|n| Fire::dice(n, to_hit)).collect(),
            fixed: None,
        }
    }
    /// The same losses whatever the firer's strength.
    pub fn fixed(fire: Fire) -> Volley {
        Volley {
            by_dice: Vec::new(),
            fixed: Some(fire),
        }
    }
    /// One volley from a firer with `left` of `full` strength.
    #[inline(always)]
    pub fn sample<R: Roll>(&self, left: u32, full: u32, r: &mut R) -> u32 {
        if let Some(f) = &self.fixed {
            return f.sample(r);
        }
        let max = self.by_dice.len() as u32 - 1;
        // At full strength, every die (no division).
        let n = if left >= full && full > 0 {
            max
        } else {
            crate::fastdiv::div(max * left + full / 2, full.max(1))
        };
        self.by_dice[n.min(max) as usize].sample(r)
    }
    /// A description for reports.
    pub fn description(&self) -> String {
        match &self.fixed {
            Some(f) => f.description().to_string(),
            None => format!(
                "{} at full strength, fewer dice in proportion to losses",
                self.by_dice.last().map_or("no fire", |f| f.description())
            ),
        }
    }
}

/// One rule system's units and turn, for [`Battle`].
pub trait Army: Clone + Debug + Send + Sync {
    /// A unit slot's state: small and `Copy`.
    type Unit: Copy + Eq + Ord + Hash + Debug + Send + Sync;
    /// The names of the states a unit can end in (`good`, `routing` …).
    fn statuses(&self) -> &'static [&'static str];
    /// The end-state value names for side A and side B (`a_ends_good` …), as `statuses`.
    fn end_names(&self) -> [&'static [&'static str]; 2];
    /// An empty slot.
    fn absent(&self) -> Self::Unit;
    /// The unit of `side` in `file` at the start (the support when `back`).
    fn unit(&self, side: usize, file: usize) -> Self::Unit;
    /// How a unit stands.
    fn standing(&self, u: &Self::Unit) -> Standing;
    /// Index into `statuses` of a unit's state.
    fn status(&self, u: &Self::Unit) -> usize;
    /// Full strength (stands, quarters, pips) of the unit of `side` in `file`.
    fn strength(&self, side: usize, file: usize) -> u32;
    /// A unit in words for a table of play (`good 7/8`): its state and the strength it has
    /// left of its full strength; a system adds what else tells its states apart.
    fn unit_words(&self, side: usize, file: usize, u: &Self::Unit) -> String {
        format!(
            "{} {}/{}",
            self.statuses()[self.status(u)].replace('_', " "),
            i64::from(self.strength(side, file)) - i64::from(self.strength_lost(side, file, u)),
            self.strength(side, file)
        )
    }
    /// Strength lost by a unit of `side` in `file`.
    fn strength_lost(&self, side: usize, file: usize, u: &Self::Unit) -> u32;
    /// The strength unit `u` of `side` in `file` has left (stands, quarters, pips): what it
    /// holds of the line while in its place (docs/RULES.md §4, strength in the line). By
    /// default its full strength less what it lost.
    fn held(&self, side: usize, file: usize, u: &Self::Unit) -> u32 {
        self.strength(side, file)
            .saturating_sub(self.strength_lost(side, file, u))
    }
    /// The rule invariants of one turn of the unit of `side` in `file` that is on the field
    /// (see [`invariants`]).
    ///
    /// # Errors
    /// What broke.
    fn check_unit(&self, side: usize, file: usize, from: &Self::Unit, to: &Self::Unit) -> Check;
    /// A cost side A's units pay by choice, reported apart from the strength they lose (Linear
    /// Warfare: pips spent on double moves to charge, LW-3): its metric's name and meaning, or
    /// `None` where the system has none.
    fn apart(&self) -> Option<(&'static str, &'static str)> {
        None
    }
    /// How much of that cost unit `u` has paid (not counted in [`Army::strength_lost`]).
    fn apart_of(&self, u: &Self::Unit) -> u32 {
        let _ = u;
        0
    }
    /// True when a line of `files` a side with `supports` behind is solved exactly (the whole
    /// field as a chain). The default: one file, whatever its supports (measured at the
    /// defaults, 12 turns: Rank & File 0.16 s, the others under 0.01 s); two files take a
    /// Rank & File turn past a million branches of chance, and an Effectiveness solve about
    /// 280 s.
    fn line_solves(&self, files: usize, supports: [usize; 2]) -> bool {
        let _ = supports;
        files == 1
    }
    /// Which lines [`Army::line_solves`], and why not more, in a report's words.
    fn line_solves_words(&self) -> &'static str {
        "a line of one file a side is solved exactly, whatever its supports; two files already take over a million branches of chance in a Rank & File turn, or minutes to solve in Effectiveness"
    }
    /// The target `charge_when_shaken` charges, in the system's words ("a shaken target"; the
    /// 25% rules have no shaken state, and their policy charges a retreating unit).
    fn shaken_target(&self) -> &'static str {
        "a shaken target"
    }
    /// Whether the target `charge_when_shaken` waits for is never within reach (the 25% rules'
    /// retreating unit, out of the enemy's range while `retreat_out_of_range` holds): the
    /// policy then plays as never charging, and a report says why it scores so.
    fn shaken_target_out_of_reach(&self) -> bool {
        false
    }
    /// One game turn for every unit on the field, in the system's turn order.
    fn turn<R: Roll>(&self, f: &mut Field<Self::Unit>, ctx: &TurnContext, r: &mut R);
}

/// Whom a unit in `file` fires at: the enemy opposite when `targetable`, else a neighbour of
/// that place (left first).
#[inline]
pub(crate) fn fire_target(
    targetable: &[bool; MAX_FILES],
    file: usize,
    files: usize,
) -> Option<usize> {
    if targetable[file] {
        Some(file)
    } else if file > 0 && targetable[file - 1] {
        Some(file - 1)
    } else if file + 1 < files && targetable[file + 1] {
        Some(file + 1)
    } else {
        None
    }
}

/// The outcome classes of an engagement.
pub const ENGAGEMENT_CLASSES: [ClassInfo; 4] = [
    ClassInfo {
        name: "fighting",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "side_a_holds",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "side_b_holds",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "both_gone",
        absorbing: true,
        empty: false,
    },
];

/// Side A's choices in an engagement's play ([`Chain::choices`]).
const PLAY_CHOICES: [&str; 2] = ["hold", "charge"];

/// The outcome classes of a line.
pub const LINE_CLASSES: [ClassInfo; 4] = [
    ClassInfo {
        name: "fighting",
        absorbing: false,
        empty: false,
    },
    ClassInfo {
        name: "side_a_wins",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "side_b_wins",
        absorbing: true,
        empty: false,
    },
    ClassInfo {
        name: "both_broken",
        absorbing: true,
        empty: false,
    },
];

/// The per-turn series of a battle.
pub const SERIES: [&str; 10] = [
    "gaps_a",
    "gaps_b",
    "lost_a",
    "lost_b",
    "shaken_a",
    "shaken_b",
    "strength_a",
    "strength_b",
    "weak_a",
    "weak_b",
];

/// The state of a battle: the field, the turn, how it ended (0: still going; else the class),
/// units lost that were replaced by their supports, strength they took with them, and
/// position-turns each line stood empty so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BattleState<U> {
    /// The units.
    pub field: Field<U>,
    /// Turns played.
    pub turn: u16,
    /// 0 while fighting, else the outcome class.
    pub end: u8,
    /// Units gone and replaced by their supports, per side.
    pub replaced: [u8; 2],
    /// Their strength lost, per side ([`Army::strength_lost`] when they went: what they lost,
    /// not what they had).
    pub spent: [u16; 2],
    /// What they paid apart ([`Army::apart`]), per side.
    pub spent_apart: [u16; 2],
    /// Positions empty, summed over the turns so far, per side.
    pub holes: [u16; 2],
    /// The field's counts, per side, as of the last turn (or the start): positions in the front
    /// line not held, units gone (not counting those replaced), and units shaken.
    pub counts: [Counts; 2],
}

/// One side's counts on the field (see [`BattleState::counts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Counts {
    /// Positions in the front line not held by a unit in its place.
    pub gaps: u8,
    /// Units gone (removed, eliminated, destroyed) still in their slots.
    pub gone: u8,
    /// Units shaken (on the field but out of their places).
    pub shaken: u8,
    /// Strength held in the front line: the units in their places, what each has left.
    pub held: u16,
}

/// An engagement (one file, decided when a unit is gone) or a line (decided by each army's
/// break point, RF-13 / LW-7 / a parameter for the effectiveness rules).
#[derive(Debug, Clone)]
pub struct Battle<A: Army> {
    /// The system's units and turn.
    pub army: A,
    /// Files in play.
    pub files: usize,
    /// Supports per side (in the first files).
    pub supports: [usize; 2],
    /// Turn cap.
    pub turns: u32,
    /// A line (break points) rather than an engagement.
    pub line: bool,
    /// Units lost at which each side breaks (line).
    pub break_at: [u32; 2],
    /// Fire reaches this many moves.
    pub fire_range: u8,
    /// Side A's charges.
    pub policy: Policy,
    /// Side A's charges as play solved them, in place of `policy` (`None`: the policy).
    pub played: Option<std::sync::Arc<crate::chain::Played<BattleState<A::Unit>>>>,
    /// Solved exactly: an engagement, or a line small enough ([`Army::line_solves`]).
    solves: bool,
    values: Vec<ValueInfo>,
    series: [ValueInfo; 10],
    /// Each side's front line at full strength (the units it starts with in their places).
    full: [u32; 2],
    /// A turn is weakly held below this share of the front's full strength.
    weak_share: Frac,
    /// Where every battle starts (worked out once).
    first: BattleState<A::Unit>,
}

/// The shape of a battle: its files, supports, turns, kind, break point, distances and side A's
/// charge policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Files in play (1 for an engagement; at most `MAX_FILES`).
    pub files: usize,
    /// Supports per side (at most the files).
    pub supports: [usize; 2],
    /// Turn cap.
    pub turns: u32,
    /// A line (break points) rather than an engagement.
    pub line: bool,
    /// The share of its units, in percent, whose loss breaks a side (rounded up, at least 1).
    pub break_point_percent: u32,
    /// Distance at the start, in moves.
    pub range: u8,
    /// Fire reaches this many moves.
    pub fire_range: u8,
    /// Side A's charges.
    pub policy: Policy,
    /// A turn is weakly held when the front holds less than this share of its full strength.
    pub weak_share: Frac,
}

impl<A: Army> Battle<A> {
    /// Every value of state `s` (see [`Chain::values_all`]) with `holes` for its hole-turns:
    /// one pass over the files for every value of both sides.
    fn values_with_holes(&self, s: &BattleState<A::Unit>, holes: [u16; 2], out: &mut [u32]) {
        let f = &s.field;
        let (mut gone, mut lost, mut apart) = ([0u32; 2], [0u32; 2], 0u32);
        for side in 0..2 {
            for k in 0..self.files {
                for u in [&f.front[side][k], &f.back[side][k]] {
                    match self.army.standing(u) {
                        Standing::Absent => {}
                        st => {
                            gone[side] += u32::from(st == Standing::Gone);
                            lost[side] += self.army.strength_lost(side, k, u);
                        }
                    }
                    if side == 0 {
                        apart += self.army.apart_of(u);
                    }
                }
            }
        }
        // The values' order (see `Battle::new`): units lost, strength lost and hole-turns of
        // each side; an engagement's end states of side A, then side B; the pips apart.
        let (head, rest) = out.split_at_mut(6);
        for side in 0..2 {
            head[side] = u32::from(s.replaced[side]) + gone[side];
            head[2 + side] = u32::from(s.spent[side]) + lost[side];
            head[4 + side] = u32::from(holes[side]);
        }
        let rest = match self.army.apart() {
            Some(_) => {
                let (last, ends) = rest.split_last_mut().expect("the apart value");
                *last = u32::from(s.spent_apart[0]) + apart;
                ends
            }
            None => rest,
        };
        if !rest.is_empty() {
            let n = self.army.statuses().len();
            for (side, ends) in rest.chunks_exact_mut(n).enumerate() {
                let st = self.army.status(&f.front[side][0]);
                for (k, o) in ends.iter_mut().enumerate() {
                    *o = u32::from(k == st);
                }
            }
        }
    }

    /// The battle of `army` in the given shape.
    pub fn new(army: A, shape: Shape) -> Self {
        let Shape {
            files,
            supports,
            turns,
            line,
            break_point_percent,
            range,
            fire_range,
            policy,
            weak_share,
        } = shape;
        let files = files.clamp(1, MAX_FILES);
        let supports = supports.map(|s| s.min(files));
        let units = |side: usize| (files + supports[side]) as u32;
        let break_at = [0, 1].map(|s| (units(s) * break_point_percent).div_ceil(100).max(1));
        let strength = |side: usize| -> u32 {
            (0..files)
                .map(|f| army.strength(side, f) * (1 + u32::from(f < supports[side])))
                .sum()
        };
        let holes = files as u32 * turns;
        let mut values = vec![
            ValueInfo {
                name: "a_units_lost",
                max: units(0),
            },
            ValueInfo {
                name: "b_units_lost",
                max: units(1),
            },
            ValueInfo {
                name: "a_strength_lost",
                max: strength(0),
            },
            ValueInfo {
                name: "b_strength_lost",
                max: strength(1),
            },
            ValueInfo {
                name: "a_hole_turns",
                max: holes,
            },
            ValueInfo {
                name: "b_hole_turns",
                max: holes,
            },
        ];
        if !line {
            for names in army.end_names() {
                values.extend(names.iter().map(|&name| ValueInfo { name, max: 1 }));
            }
        }
        if let Some((name, _)) = army.apart() {
            values.push(ValueInfo {
                name,
                max: strength(0),
            });
        }
        let full = [0, 1].map(|side| (0..files).map(|f| army.strength(side, f)).sum::<u32>());
        let series = std::array::from_fn(|i| ValueInfo {
            name: SERIES[i],
            max: match i {
                0 | 1 => files as u32,
                6 | 7 => full[i % 2],
                8 | 9 => 1,
                _ => units(i % 2),
            },
        });
        let absent = army.absent();
        let mut field = Field {
            front: [[absent; MAX_FILES]; 2],
            back: [[absent; MAX_FILES]; 2],
            range,
        };
        for side in 0..2 {
            for i in 0..files {
                field.front[side][i] = army.unit(side, i);
                if i < supports[side] {
                    field.back[side][i] = army.unit(side, i);
                }
            }
        }
        let mut first = BattleState {
            field,
            turn: 0,
            end: 0,
            replaced: [0, 0],
            spent: [0, 0],
            spent_apart: [0, 0],
            holes: [0, 0],
            counts: [Counts::default(); 2],
        };
        let mut battle = Battle {
            solves: !line || army.line_solves(files, supports),
            army,
            files,
            supports,
            turns,
            line,
            break_at,
            fire_range,
            policy,
            played: None,
            values,
            series,
            full,
            weak_share,
            first,
        };
        first.counts = battle.counts_of(&first.field);
        battle.first = first;
        battle
    }

    /// Each side's counts on `field`, in one pass over the files in play.
    #[inline(always)]
    fn counts_of(&self, field: &Field<A::Unit>) -> [Counts; 2] {
        let mut counts = [Counts::default(); 2];
        for (side, c) in counts.iter_mut().enumerate() {
            for i in 0..self.files {
                let front = self.army.standing(&field.front[side][i]);
                c.gaps += u8::from(front != Standing::InLine);
                if front == Standing::InLine {
                    c.held += self.army.held(side, i, &field.front[side][i]) as u16;
                }
                c.gone += u8::from(front == Standing::Gone);
                c.shaken += u8::from(front == Standing::Shaken);
            }
            // Supports stand only in the first files (the slots behind the others are empty).
            for i in 0..self.supports[side] {
                let back = self.army.standing(&field.back[side][i]);
                c.gone += u8::from(back == Standing::Gone);
                c.shaken += u8::from(back == Standing::Shaken);
            }
        }
        counts
    }

    /// Units of `side` gone so far.
    pub fn units_lost(&self, s: &BattleState<A::Unit>, side: usize) -> u32 {
        let gone = |u: &A::Unit| u32::from(self.army.standing(u) == Standing::Gone);
        let f = &s.field;
        u32::from(s.replaced[side])
            + (0..self.files)
                .map(|i| gone(&f.front[side][i]) + gone(&f.back[side][i]))
                .sum::<u32>()
    }

    fn count(&self, s: &BattleState<A::Unit>, side: usize, what: Standing) -> u32 {
        let f = &s.field;
        (0..self.files)
            .map(|i| {
                u32::from(self.army.standing(&f.front[side][i]) == what)
                    + u32::from(self.army.standing(&f.back[side][i]) == what)
            })
            .sum()
    }

    /// True when `held` is less than the weak share of `side`'s full front.
    #[inline(always)]
    fn weak(&self, held: u32, side: usize) -> bool {
        crate::scenario::strength::is_weak(held, self.full[side], self.weak_share)
    }

    fn gaps(&self, s: &BattleState<A::Unit>, side: usize) -> u32 {
        (0..self.files)
            .filter(|&i| self.army.standing(&s.field.front[side][i]) != Standing::InLine)
            .count() as u32
    }
}

impl<A: Army> Battle<A> {
    /// The charge policy of choice `c` of [`PLAY_CHOICES`] for one turn.
    #[inline]
    fn chosen(c: usize) -> Policy {
        match c {
            // Hold: no charge this turn, whatever the target's state.
            0 => Policy {
                charge_at_turn: 0,
                when_shaken: false,
            },
            // Charge: advance and charge whenever able this turn.
            _ => Policy {
                charge_at_turn: 1,
                when_shaken: true,
            },
        }
    }
    /// One turn of the battle with side A's charges as `policy` says (its own, or a choice
    /// made in play).
    #[inline(always)]
    fn step_under<R: Roll>(&self, s: &mut BattleState<A::Unit>, policy: Policy, r: &mut R) {
        if s.end != 0 {
            return;
        }
        s.turn += 1;
        let f = &mut s.field;
        let start_range = f.range;
        // Movement: side A closes to contact when it means to charge.
        if policy.active() && f.range > 1 {
            f.range -= 1;
        }
        let ctx = TurnContext {
            turn: u32::from(s.turn),
            files: self.files,
            policy,
            fire_range: self.fire_range,
            start_range,
        };
        self.army.turn(f, &ctx, r);
        // Supports step up into the places of units that are gone.
        for side in 0..2 {
            for i in 0..self.supports[side] {
                let back = self.army.standing(&f.back[side][i]);
                if self.army.standing(&f.front[side][i]) == Standing::Gone
                    && matches!(back, Standing::InLine | Standing::Shaken)
                {
                    s.replaced[side] += 1;
                    // What the gone unit lost, as if it were still in its place (a unit gone
                    // with stands, quarters or pips left counts only those it lost).
                    let gone = &f.front[side][i];
                    s.spent[side] += self.army.strength_lost(side, i, gone) as u16;
                    s.spent_apart[side] += self.army.apart_of(gone) as u16;
                    f.front[side][i] = f.back[side][i];
                    f.back[side][i] = self.army.absent();
                }
            }
        }
        // One pass over the files for the holes, the decision and the per-turn series.
        s.counts = self.counts_of(&s.field);
        for side in 0..2 {
            s.holes[side] += u16::from(s.counts[side].gaps);
        }
        let gone = if self.line {
            [0, 1].map(|side| {
                u32::from(s.replaced[side]) + u32::from(s.counts[side].gone) >= self.break_at[side]
            })
        } else {
            [0, 1].map(|side| self.army.standing(&s.field.front[side][0]) == Standing::Gone)
        };
        s.end = match gone {
            [true, true] => 3,
            [false, true] => 1,
            [true, false] => 2,
            [false, false] => 0,
        };
    }
}

impl<A: Army> Chain for Battle<A> {
    type State = BattleState<A::Unit>;
    /// A decided battle stays decided; turns count up; holes and replacements only add up
    /// (at most one replacement per support); an absent slot stays absent and a gone unit
    /// never changes again (it never acts); every unit on the field keeps its system's
    /// invariants ([`Army::check_unit`]); a support that steps up continues from its own state.
    fn check_step(&self, from: Self::State, to: Self::State) -> Check {
        invariants::stays(from.end != 0, &from, &to)?;
        if from.end != 0 {
            return Ok(());
        }
        ensure(to.turn == from.turn + 1, || "a turn is one turn".into())?;
        for side in 0..2 {
            ensure(
                to.holes[side] >= from.holes[side]
                    && to.replaced[side] >= from.replaced[side]
                    && usize::from(to.replaced[side]) <= self.supports[side],
                || format!("side {side}'s holes or replacements went wrong: {from:?} → {to:?}"),
            )?;
        }
        let slot = |side: usize, file: usize, a: &A::Unit, b: &A::Unit| -> Check {
            match self.army.standing(a) {
                Standing::Absent | Standing::Gone => ensure(a == b, || {
                    format!(
                        "an absent or gone unit changed (side {side}, file {file}): {a:?} → {b:?}"
                    )
                }),
                _ => self.army.check_unit(side, file, a, b),
            }
        };
        for side in 0..2 {
            for i in 0..MAX_FILES {
                let (fb, tb) = (&from.field.back[side][i], &to.field.back[side][i]);
                let (ff, tf) = (&from.field.front[side][i], &to.field.front[side][i]);
                let stepped_up = self.army.standing(tb) == Standing::Absent
                    && self.army.standing(fb) != Standing::Absent;
                if stepped_up {
                    ensure(to.replaced[side] > from.replaced[side], || {
                        format!("a support left without stepping up (side {side}, file {i})")
                    })?;
                    slot(side, i, fb, tf)?;
                } else {
                    slot(side, i, fb, tb)?;
                    slot(side, i, ff, tf)?;
                }
            }
        }
        Ok(())
    }
    fn start(&self) -> Self::State {
        self.first
    }
    /// Hole-turns only accumulate, and the turn count matters only up to side A's
    /// `charge_at_turn` (every later turn charges alike).
    fn core(&self, mut s: Self::State) -> Self::State {
        s.holes = [0, 0];
        // A solved play reads the turn (its choice may change with it); the own policy only
        // up to `charge_at_turn`.
        if self.played.is_none() {
            s.turn = s
                .turn
                .min(self.policy.charge_at_turn.min(u32::from(u16::MAX)) as u16);
        }
        s
    }
    fn accumulated(&self, s: Self::State) -> u64 {
        u64::from(s.holes[0]) | u64::from(s.holes[1]) << 16 | u64::from(s.turn) << 32
    }
    #[inline(always)]
    fn state_of_parts(&self, mut core: Self::State, accumulated: u64) -> Self::State {
        core.holes = [accumulated as u16, (accumulated >> 16) as u16];
        core.turn = (accumulated >> 32) as u16;
        core
    }
    fn carry(&self, s: Self::State, mut to: Self::State) -> Self::State {
        to.turn = s.turn + 1;
        for side in 0..2 {
            to.holes[side] += s.holes[side];
        }
        to
    }
    #[inline(always)]
    fn carried(&self, accumulated: u64, to: u64) -> u64 {
        // Hole-turns add up, side by side in their 16 bits (each under 2^16: the turns times
        // the files); the turn is one more than the state's own.
        let holes = (accumulated & 0xffff_ffff) + (to & 0xffff_ffff);
        holes | ((accumulated >> 32) + 1) << 32
    }
    fn turns(&self) -> u32 {
        self.turns
    }
    /// An engagement: yes (one file; Rank & File at the defaults reaches about 49,000 states
    /// behind 148 cores); a line: where [`Army::line_solves`] (its field of up to 12 files a
    /// side has far too many states past a file or two).
    fn exact(&self) -> bool {
        self.solves
    }
    #[inline]
    fn step<R: Roll>(&self, mut s: Self::State, r: &mut R) -> Self::State {
        self.step_in_place(&mut s, r);
        s
    }
    fn step_in_place<R: Roll>(&self, s: &mut Self::State, r: &mut R) {
        let policy = match &self.played {
            None => self.policy,
            Some(table) => match table.choice(&self.play_state(*s), u32::from(s.turn) + 1) {
                Some(c) => Self::chosen(c),
                None => self.policy,
            },
        };
        self.step_under(s, policy, r);
    }
    fn with_play(&self, table: std::sync::Arc<crate::chain::Played<Self::State>>) -> Option<Self> {
        (!self.choices().is_empty()).then(|| Battle {
            played: Some(table),
            ..self.clone()
        })
    }
    /// Side A's charge in an engagement (RF-13, EF-3, LW-3: it may charge a target in reach, or
    /// hold and trade fire): hold or charge, chosen at the start of each turn. A line's charges
    /// are chosen file by file, which play does not solve (yet): it has none.
    fn choices(&self) -> &'static [&'static str] {
        if self.line { &[] } else { &PLAY_CHOICES }
    }
    fn step_choosing<R: Roll>(
        &self,
        mut s: Self::State,
        turn: u32,
        choice: Option<usize>,
        r: &mut R,
    ) -> Self::State {
        s.turn = turn.saturating_sub(1).min(u32::from(u16::MAX)) as u16;
        let policy = match choice {
            None => self.policy,
            Some(c) => Self::chosen(c),
        };
        self.step_under(&mut s, policy, r);
        s
    }
    /// A battle as play knows it: no hole-turns (they only add up) and no turn count (the
    /// solve counts turns, and a chosen charge does not read it).
    fn play_state(&self, mut s: Self::State) -> Self::State {
        s.holes = [0, 0];
        s.turn = 0;
        s
    }
    fn own_turn(&self, turn: u32) -> u32 {
        // Side A's own policy reads the turn only up to `charge_at_turn`.
        turn.min(self.policy.charge_at_turn)
    }
    /// Each side's strength left, whether the enemy is shaken, the range, and each side's
    /// state by name (`enemy routing` 1).
    fn play_features(&self, s: Self::State) -> Vec<(String, i64)> {
        let (a, b) = (&s.field.front[0][0], &s.field.front[1][0]);
        let left = |side: usize, u: &A::Unit| {
            i64::from(self.army.strength(side, 0)) - i64::from(self.army.strength_lost(side, 0, u))
        };
        let mut out = vec![
            ("own strength".to_string(), left(0, a)),
            ("enemy strength".to_string(), left(1, b)),
            (
                "enemy shaken".to_string(),
                i64::from(self.army.standing(b) == Standing::Shaken),
            ),
            ("range".to_string(), i64::from(s.field.range)),
        ];
        let names = self.army.statuses();
        for (i, name) in names.iter().enumerate() {
            out.push((format!("enemy {name}"), i64::from(self.army.status(b) == i)));
        }
        out
    }
    fn play_words(&self, s: Self::State) -> [String; 2] {
        let range = match s.field.range {
            0 | 1 => String::new(),
            r => format!(", {r} moves off"),
        };
        [0, 1].map(|side| self.army.unit_words(side, 0, &s.field.front[side][0]) + range.as_str())
    }
    fn classes(&self) -> &[ClassInfo] {
        if self.line {
            &LINE_CLASSES
        } else {
            &ENGAGEMENT_CLASSES
        }
    }
    fn class_of(&self, s: Self::State) -> usize {
        usize::from(s.end)
    }
    fn values(&self) -> &[ValueInfo] {
        &self.values
    }
    fn values_all(&self, s: &Self::State, out: &mut [u32]) {
        self.values_with_holes(s, s.holes, out);
    }
    fn values_of_parts(&self, core: &Self::State, accumulated: u64, out: &mut [u32]) {
        let holes = [accumulated as u16, (accumulated >> 16) as u16];
        self.values_with_holes(core, holes, out);
    }
    #[inline(always)]
    fn value_of_accumulated(&self, i: usize, accumulated: u64) -> Option<u32> {
        // The hole-turns of side A and B (values 4 and 5, see `values_with_holes`); the turn
        // number the accumulated number also holds is no value.
        match i {
            4 => Some(u32::from(accumulated as u16)),
            5 => Some(u32::from((accumulated >> 16) as u16)),
            _ => None,
        }
    }
    fn values_of_core(&self) -> bool {
        true
    }
    fn value_of(&self, s: Self::State, i: usize) -> u32 {
        // Read with the others: one reading of the values (the Monte Carlo loop's).
        let mut all = vec![0; self.values.len()];
        self.values_all(&s, &mut all);
        all[i]
    }
    fn series(&self) -> &[ValueInfo] {
        &self.series
    }
    fn series_of(&self, s: Self::State, i: usize) -> u32 {
        let side = i % 2;
        match i {
            0 | 1 => self.gaps(&s, side),
            2 | 3 => self.units_lost(&s, side),
            4 | 5 => self.count(&s, side, Standing::Shaken),
            6 | 7 => u32::from(self.counts_of(&s.field)[side].held),
            _ => u32::from(self.weak(u32::from(self.counts_of(&s.field)[side].held), side)),
        }
    }
    /// The series are the counts the turn leaves, never the hole-turns or the turn.
    fn series_of_core(&self) -> bool {
        true
    }
    fn solve_in_state_order(&self) -> bool {
        // No committed number was summed in the states' order here, and sorting a turn's
        // live states (each some hundred fields) took a quarter of a fight's solve.
        false
    }
    fn series_all(&self, s: &Self::State, out: &mut [u32]) {
        // The counts the turn (or the start) left in the state, in the series' order (see
        // `Battle::new`): gaps, units lost and units shaken, side A then side B.
        let [a, b] = &s.counts;
        let all = [
            u32::from(a.gaps),
            u32::from(b.gaps),
            u32::from(a.gone + s.replaced[0]),
            u32::from(b.gone + s.replaced[1]),
            u32::from(a.shaken),
            u32::from(b.shaken),
            u32::from(a.held),
            u32::from(b.held),
            u32::from(self.weak(u32::from(a.held), 0)),
            u32::from(self.weak(u32::from(b.held), 1)),
        ];
        for (o, v) in out.iter_mut().zip(all) {
            *o = v;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rank & File

/// A process played out within one battle turn (a melee fought to its end), for the exact
/// solver: each start's ends with their chances, worked out once round by round and kept, so
/// that the turn takes the whole process as one [`Roll::branch`] (a melee of several rounds
/// followed die by die through every other branch of the turn would be past counting). The
/// dice and scripted dice never take the worked-out ends: they roll every die, which is how the
/// samplers check these distributions. Copies of an army share what was worked out.
#[derive(Debug)]
pub struct PlayedOut<K, S>(std::sync::Arc<std::sync::Mutex<HashMap<K, std::sync::Arc<Ends<S>>>>>);

impl<K, S> Clone for PlayedOut<K, S> {
    fn clone(&self) -> Self {
        PlayedOut(self.0.clone())
    }
}

impl<K, S> Default for PlayedOut<K, S> {
    fn default() -> Self {
        PlayedOut(Default::default())
    }
}

/// The ends of a process played out within a turn, each once, with their chances (positive,
/// summing to 1).
#[derive(Debug)]
pub struct Ends<S> {
    /// The ends, in their order.
    pub ends: Vec<S>,
    /// Their chances.
    pub pmf: Vec<f64>,
}

impl<K: Eq + Hash, S: Copy + Ord> PlayedOut<K, S> {
    /// The state `process` reaches from `start` once `over` says it is over or after `rounds`
    /// steps, by `r`. The dice roll it step by step, as the battle code always did; the exact
    /// solver takes one branch over its ends, worked out once per `key` (which must name
    /// everything the process depends on) and kept: an end is what `end_of` keeps of the state
    /// reached (what the turn reads of it, so that ends the turn cannot tell apart are one
    /// branch).
    #[allow(clippy::too_many_arguments)]
    pub fn play<C: Chain<State = S>, R: Roll>(
        &self,
        key: K,
        process: &C,
        start: S,
        rounds: u32,
        r: &mut R,
        over: impl Fn(&S) -> bool,
        end_of: impl Fn(S) -> S,
    ) -> S {
        if !r.follows_branches() {
            let mut s = start;
            for _ in 0..rounds {
                s = process.step(s, r);
                if over(&s) {
                    break;
                }
            }
            return s;
        }
        let ends = {
            let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
            kept.entry(key)
                .or_insert_with(|| {
                    std::sync::Arc::new(Self::work_out(process, start, rounds, &over, &end_of))
                })
                .clone()
        };
        ends.ends[r.branch(&ends.pmf)]
    }

    /// The ends of `process` from `start` with their chances, round by round (each state of a
    /// round once, with its chance).
    fn work_out<C: Chain<State = S>>(
        process: &C,
        start: S,
        rounds: u32,
        over: &impl Fn(&S) -> bool,
        end_of: &impl Fn(S) -> S,
    ) -> Ends<S> {
        let mut dist: BTreeMap<S, f64> = BTreeMap::from([(start, 1.0)]);
        for _ in 0..rounds {
            if dist.keys().all(over) {
                break;
            }
            let mut next: BTreeMap<S, f64> = BTreeMap::new();
            for (s, p) in dist {
                if over(&s) {
                    *next.entry(s).or_insert(0.0) += p;
                    continue;
                }
                crate::exact::enumerate(
                    |o| process.step(s, o),
                    |s2, q| *next.entry(s2).or_insert(0.0) += p * q,
                );
            }
            dist = next;
        }
        let mut ends: BTreeMap<S, f64> = BTreeMap::new();
        for (s, p) in dist {
            *ends.entry(end_of(s)).or_insert(0.0) += p;
        }
        let (ends, pmf) = ends.into_iter().filter(|(_, p)| *p > 0.0).unzip();
        Ends { ends, pmf }
    }
}
