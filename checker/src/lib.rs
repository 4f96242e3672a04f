//! Independent checkers of the certificates that `retrograde prove mnk`
//! writes, each written from `docs/FORMAT.md` alone, apart from the provers
//! (`src/prove/` of the `retrograde` crate): this crate depends on no other
//! (std only), so a certificate it accepts is trusted on the rules of m,n,k
//! games and the format, not on the code that found the proof.
//!
//! [`check`] recognises a certificate by its first line (each kind's magic
//! line of `docs/FORMAT.md`) and replays it with the checker of its kind:
//!
//! | kind | line 1 | module |
//! |---|---|---|
//! | pairing | `# retrograde pairing certificate 1` | [`pairing`] |
//! | proof tree | `# retrograde proof certificate 1` | [`proof_tree`] |
//! | zone proof | `# retrograde zone proof certificate 2` (or `1`) | [`zones`] |
//! | threat proof | `# retrograde threat proof certificate 3` (or `2`, `1`) | [`threats`] |
//!
//! `retrograde check-proof FILE` runs it; the tests of the `retrograde`
//! crate replay the provers' certificates with these modules.
//!
//! [`check_within`] bounds the check itself ([`Limits`]: the positions it
//! may hold, a deadline) and tells a certificate refused apart from a
//! check that ran out of its budget ([`Failure`]); [`check`] has no
//! bounds.
#![warn(missing_docs)]

pub mod lines;
mod meter;
pub mod pairing;
pub mod proof_tree;
pub mod threats;
pub mod zones;

/// The kinds of certificate (`docs/FORMAT.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A pairing strategy: a draw on the empty board.
    Pairing,
    /// A proof tree of the search or the win prover: claims from the empty
    /// board.
    ProofTree,
    /// A zone proof: a draw on the empty board, each player's defence.
    Zones,
    /// A threat proof: the attacker's win from a position.
    Threats,
}

impl Kind {
    /// Every kind with its magic first lines, newest version first.
    const MAGIC: [(Kind, &'static [&'static str]); 4] = [
        (Kind::Pairing, &["# retrograde pairing certificate 1"]),
        (Kind::ProofTree, &["# retrograde proof certificate 1"]),
        (
            Kind::Zones,
            &[
                "# retrograde zone proof certificate 2",
                "# retrograde zone proof certificate 1",
            ],
        ),
        (
            Kind::Threats,
            &[
                "# retrograde threat proof certificate 3",
                "# retrograde threat proof certificate 2",
                "# retrograde threat proof certificate 1",
            ],
        ),
    ];

    /// The kind whose magic line is `text`'s first line, if any.
    pub fn of(text: &str) -> Option<Kind> {
        let first = text.split('\n').next()?;
        Self::MAGIC
            .iter()
            .find(|(_, magic)| magic.contains(&first))
            .map(|&(kind, _)| kind)
    }

    /// The kind's name in JSON: `pairing`, `proof-tree`, `zone-proof` or
    /// `threat-proof`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Pairing => "pairing",
            Kind::ProofTree => "proof-tree",
            Kind::Zones => "zone-proof",
            Kind::Threats => "threat-proof",
        }
    }

    /// The kind in words, as FORMAT.md names it: `a zone proof certificate`.
    pub fn in_words(self) -> &'static str {
        match self {
            Kind::Pairing => "a pairing certificate",
            Kind::ProofTree => "a proof certificate",
            Kind::Zones => "a zone proof certificate",
            Kind::Threats => "a threat proof certificate",
        }
    }
}

/// What a checker accepted: as much as it can honestly report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The kind of certificate.
    pub kind: Kind,
    /// The board: columns, rows, and the stones in a row that win.
    pub board: (usize, usize, usize),
    /// The claims proved, as `X wins`, `O draws` ("draws": at least a
    /// draw; a drawn value has both `X draws` and `O draws`).
    pub claims: Vec<String>,
    /// The position the claims are proved from, as a diagram (rows from
    /// the top separated by `/`; `X`, `O`, `.`), when it is not the empty
    /// board (a threat proof's root).
    pub root: Option<String>,
    /// How many positions the checker replayed (`None` for a pairing,
    /// checked against every line at once). Each checker counts its own
    /// way: see its module's `check`.
    pub positions: Option<usize>,
}

