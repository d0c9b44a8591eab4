//! The dice sampler's replay trees: each compiled state's turn as the tree of the draws its
//! rules code makes (a die, then by its face the next die or table, … down to the state the
//! turn ends in), worked out once by running the rules code on every sequence of draws. A
//! trial then rolls the same dice in the same order as the rules code would and follows the
//! tree instead of running the code: the same draws give the same states, so the tally is the
//! rules code's to the bit (a test holds the two paths together), at the price of a lookup a
//! die.

use super::*;

/// The most nodes all the trees of a chain may have together (beyond it the dice sampler runs
/// the rules code itself).
const MAX_NODES: usize = 1 << 20;

/// The most distinct sequences of draws one state's turn may have.
const MAX_PATHS: usize = 1 << 14;

/// The most distinct tables the rules code may draw from.
const MAX_TABLES: usize = 1 << 12;

/// A node's kind while the trees are built: the turn ends here, in the state `at`.
const LEAF: u8 = 0;
/// A node's kind: a six-sided die, its faces' nodes from `at`.
const D6: u8 = 1;
/// A node's kind: a draw from table `table`, its outcomes' nodes from `at`.
const PICK: u8 = 2;
/// A node no sequence of draws reaches (yet).
const UNSET: u8 = 3;
/// A root's kind: the turn draws nothing; the node it ends at is `at`.
const NO_DRAW: u8 = 4;

/// One node of a tree while it is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    kind: u8,
    table: u32,
    at: u32,
}

/// One node of the linked trees, as a trial walks them. A draw node (`end` false) says what to
/// draw (`kind`, `table`) and where its outcomes' nodes start (`at`). An end node is where a
/// turn ends: it names the state (`state`, its `class`) and holds that state's root (`kind`,
/// `table`, `at`: the next turn's first draw), so a turn of one die is one load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Step {
    kind: u8,
    end: bool,
    class: u8,
    /// Its class is absorbing (bit 0), its place stands empty there (bit 1).
    flags: u8,
    table: u32,
    at: u32,
    state: u32,
}

impl Step {
    /// The state a turn ended in.
    #[inline(always)]
    pub(super) fn state(self) -> usize {
        self.state as usize
    }
    /// Its class.
    #[inline(always)]
    pub(super) fn class(self) -> usize {
        usize::from(self.class)
    }
    /// Where the nodes of its next draw's outcomes start.
    #[inline(always)]
    pub(super) fn at(self) -> usize {
        self.at as usize
    }
    /// Whether its class is absorbing.
    #[inline(always)]
    pub(super) fn absorbing(self) -> bool {
        self.flags & 1 != 0
    }
    /// 1 when the unit's place stands empty in its class, else 0.
    #[inline(always)]
    pub(super) fn empty(self) -> usize {
        usize::from(self.flags >> 1)
    }
}

impl Node {
    const UNSET: Node = Node {
        kind: UNSET,
        table: 0,
        at: 0,
    };
}

/// Every compiled state's tree, linked (see [`Step`]).
#[derive(Debug, Clone)]
pub(super) struct Trees {
    /// Each state's root: an end node of that state (absorbing states have no draws: their
    /// root is never walked from).
    roots: Vec<Step>,
    nodes: Vec<Step>,
    tables: Vec<Weights>,
    /// When every draw of every tree is a die and every live state's turn draws at least one
    /// (and the trees are small enough to pack): the trees packed for such dice.
    dice: Option<DiceTrees>,
    /// Otherwise, when every live state's turn draws at least one and every table drawn from
    /// is narrow enough (and the trees small enough) to pack: the trees packed for dice and
    /// picks.
    picks: Option<PickTrees>,
}

/// The replay trees of a chain whose every draw is a die, packed (see [`DieNode`]).
#[derive(Debug, Clone)]
pub(super) struct DiceTrees {
    /// The nodes, as [`Trees::nodes`].
    nodes: Vec<DieNode>,
    /// The start's end node.
    start: DieNode,
    /// How many states the trees lead to.
    states: usize,
    /// The keys (see [`DiceTrees::keys`]).
    keys: Option<Vec<DieNode>>,
}

