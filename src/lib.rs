//! # retrograde
//!
//! A strong solver for finite two-player games. Every state of a game is
//! mapped onto a dense index `0..N`, described by a small trait
//! ([`language::RankedGame`]), and labelled win / loss / draw for the
//! player to move with its exact depth by a parallel, level-synchronous
//! retrograde pass ([`engines::retrograde`]). Boards too large for that
//! are searched one position at a time, or proved by pairings, zones,
//! df-pn and threat proofs with certificates a separate checker reads.
//!
//! ## The surface
//!
//! Everything public is re-exported here; the modules that build it are
//! private. The front ends (the `retrograde` command, the HTTP server, the
//! Python package) use this surface and nothing else.
//!
//! * The crate root: the facade [`Analyzer`] and the types a program meets
//!   first — [`BoardSize`], [`Position`], [`Family`], [`PositionAnswer`],
//!   [`OpenTable`], [`Error`].
//! * [`facade`]: the typed requests and reports of [`Analyzer`] — answers,
//!   solves, proofs, books — and the notes it gives while it works.
//! * [`language`]: positions, moves, board sizes, the one answer shape,
//!   and the [`language::RankedGame`] trait with its outcome table.
//! * [`games`]: the rules of the built-in games on their dense indices.
//! * [`engines`]: the engines themselves, for the harnesses that time and
//!   verify them (`retrograde verify`, `bench`, `estimate`, the tests).
//! * [`disk`]: table files, books and certificates, and the careful file
//!   handling every writer uses (atomic, never replacing a stranger's
//!   file).
//! * [`host`]: the machine — threads, memory budgets, clocks, progress,
//!   errors in words.
//!
//! ## Solve a board and save it
//!
//! ```
//! use retrograde::disk::{save, SavedGame, SavedTable};
//! use retrograde::engines::layered::solve_mnk;
//! use retrograde::games::mnk::Mnk;
//! use retrograde::host::Budget;
//! use retrograde::BoardSize;
//!
//! let dir = std::env::temp_dir().join(format!("retrograde-lib-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let game = Mnk::new(BoardSize::new(3, 3, 3)).unwrap();
//! let solution = solve_mnk(&game, &Budget::unlimited()).unwrap();
//! // Tic-tac-toe: 5,478 positions.
//! let positions: u64 = solution.counts.iter().map(|ply| ply.positions).sum();
//! assert_eq!(positions, 5_478);
//! let saved = SavedGame::Mnk { rows: 3, cols: 3, k: 3 };
//! save(&dir.join("ttt.rgt"), &saved, &SavedTable::Layered(solution)).unwrap();
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```
//!
//! [`Analyzer::solve`] does the same for any board, choosing the engine
//! within a memory budget.
//!
//! ## Answer a position
//!
//! By search, through the facade (no table needed):
//!
//! ```
//! use retrograde::facade::Question;
//! use retrograde::host::Budget;
//! use retrograde::language::BoardGame;
//! use retrograde::{Analyzer, BoardSize, Family};
//!
//! let game = BoardGame::new(Family::Gravity, BoardSize::new(4, 4, 4)).unwrap();
//! let position = game.play_moves("1 2 1").unwrap();
//! let analyzer = Analyzer::new(Budget::unlimited(), 1);
//! let report = analyzer.answer(&game, None, None, &Question::of(position)).unwrap();
//! let answer = report.answer.expect("4×4 Connect Four is searched at once");
//! assert_eq!(answer.moves.len(), 4); // every column's value and depth
//! ```
//!
//! A saved table opens with [`OpenTable::open`] and answers in the same
//! shape; the [`disk`] page has the example.
//!
//! ## Prove a claim and check its certificate
//!
//! ```
//! use retrograde::facade::{Certificate, ProveRequest};
//! use retrograde::host::Budget;
//! use retrograde::{Analyzer, BoardSize};
//!
//! // 4,4,4 is a draw; the provers show it with a certificate…
//! let analyzer = Analyzer::new(Budget::unlimited(), 1);
//! let report = analyzer.prove(&ProveRequest::new(BoardSize::new(4, 4, 4))).unwrap();
//! let proof = report.proof.expect("4,4,4 is proved at once");
//! let Certificate::Text(text) = proof.certificate else { panic!("kept in memory") };
//! // …that the independent checker replays and accepts.
//! let checked = retrograde_checker::check(&text).unwrap();
//! assert!(checked.claims.contains(&"X draws".to_string()));
//! assert!(checked.claims.contains(&"O draws".to_string()));
//! ```
//!
//! The independent checker (`retrograde-checker`, its own crate with no
//! dependency on this one) reads the certificate files the command line
//! writes.