impl Checked {
    /// The stones of [`Checked::root`] in words, by the cell names of
    /// `docs/FORMAT.md` (a column letter, a row number from 1 at the top):
    /// `X h8 i9, O a1 a15`.
    pub fn root_in_words(&self) -> Option<String> {
        let root = self.root.as_ref()?;
        let mut stones = [(b'X', Vec::new()), (b'O', Vec::new())];
        for (row, cells) in root.split('/').enumerate() {
            for (col, stone) in cells.bytes().enumerate() {
                if let Some((_, names)) = stones.iter_mut().find(|(s, _)| *s == stone) {
                    names.push(format!("{}{}", (b'a' + col as u8) as char, row + 1));
                }
            }
        }
        let words: Vec<String> = stones
            .iter()
            .filter(|(_, names)| !names.is_empty())
            .map(|(stone, names)| format!("{} {}", *stone as char, names.join(" ")))
            .collect();
        Some(words.join(", "))
    }
}

pub use meter::Limits;

/// Why a check gave no acceptance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The certificate does not prove its claim (or is no certificate):
    /// one line saying why.
    Refused(String),
    /// The check stopped within its [`Limits`] before a verdict: one line
    /// saying which bound, and the figures.
    OverBudget(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Refused(why) | Failure::OverBudget(why) => f.write_str(why),
        }
    }
}

/// Checks a certificate's text: recognises its kind by its first line and
/// replays it with that kind's checker. `Ok` with what was accepted, or
/// `Err` with one line saying why not (the text is no certificate, it does
/// not parse, or it does not hold). No bound on the check's work: see
/// [`check_within`].
pub fn check(text: &str) -> Result<Checked, String> {
    check_within(text, &Limits::none()).map_err(|failure| failure.to_string())
}