/// A node of trees of dice only, packed in 8 bytes: the move its turn makes, from the class of
/// the state whose tree it is in to its own, as `from · classes + to` (bits 0 to 11); its key
/// (bits 12 to 18: the place of its move and state among the trees' end nodes', see
/// [`DiceTrees::keys`]); an end node (bit 19), its class absorbing (bit 20), its place empty
/// (bit 21); its slot (bits 22 to 42): an absorbing end node's state, a live end node's state
/// plus the number of states; and where its faces' nodes start (bits 43 to 63), for an
/// absorbing end node the start's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct DieNode(u64);

impl DieNode {
    /// The packed node of `s` in the tree of a state of class `from`, of `classes` classes and
    /// `states` states, with key `key`, when its fields fit; an absorbing end node leads to
    /// `start`, where the start's faces' nodes start.
    fn of(
        s: &Step,
        from: usize,
        classes: usize,
        states: usize,
        start: u32,
        key: usize,
    ) -> Option<DieNode> {
        let code = from * classes + s.class();
        let slot = s.state as usize + usize::from(!s.absorbing()) * states;
        let at = if s.end && s.absorbing() { start } else { s.at };
        (code < 1 << 12 && key < 1 << 7 && slot < 1 << 21 && at < 1 << 21).then_some(DieNode(
            code as u64
                | (key as u64) << 12
                | u64::from(s.end) << 19
                | u64::from(s.flags & 3) << 20
                | (slot as u64) << 22
                | u64::from(at) << 43,
        ))
    }
    /// Where its faces' nodes start.
    #[inline(always)]
    pub(super) fn at(self) -> usize {
        (self.0 >> 43) as usize
    }
    /// Whether a turn ends here.
    #[inline(always)]
    pub(super) fn end(self) -> bool {
        self.0 >> 19 & 1 != 0
    }
    /// Whether its class is absorbing.
    #[inline(always)]
    pub(super) fn absorbing(self) -> bool {
        self.0 >> 20 & 1 != 0
    }
    /// 1 when the unit's place stands empty in its class, else 0.
    #[inline(always)]
    pub(super) fn empty(self) -> usize {
        (self.0 >> 21 & 1) as usize
    }
    /// The move its turn made (an end node's): `from · classes + to`.
    #[inline(always)]
    pub(super) fn code(self) -> usize {
        (self.0 & 0xFFF) as usize
    }
    /// Its slot (an end node's): its state when absorbing, else its state plus the number of
    /// states.
    #[inline(always)]
    pub(super) fn slot(self) -> usize {
        (self.0 >> 22 & 0x1F_FFFF) as usize
    }
    /// Its key (an end node's, when the trees have keys): see [`DiceTrees::keys`].
    #[inline(always)]
    pub(super) fn key(self) -> usize {
        (self.0 >> 12 & 0x7F) as usize
    }
}

/// The replay trees of a chain whose draws are dice and picks from narrow tables, packed (see
/// [`PickNode`]).
#[derive(Debug, Clone)]
pub(super) struct PickTrees {
    /// The nodes, as [`Trees::nodes`].
    nodes: Vec<PickNode>,
    /// The start's end node.
    start: PickNode,
    /// How many states the trees lead to.
    states: usize,
    /// The tables' words for [`Dice::pick_packed`], one after another.
    words: Vec<u64>,
    /// The word of the one table every pick draws from, when they all draw from one (0 when
    /// they do not).
    one: u64,
    /// The keys, as [`DiceTrees::keys`].
    keys: Option<Vec<DieNode>>,
}

/// A node of trees of dice and picks, packed in 16 bytes: the node as [`DieNode`] packs it, and
/// what it draws next (for an end node, what its state's turn draws first): 0 for a die, else
/// the word of the table to pick from ([`Weights::packed_word`]), so that a pick waits on no
/// load but the node's for the table's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PickNode {
    node: DieNode,
    draw: u64,
}