#![warn(missing_docs)]

mod analyzer;
mod atomic_file;
mod board;
mod bytes;
mod checksum;
mod error;
mod files;
mod game;
mod index;
mod memory;
mod numbers;
mod own_game;
mod position;
mod prove;
mod rules;
mod runtime;
mod search;
mod summary;
mod tablefile;
mod tables;

pub use analyzer::Analyzer;
pub use board::BoardSize;
pub use error::{Error, Result, Setting};
pub use position::answer::PositionAnswer;
pub use position::{Family, Position};
pub use tablefile::open::OpenTable;

pub mod facade {
    //! The facade's requests and reports: answers ([`Question`] →
    //! [`AnswerReport`]), solves ([`EngineRequest`] → [`SolvedBoard`]), proofs
    //! ([`ProveRequest`] → [`ProveReport`]), books ([`BookRequest`](books::BookRequest) →
    //! [`BookReport`](books::BookReport)), the typed [`Notes`] it gives while it works, and the
    //! JSON summaries of a solved board.

    pub use crate::analyzer::answer_from_table;
    pub mod books {
        //! Opening books of the bitboard search: made, checked, opened, and
        //! the ones shipped in the repository.

        pub use crate::analyzer::books::{
            check_board, check_book_output, make, open_book, shipped_boards, shipped_book,
            BookReport, BookRequest,
        };
    }
    pub use crate::analyzer::fallback::{best_so_far, BestSoFar};
    pub use crate::analyzer::notes::{Note, Notes};
    pub use crate::analyzer::oracles::{ProversThenSearch, Search};
    pub use crate::analyzer::prove::{
        ensure_sides, prove, race_for_the_value, Certificate, Method, ProofMethod, ProveReport,
        ProveRequest, Settled, ThreatOptions, VctLimits,
    };
    pub use crate::analyzer::searching::{
        bitboard_takes, check_searchable, checked_seconds, AnswerReport, AnsweredBy,
        PositionSearcher, Precision, Question, SearchOptions, MAX_BITBOARD_MNK_CELLS,
        MAX_TIME_LIMIT,
    };
    pub use crate::analyzer::solving::{
        long_symbolic_run, AutoRefusal, BoardSolve, EngineAsked, EngineRequest, ForPlay, HandOver,
        NotExplicit, SolvedBoard, TableEngine, WholeTable, SYMBOLIC_REACH_CELLS,
    };
    pub use crate::summary::{
        gravity_counts_summary, gravity_empty_board, gravity_summary, gravity_totals,
        symbolic_summary, symbolic_totals, MnkSummary,
    };
}

pub mod language {
    //! The position language every front end speaks: board sizes, positions
    //! and moves in words, the one answer shape ([`PositionAnswer`], built by
    //! [`answer`] from any [`Oracle`]), and the [`RankedGame`] trait whose
    //! solve is an [`OutcomeTable`].

    pub use crate::board::BoardSize;
    pub use crate::game::table::{retrograde_bytes, Counts, OutcomeTable};
    pub use crate::game::{GameValue, Outcome, RankedGame};
    pub use crate::position::answer::{
        answer, answer_with, plies, pons_score, render, Lookup, MoveDetail, Oracle, PositionAnswer,
    };
    pub use crate::position::sentinel::sentinel_cells;
    pub use crate::position::{
        parse_diagram_any, winning_lines, BoardGame, Cells, Family, Position, Side, Status,
        WORD_CELLS,
    };
}