/// [`check`] within `limits`: `Err(Failure::OverBudget)` when the check
/// would hold more positions than `limits` allow or runs past its
/// deadline (no verdict), `Err(Failure::Refused)` when the certificate
/// does not hold.
pub fn check_within(text: &str, limits: &Limits) -> Result<Checked, Failure> {
    let Some(kind) = Kind::of(text) else {
        if text.is_empty() {
            return Err(Failure::Refused("an empty file, not a certificate".into()));
        }
        let first = text.split('\n').next().unwrap_or_default();
        let shown: String = first.chars().take(80).collect();
        if first.starts_with("# retrograde ") && first.contains("certificate") {
            return Err(Failure::Refused(format!(
                "line 1 {shown:?} names no certificate this checker reads"
            )));
        }
        return Err(Failure::Refused(format!(
            "not a certificate of retrograde: line 1 is not one of the first lines of \
             docs/FORMAT.md (it begins {shown:?})"
        )));
    };
    let mut meter = meter::Meter::new(limits);
    let verdict = match kind {
        Kind::Pairing => pairing::check(text),
        Kind::ProofTree => proof_tree::check_metered(text, &mut meter),
        Kind::Zones => zones::check_metered(text, &mut meter),
        Kind::Threats => threats::check_metered(text, &mut meter),
    };
    meter.verdict(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A certificate of each kind, by hand, on a tiny board.
    const PAIRING: &str = "# retrograde pairing certificate 1\nmnk 2 1 2\na1 b1\n";
    const TREE: &str = "# retrograde proof certificate 1\nmnk 1 1 1\nclaim X wins\nmove . a1\n";
    const ZONES: &str = "# retrograde zone proof certificate 2\nmnk 1 1 2\n\
                         claim O draws\npairing X .\nclaim X draws\nmove X . a1\n";
    const THREATS: &str = "# retrograde threat proof certificate 2\nmnk 3 1 2\n\
                           claim X wins\nroot ...\nmove ... b1\n";
    const THREATS_V3: &str = "# retrograde threat proof certificate 3\nmnk 3 1 2\n\
                              claim X wins\nroot ...\nvct ... b1 [ ]\n";

    #[test]
    fn a_check_over_its_limits_is_no_verdict() {
        let tiny = Limits {
            max_positions: Some(0),
            ..Limits::none()
        };
        for text in [TREE, ZONES, THREATS] {
            let why = match check_within(text, &tiny) {
                Err(Failure::OverBudget(why)) => why,
                other => panic!("{text}: {other:?}"),
            };
            assert!(why.contains("more than 0 positions"), "{why}");
            assert!(check_within(text, &Limits::none()).is_ok());
        }
        // a pairing is checked line by line, held in no memo
        assert!(check_within(PAIRING, &tiny).is_ok());
    }

    #[test]
    fn each_kind_is_recognised_by_its_first_line_and_checked() {
        for (text, kind, board, claims) in [
            (
                PAIRING,
                Kind::Pairing,
                (2, 1, 2),
                &["X draws", "O draws"][..],
            ),
            (TREE, Kind::ProofTree, (1, 1, 1), &["X wins"][..]),
            (ZONES, Kind::Zones, (1, 1, 2), &["X draws", "O draws"][..]),
            (THREATS, Kind::Threats, (3, 1, 2), &["X wins"][..]),
            (THREATS_V3, Kind::Threats, (3, 1, 2), &["X wins"][..]),
        ] {
            assert_eq!(Kind::of(text), Some(kind));
            let checked = check(text).unwrap_or_else(|why| panic!("{kind:?}: {why}"));
            assert_eq!(checked.kind, kind);
            assert_eq!(checked.board, board, "{kind:?}");
            assert_eq!(checked.claims, claims, "{kind:?}");
            assert_eq!(checked.positions.is_none(), kind == Kind::Pairing);
            assert_eq!(checked.root, None, "{kind:?}: the empty board");
        }
    }

    #[test]
    fn what_does_not_hold_or_is_no_certificate_is_refused_in_one_line() {
        for (text, why) in [
            ("", "empty"),
            ("notes\n", "not a certificate"),
            (
                "# retrograde zone proof certificate 9\n",
                "names no certificate",
            ),
            (
                &PAIRING.replace("a1 b1\n", ""),
                "the line a1 b1 holds no pair",
            ),
            (&TREE.replace("move . a1\n", ""), "no move listed"),
            (&ZONES.replace("move X . a1\n", ""), "no fitting entry"),
            (&THREATS.replace(" b1", " a1"), "the defender's reply"),
            // (a certificate of no claim proved nothing, yet was accepted)
            (&TREE.replace("claim X wins\nmove . a1\n", ""), "no claim"),
            // (`mnk 5 5 0` panicked and `mnk 0 5 5` was accepted as a
            // pairing; `mnk 0 0 5` panicked as a zone proof)
            (&PAIRING.replace("mnk 2 1 2", "mnk 5 5 0"), "bad board"),
            (
                &PAIRING.replace("mnk 2 1 2\na1 b1", "mnk 0 5 5"),
                "bad board",
            ),
            (
                "# retrograde zone proof certificate 2\nmnk 0 0 5\nclaim O draws\nclaim X draws\n",
                "unsupported board",
            ),
        ] {
            let refused = check(text).expect_err(text);
            assert!(refused.contains(why), "{text:?}: {refused}");
            assert!(!refused.contains('\n'), "{refused}");
        }
    }

    #[test]
    fn a_threat_proofs_root_is_named_by_its_stones() {
        let text = THREATS
            .replace("root ...", "root X.O")
            .replace("move ... b1", "move X.O b1");
        let checked = check(&text).unwrap();
        assert_eq!(checked.root.as_deref(), Some("X.O"));
        assert_eq!(checked.root_in_words().as_deref(), Some("X a1, O c1"));
    }
}