impl PickNode {
    /// The node, as trees of dice only pack it.
    #[inline(always)]
    pub(super) fn node(self) -> DieNode {
        self.node
    }
}

/// One draw the rules code made on a path: its choice, how many it had, its kind and table.
#[derive(Debug, Clone, Copy)]
struct Draw {
    choice: u32,
    arity: u32,
    kind: u8,
    table: u32,
}

/// A stand-in for dice that follows a script of choices (0 past its end) and records every
/// draw, as [`Dice`] makes them: a die a face, a table of one outcome no draw at all, a volley
/// of several tables a draw from each.
struct Recorder<'a> {
    script: &'a [u32],
    taken: Vec<Draw>,
    tables: &'a mut Vec<Weights>,
    /// An outcome of weight zero was chosen: [`Dice`] never takes this path.
    impossible: bool,
    /// More tables than [`MAX_TABLES`].
    too_many: bool,
}

impl Recorder<'_> {
    fn choose(&mut self, kind: u8, arity: u32, table: u32) -> u32 {
        let choice = self.script.get(self.taken.len()).copied().unwrap_or(0);
        self.taken.push(Draw {
            choice,
            arity,
            kind,
            table,
        });
        choice
    }
}

impl Roll for Recorder<'_> {
    fn d6(&mut self) -> u8 {
        self.choose(D6, 6, 0) as u8 + 1
    }
    fn pick(&mut self, table: &Weights) -> usize {
        if table.len() == 1 {
            // Dice::pick draws nothing for a table of one outcome.
            return 0;
        }
        let k = match self.tables.iter().position(|t| t == table) {
            Some(k) => k,
            None => {
                if self.tables.len() >= MAX_TABLES {
                    self.too_many = true;
                }
                self.tables.push(table.clone());
                self.tables.len() - 1
            }
        };
        let c = self.choose(PICK, table.len() as u32, k as u32) as usize;
        if table.weight(c) == 0 {
            self.impossible = true;
        }
        c
    }
}

impl Trees {
    /// The trees of every state of `table`, built by running `chain`'s turn once for every
    /// sequence of draws from each state. `None` when they would be too large, when a path
    /// ends in a state the table does not have, when the same draws do not always make the
    /// same next draw (rules code that is not a function of its dice), or when the chain
    /// halts (a mechanic file's script failed).
    pub(super) fn build<C: Chain>(chain: &C, table: &Table<C::State>) -> Option<Trees> {
        use std::collections::BTreeMap;
        let index: BTreeMap<C::State, u32> = table
            .states
            .iter()
            .enumerate()
            .map(|(i, &s)| (s, i as u32))
            .collect();
        let mut nodes: Vec<Node> = Vec::new();
        let mut tables: Vec<Weights> = Vec::new();
        let mut roots = Vec::with_capacity(table.states.len());
        for (s, &state) in table.states.iter().enumerate() {
            if table.rows[s].absorbing {
                roots.push(Node {
                    kind: LEAF,
                    table: table.rows[s].class,
                    at: s as u32,
                });
                continue;
            }
            let root = nodes.len();
            nodes.push(Node::UNSET);
            let mut script: Vec<u32> = Vec::new();
            let mut paths = 0usize;
            loop {
                let mut rec = Recorder {
                    script: &script,
                    taken: Vec::with_capacity(script.len() + 4),
                    tables: &mut tables,
                    impossible: false,
                    too_many: false,
                };
                let next = chain.step(state, &mut rec);
                let Recorder {
                    mut taken,
                    impossible,
                    too_many,
                    ..
                } = rec;
                paths += 1;
                if chain.halted() || too_many || paths > MAX_PATHS {
                    return None;
                }
                // Follow (and grow) the tree along the path's draws.
                let mut n = root;
                for d in &taken {
                    match nodes[n].kind {
                        UNSET => {
                            nodes[n] = Node {
                                kind: d.kind,
                                table: d.table,
                                at: nodes.len() as u32,
                            };
                            nodes.resize(nodes.len() + d.arity as usize, Node::UNSET);
                            if nodes.len() > MAX_NODES {
                                return None;
                            }
                        }
                        k if k == d.kind && nodes[n].table == d.table => {}
                        _ => return None,
                    }
                    n = nodes[n].at as usize + d.choice as usize;
                }
                if nodes[n].kind != UNSET {
                    return None;
                }
                // A path Dice cannot take leads nowhere it will ever read.
                let at = match index.get(&next) {
                    Some(&i) => i,
                    None if impossible => 0,
                    None => return None,
                };
                nodes[n] = Node {
                    kind: LEAF,
                    table: table.rows[at as usize].class,
                    at,
                };
                if !crate::exact::advance(&mut taken, |d| (&mut d.choice, d.arity)) {
                    break;
                }
                script.clear();
                script.extend(taken.iter().map(|d| d.choice));
            }
            roots.push(nodes[root]);
        }
        Some(Self::link(
            table,
            roots,
            nodes,
            tables,
            chain.classes().len(),
        ))
    }