pub mod games {
    //! The rules of the built-in games, each on a dense state index.

    pub mod can_i_win {
        //! Can I Win (LeetCode 464): numbers taken from a pool to a total.

        pub use crate::rules::can_i_win::{
            estimate_bytes, solve_can_i_win, solve_can_i_win_reporting, CanIWinTable,
        };
    }
    pub mod cat_mouse {
        //! Cat and Mouse on a graph (LeetCode 913).

        pub use crate::rules::cat_mouse::{
            winner_totals, CatMouseGraph, Player, Position, Turn, WinnerTotals,
        };
    }
    pub mod cat_mouse_grid {
        //! Cat and Mouse on a grid (LeetCode 1728).

        pub use crate::rules::cat_mouse_grid::{
            bench_grid, CatMouseGrid, GridPosition, Player, Turn,
        };
    }
    pub mod ends {
        //! Taking from either end of a row (LeetCode 486 / 877).

        pub use crate::rules::ends::{estimate_bytes, solve_ends, End, EndsSolution};
    }
    pub mod gravity {
        //! Connect Four and other gravity boards.

        pub use crate::rules::gravity::Gravity;
    }
    pub mod mnk {
        //! m,n,k games (tic-tac-toe, gomoku).

        pub use crate::rules::mnk::Mnk;
    }
    pub mod nim {
        //! Nim.

        pub use crate::rules::nim::{estimate_bytes, solve_nim, solve_nim_reporting, NimTable};
    }
}

pub mod own {
    //! Your own game: write its rules ([`Rules`]: the start, the moves, when
    //! it is over; optionally symmetries and unmoves), and the generic
    //! engine enumerates every reachable position, solves it with the
    //! retrograde pass the built-in games use, and answers positions.
    //!
    //! ```
    //! use retrograde::language::Outcome;
    //! use retrograde::own::{solve, Rules};
    //!
    //! /// Subtraction: take 1, 2 or 3 from a heap; who cannot move loses.
    //! struct Take3(u32);
    //!
    //! impl Rules for Take3 {
    //!     type Position = u32; // the heap; the player to move is implied
    //!     fn start(&self) -> u32 {
    //!         self.0
    //!     }
    //!     fn moves(&self, heap: &u32, children: &mut Vec<u32>) {
    //!         children.extend((1..=3).filter(|t| t <= heap).map(|t| heap - t));
    //!     }
    //!     fn outcome(&self, _heap: &u32) -> Option<Outcome> {
    //!         None // no moves left: lost by the player to move
    //!     }
    //! }
    //!
    //! let solution = solve(&Take3(10)).unwrap();
    //! assert_eq!(solution.positions(), 11);
    //! // 10 is not a multiple of 4: the player to move wins, in 5 plies.
    //! assert_eq!(solution.lookup(&Take3(10), 10), Some((Outcome::Win, Some(5))));
    //! ```

    pub use crate::own_game::colex::{among_free, from_free, Colex};
    pub use crate::own_game::contract::{
        check as check_contract, check_from as check_contract_from, ContractReport,
    };
    pub use crate::own_game::enumerate::PlyCount;
    pub use crate::own_game::explicit::ExplicitGame;
    pub use crate::own_game::file::{
        check_table_output, load, open_stored, save, StoredStates, StoredTable,
    };
    pub use crate::own_game::index::{KeyIndex, MAX_POSITIONS};
    pub use crate::own_game::solve::{
        play_moves, solve, solve_spilling, solve_whole, solve_within, OwnAnswer, Solution,
    };
    pub use crate::own_game::tiers::TierCount;
    pub use crate::own_game::{canonical, Key, Rules};
    pub use crate::position::answer::MoveAnswer;
}