    /// Link the trees: a root that draws nothing ends at a node of its own; every leaf becomes
    /// an end node holding its state's root.
    fn link<S>(
        table: &Table<S>,
        mut roots: Vec<Node>,
        mut nodes: Vec<Node>,
        tables: Vec<Weights>,
        classes: usize,
    ) -> Trees {
        for (s, root) in roots.iter_mut().enumerate() {
            if root.kind == LEAF && !table.rows[s].absorbing {
                nodes.push(*root);
                *root = Node {
                    kind: NO_DRAW,
                    table: 0,
                    at: nodes.len() as u32 - 1,
                };
            }
        }
        let end = |state: u32| {
            let r = roots[state as usize];
            let row = &table.rows[state as usize];
            Step {
                kind: r.kind,
                end: true,
                // At most 64 classes (see ChainSim::with_sampler).
                class: row.class as u8,
                flags: u8::from(row.absorbing) | (row.empty as u8) << 1,
                table: r.table,
                at: r.at,
                state,
            }
        };
        let nodes: Vec<Step> = nodes
            .iter()
            .map(|n| match n.kind {
                LEAF => end(n.at),
                _ => Step {
                    kind: n.kind,
                    end: false,
                    class: 0,
                    flags: 0,
                    table: n.table,
                    at: n.at,
                    state: 0,
                },
            })
            .collect();
        let every_turn_draws = roots.iter().all(|r| r.kind != NO_DRAW);
        let dice_only = every_turn_draws && nodes.iter().all(|n| n.kind != PICK);
        let roots: Vec<Step> = (0..roots.len() as u32).map(end).collect();
        let (dice, picks) = match (dice_only, every_turn_draws) {
            (true, _) => (DiceTrees::pack(&nodes, &roots, &tables, classes), None),
            (false, true) => (None, PickTrees::pack(&nodes, &roots, &tables, classes)),
            (false, false) => (None, None),
        };
        Trees {
            roots,
            nodes,
            tables,
            dice,
            picks,
        }
    }

    /// The packed trees when every draw is a die and every live state's turn draws one or
    /// more.
    #[inline(always)]
    pub(super) fn dice(&self) -> Option<&DiceTrees> {
        self.dice.as_ref()
    }

    /// The packed trees of dice and picks, when there are no trees of dice only and every
    /// live state's turn draws one or more and every table packs.
    #[inline(always)]
    pub(super) fn picks(&self) -> Option<&PickTrees> {
        self.picks.as_ref()
    }

    /// The end node of state `s` (where a trial in it stands).
    #[inline(always)]
    pub(super) fn root(&self, s: usize) -> Step {
        self.roots[s]
    }

    /// One turn from the end node `at`: the end node of the state it ends in, rolling the dice
    /// the rules code would.
    #[inline(always)]
    pub(super) fn next(&self, at: Step, dice: &mut Dice) -> Step {
        let mut n = at;
        loop {
            let i = match n.kind {
                D6 => n.at as usize + usize::from(dice.d6()) - 1,
                PICK => n.at as usize + dice.pick(&self.tables[n.table as usize]),
                _ => n.at as usize,
            };
            n = self.nodes[i];
            if n.end {
                return n;
            }
        }
    }
}

/// The most keys packed trees may have (see [`DiceTrees::keys`]).
const MAX_KEYS: usize = 1 << 7;

/// Packed trees: the nodes, the start's end node, and the keys when there are no more than
/// [`MAX_KEYS`] (see [`DiceTrees::keys`]).
type PackedNodes = (Vec<DieNode>, DieNode, Option<Vec<DieNode>>);

/// The packed nodes of linked trees (`nodes`, and each state's end node in `roots`) for a
/// chain of `classes` classes (see [`DieNode`]): each node with the class of the state whose
/// tree it is in, each end node with its key; `None` when a node does not fit.
fn pack_nodes(
    nodes: &[Step],
    roots: &[Step],
    tables: &[Weights],
    classes: usize,
) -> Option<PackedNodes> {
    // How many outcomes a node's draw has.
    let arity = |n: &Step| match n.kind {
        D6 => 6,
        _ => tables[n.table as usize].len(),
    };
    // The class of the state whose tree each node is in.
    let mut from = vec![0usize; nodes.len()];
    let mut stack = Vec::new();
    for r in roots.iter().filter(|r| !r.absorbing()) {
        stack.push((r.at(), arity(r)));
        while let Some((at, arity_at)) = stack.pop() {
            for i in at..at + arity_at {
                from[i] = r.class();
                if !nodes[i].end {
                    stack.push((nodes[i].at(), arity(&nodes[i])));
                }
            }
        }
    }
    let states = roots.len();
    // An absorbing end node leads where the start does: a walk of trials back to back goes on
    // to the next trial's first draw without a branch.
    let lead = roots[0].at;
    let mut packed = nodes
        .iter()
        .zip(&from)
        .map(|(n, &c)| DieNode::of(n, c, classes, states, lead, 0))
        .collect::<Option<Vec<_>>>()?;
    // Each end node's key: the place of its move and slot among the end nodes', in the order
    // they first come.
    let mut keys: Vec<DieNode> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for (p, n) in packed.iter_mut().zip(nodes) {
        if !n.end {
            continue;
        }
        let key = *index.entry((p.code(), p.slot())).or_insert_with(|| {
            keys.push(*p);
            keys.len() - 1
        });
        *p = DieNode(p.0 | (key.min(MAX_KEYS - 1) as u64) << 12);
    }
    let keys = (keys.len() <= MAX_KEYS).then_some(keys);
    let start = DieNode::of(&roots[0], roots[0].class(), classes, states, lead, 0)?;
    Some((packed, start, keys))
}

impl DiceTrees {
    /// Pack trees of dice only (`nodes`, and each state's end node in `roots`) for a chain of
    /// `classes` classes: `None` when a node does not fit [`DieNode`].
    fn pack(
        nodes: &[Step],
        roots: &[Step],
        tables: &[Weights],
        classes: usize,
    ) -> Option<DiceTrees> {
        let (packed, start, keys) = pack_nodes(nodes, roots, tables, classes)?;
        Some(DiceTrees {
            nodes: packed,
            start,
            states: roots.len(),
            keys,
        })
    }

    /// The keys of the end nodes, when there are no more than [`MAX_KEYS`]: one end node for
    /// each of their distinct moves and slots, in the order of their keys, so that a walk may
    /// count a turn's move and slot as one count of its key.
    #[inline(always)]
    pub(super) fn keys(&self) -> Option<&[DieNode]> {
        self.keys.as_deref()
    }

    /// How many states the trees lead to.
    #[inline(always)]
    pub(super) fn states(&self) -> usize {
        self.states
    }

    /// The start's end node.
    #[inline(always)]
    pub(super) fn start(&self) -> DieNode {
        self.start
    }