pub mod engines {
    //! The engines, for the harnesses that time, verify and estimate them.
    //! A program that wants answers asks the [`Analyzer`](crate::Analyzer) instead: it chooses
    //! among these.

    pub mod retrograde {
        //! Every state of a [`RankedGame`](crate::language::RankedGame): the
        //! parallel, level-synchronous retrograde pass.

        pub use crate::tables::retrograde::{solve, solve_within};
    }
    pub mod layered {
        //! m,n,k boards layer by layer on a dense index.

        pub use crate::tables::layered::{
            board_slots, estimate_bytes, solve_mnk, GameCounts, MnkSolution, PlyCounts,
        };
    }
    pub mod sparse {
        //! Gravity boards layer by layer on sorted keys.

        pub use crate::tables::sparse::{
            decode, project_gravity, project_positions, solve_gravity, solve_gravity_within,
            GravityCounts, GravitySolution, PROJECTION_SEEN,
        };
    }
    pub mod distributed {
        //! The sparse solve shared among ranks (threads or MPI processes).

        #[cfg(feature = "mpi")]
        pub use crate::tables::sparse::distributed::mpi::MpiRanks;
        pub use crate::tables::sparse::distributed::ranks::{Ranks, Solo};
        pub use crate::tables::sparse::distributed::{
            all_ok, gather_mnk_solution, solve_gravity_distributed, solve_mnk_distributed,
            RankSolution,
        };
    }
    pub mod symbolic {
        //! Decision diagrams (BDDs): every position of a board as sets.

        pub use crate::tables::symbolic::flat::FlatBdd;
        pub use crate::tables::symbolic::projection::{duration_in_words, project, Projection};
        pub use crate::tables::symbolic::{
            solve_symbolic, Encoding, Layout, PlyReport, PlySink, SymbolicRun, SymbolicSolution,
        };
    }
    pub mod search {
        //! The general alpha-beta search of one position.

        pub use crate::search::general::{
            depth_of_score, value_of, value_within, Precision, SearchBoard, SearchResult, Searcher,
        };
    }
    pub mod bitboard {
        //! The bitboard search (gravity boards in 64 bits, small m,n,k boards).

        pub use crate::search::bitboard::{
            board_table_entries, Bitboard, BoardSearcher, BOARD_TABLE_CAP, MAX_MNK_CELLS,
        };
    }
    pub mod book {
        //! Opening books of the bitboard search.

        pub use crate::search::book::Book;
        pub use crate::search::book_making::{make_book, make_book_of, Journal};
    }
    pub mod mcts {
        //! Monte Carlo tree search: a move, not a proof.

        pub use crate::search::mcts::{mcts_move, MctsSettings, DEFAULT_EXPLORATION, MAX_PLAYOUTS};
    }
    pub mod pairing {
        //! Pairing strategies: draws proved by pairs of cells.

        pub use crate::prove::pairing::{
            checked_empty_board_pairing, find_pairing, Holder, PairingBoard,
        };
    }
    pub mod zones {
        //! Zone proofs of draws.

        pub use crate::prove::zones::{
            prove_draw, Cells, DrawProof, Node, Search, Verdict, ZoneProver, BYTES_PER_ENTRY,
        };
    }
    pub mod win {
        //! df-pn win proofs with their certificates.

        pub use crate::prove::win::{certificate_entries, win_certificate, Verdict, WinProver};
    }
    pub mod proof_tree {
        //! Proof trees: claims and their certificates.

        pub use crate::prove::proof_tree::{certificate, claims_of, Claim, Goal};
    }
    pub mod threats {
        //! Threat-space proofs on m,n,k boards to 256 cells.

        pub use crate::prove::threats::board::{Board, Geometry};
        pub use crate::prove::threats::fours::{find_vcf, VcfLimits};
        pub use crate::prove::threats::space::{find_vct, VctLimits};
        pub use crate::prove::threats::{Settings, ThreatProver, Verdict, CUTS_REMADE};
    }
}