    /// One turn from the end node `at`: a die, then the node of its face, until a turn's
    /// end; that end node.
    #[inline(always)]
    pub(super) fn turn(&self, at: DieNode, dice: &mut Dice) -> DieNode {
        let mut n = at;
        loop {
            n = self.nodes[n.at() + usize::from(dice.d6()) - 1];
            if n.end() {
                return n;
            }
        }
    }
}

impl PickTrees {
    /// Pack trees of dice and picks (`nodes`, and each state's end node in `roots`, drawing
    /// from `tables`) for a chain of `classes` classes: `None` when a node does not fit
    /// [`DieNode`] or a table does not pack ([`Weights::packed_words`]).
    fn pack(
        nodes: &[Step],
        roots: &[Step],
        tables: &[Weights],
        classes: usize,
    ) -> Option<PickTrees> {
        let (packed, start, keys) = pack_nodes(nodes, roots, tables, classes)?;
        let mut words = Vec::new();
        let mut names = Vec::with_capacity(tables.len());
        for t in tables {
            names.push(t.packed_word(words.len())?);
            words.extend(t.packed_words()?);
        }
        // What a node draws next (an end node: its state's first draw).
        let draw = |n: &Step| match n.kind {
            PICK => names[n.table as usize],
            _ => 0,
        };
        // An absorbing end node's next draw is the start's.
        let lead = draw(&roots[0]);
        let nodes: Vec<PickNode> = nodes
            .iter()
            .zip(packed)
            .map(|(n, node)| PickNode {
                node,
                draw: match n.end && n.absorbing() {
                    true => lead,
                    false => draw(n),
                },
            })
            .collect();
        let one = match names.as_slice() {
            [one] => *one,
            _ => 0,
        };
        Some(PickTrees {
            nodes,
            start: PickNode {
                node: start,
                draw: lead,
            },
            states: roots.len(),
            words,
            one,
            keys,
        })
    }

    /// Whether every pick draws from one table.
    #[inline(always)]
    pub(super) fn one_table(&self) -> bool {
        self.one != 0
    }
}

/// Packed replay trees, as a walk of trials back to back runs them
/// (`ChainSim::packed_tree_trials`).
pub(super) trait Packed {
    /// Where a walk stands: an end node.
    type At: Copy;
    /// Whether a walk counts its turns by key where the counts fit
    /// ([`ChainSim::keyed_tree_trials`]).
    const KEYED: bool;
    /// The start's end node.
    fn start(&self) -> Self::At;
    /// How many states the trees lead to.
    fn states(&self) -> usize;
    /// One turn from the end node `at`, rolling the dice the rules code would: the end node
    /// the turn ends at.
    fn turn(&self, at: Self::At, dice: &mut Dice) -> Self::At;
    /// The end node `at` as trees of dice only pack it.
    fn node(at: Self::At) -> DieNode;
    /// The keys of the end nodes (see [`DiceTrees::keys`]).
    fn keys(&self) -> Option<&[DieNode]>;
}

impl Packed for &DiceTrees {
    type At = DieNode;
    /// Not for trees of dice only: their trials (a rally's) mostly end within a turn or two,
    /// so that each turn would add to the very count the turn before added to and wait on it
    /// (the rally ran 1.52-1.55x its hand loop so, 1.57-1.61x by move and slot, 2026-11-30).
    const KEYED: bool = false;
    #[inline(always)]
    fn start(&self) -> DieNode {
        DiceTrees::start(self)
    }
    #[inline(always)]
    fn states(&self) -> usize {
        DiceTrees::states(self)
    }
    #[inline(always)]
    fn turn(&self, at: DieNode, dice: &mut Dice) -> DieNode {
        DiceTrees::turn(self, at, dice)
    }
    #[inline(always)]
    fn node(at: DieNode) -> DieNode {
        at
    }
    fn keys(&self) -> Option<&[DieNode]> {
        DiceTrees::keys(self)
    }
}

/// [`PickTrees`] as a walk holds them, by value (so that the loop keeps them in registers,
/// not behind a reference it must read again after every count it writes), with every pick
/// from their one table (`ONE`, see [`PickTrees::turn`]) or each from the table its node names.
#[derive(Debug, Clone, Copy)]
pub(super) struct PickWalk<'a, const ONE: bool> {
    nodes: &'a [PickNode],
    words: &'a [u64],
    one: u64,
    start: PickNode,
    states: usize,
    keys: Option<&'a [DieNode]>,
}

impl PickTrees {
    /// The trees as a walk holds them.
    pub(super) fn walk<const ONE: bool>(&self) -> PickWalk<'_, ONE> {
        PickWalk {
            nodes: &self.nodes,
            words: &self.words,
            one: self.one,
            start: self.start,
            states: self.states,
            keys: self.keys.as_deref(),
        }
    }
}

impl<const ONE: bool> Packed for PickWalk<'_, ONE> {
    type At = PickNode;
    const KEYED: bool = true;
    #[inline(always)]
    fn start(&self) -> PickNode {
        self.start
    }
    #[inline(always)]
    fn states(&self) -> usize {
        self.states
    }
    /// One turn from the end node `at`: a die or a pick as the node says, then the node of its
    /// outcome, until a turn's end; that end node. With `ONE` every pick is from the one
    /// table, whose word the walk holds, so that the pick waits on no node.
    #[inline(always)]
    fn turn(&self, at: PickNode, dice: &mut Dice) -> PickNode {
        let mut n = at;
        loop {
            let i = match n.draw {
                0 => usize::from(dice.d6()) - 1,
                w => dice.pick_packed(if ONE { self.one } else { w }, self.words),
            };
            n = self.nodes[n.node.at() + i];
            if n.node.end() {
                return n;
            }
        }
    }
    #[inline(always)]
    fn node(at: PickNode) -> DieNode {
        at.node()
    }
    fn keys(&self) -> Option<&[DieNode]> {
        self.keys
    }
}

impl<C: Chain> ChainSim<C> {
    /// Check the replay trees against the rules code: `trials` trials from `seed` by the trees
    /// and the same trials by the rules code itself, with the same dice, must give the same
    /// tally to the bit. `Ok` when the chain has no trees.
    ///
    /// # Errors
    /// The first cell of the layout that differs, in words.
    pub fn check_trees(&self, trials: u64, seed: u64) -> Result<(), String> {
        let (Some(table), Some(trees)) = (&self.table, &self.trees) else {
            return Ok(());
        };
        let (mut by_trees, mut by_code) = (vec![0; self.tally_len()], vec![0; self.layout.len()]);
        let (mut a, mut b) = (Dice::for_chunk(seed, 0, 0), Dice::for_chunk(seed, 0, 0));
        self.tree_trials(table, trees, &mut a, trials, &mut by_trees);
        for _ in 0..trials {
            self.trial(&mut b, &mut by_code);
        }
        let by_trees = self.finish(&by_trees);
        match by_trees.iter().zip(&by_code).position(|(x, y)| x != y) {
            None if a.next_u64() == b.next_u64() => Ok(()),
            None => Err("the replay trees rolled other dice than the rules code".into()),
            Some(i) => Err(format!(
                "cell {i} of the layout counts {} trials by the dice sampler's replay trees, {} by the rules code",
                by_trees[i], by_code[i]
            )),
        }
    }
}

#[cfg(test)]
impl Trees {
    /// For a test: the first of two sibling end nodes of different states leads where the
    /// other leads.
    pub(super) fn mislead(&mut self) {
        let at = self
            .nodes
            .windows(2)
            .position(|w| w[0].end && w[1].end && w[0].state != w[1].state)
            .expect("two sibling end nodes");
        self.nodes[at] = self.nodes[at + 1];
        if let Some(dice) = &mut self.dice {
            dice.nodes[at] = dice.nodes[at + 1];
        }
        if let Some(picks) = &mut self.picks {
            picks.nodes[at] = picks.nodes[at + 1];
        }
    }
}