pub mod disk {
    //! Files: saved tables of every kind, books and their journals, and the
    //! careful handling every writer uses.
    //!
    //! ```
    //! use retrograde::disk::{save, SavedGame, SavedTable};
    //! use retrograde::engines::layered::solve_mnk;
    //! use retrograde::games::mnk::Mnk;
    //! use retrograde::host::Budget;
    //! use retrograde::{BoardSize, OpenTable};
    //!
    //! // Solve tic-tac-toe and save its table, as `retrograde mnk --out` does.
    //! let dir = std::env::temp_dir().join(format!("retrograde-doc-{}", std::process::id()));
    //! std::fs::create_dir_all(&dir).unwrap();
    //! let path = dir.join("ttt.rgt");
    //! let solution = solve_mnk(&Mnk::new(BoardSize::new(3, 3, 3)).unwrap(), &Budget::unlimited()).unwrap();
    //! let game = SavedGame::Mnk { rows: 3, cols: 3, k: 3 };
    //! save(&path, &game, &SavedTable::Layered(solution)).unwrap();
    //!
    //! // Open it again and ask a position: X took a corner, O the edge next to it.
    //! let table = OpenTable::open(&path, &Budget::unlimited()).unwrap();
    //! let answer = table.answer_moves("a1 b1").unwrap();
    //! assert_eq!(answer.to_move, retrograde::language::Side::X);
    //! assert_eq!(answer.value, Some(retrograde::language::Outcome::Win)); // X, to move, wins…
    //! assert_eq!(answer.depth, Some(5)); // …with the fifth ply from here
    //! let best: Vec<&str> = answer.moves.iter().filter(|m| m.best).map(|m| m.notation.as_str()).collect();
    //! assert!(best.contains(&"b2"));
    //! std::fs::remove_dir_all(&dir).unwrap();
    //! ```
    //!
    //! What an answer rests on is said in docs/FORMAT.md: every block read is
    //! checked against its checksum and every value against its children.

    pub use crate::atomic_file::{remove_temporaries_on_signals, write_atomically};
    pub use crate::checksum::Checksum;
    pub use crate::files::{
        check_output, check_regular_input, open_regular, read_regular, read_regular_capped,
        read_regular_text,
    };
    pub use crate::tablefile::book::{decode_book, write_book, write_keyed_book};
    pub use crate::tablefile::book_journal::{journal_path, BookJournal};
    pub use crate::tablefile::open::{opened_table_bytes, OpenTable};
    pub use crate::tablefile::oracles::{gravity_key, SymbolicTable};
    pub use crate::tablefile::parted::{part_path, write_manifest};
    pub use crate::tablefile::replace::{
        check_replaceable, check_table_output, identify, CertificateKind, Found, Ours, PLOT_MARKER,
    };
    pub use crate::tablefile::symbolic::{
        saved_game, Set, SolvedSets, SymbolicFile, SymbolicSets, SymbolicTableWriter,
    };
    pub use crate::tablefile::{
        decode, encode, load, save, GravityFile, GravityValues, MappedGravity, SavedGame,
        SavedTable, BLOCK_POSITIONS, FORMAT_VERSION,
    };
}

pub mod host {
    //! The machine: worker pools and their caps, memory budgets and sizes,
    //! clocks, progress, numbers and errors in words.

    pub use crate::error::{os_text, plain};
    pub use crate::memory::{
        few_allocator_arenas, give_back_freed_memory, parse_size, Budget, Bytes, ALLOWANCE,
    };
    pub use crate::numbers::{grouped, grouped_u128};
    pub use crate::runtime::clock::Clock;
    pub use crate::runtime::pool::{worker_threads, ThreadCap, MAX_THREADS, MAX_THREADS_A_CORE};
    pub use crate::runtime::progress::{Progress, ReportLines, Silent};
    pub use crate::runtime::{in_pool, thread_pool};
}
