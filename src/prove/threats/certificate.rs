//! The threat prover's certificate (docs/FORMAT.md "Threat proof
//! certificates"): a proof read out of the table, positions proved again
//! where the table no longer holds them, the entries written in order.

use super::*;

impl<'g> ThreatProver<'g> {
    /// Whether `board` is proved ([`Self::is_proved`]: the table, or the
    /// rules at its expansion); if not, proves it again (a proof a full
    /// table gave up). False when that search does not prove it (not a
    /// win after all, or a limit: [`Self::stopped`]).
    pub(super) fn ensure_proved(&mut self, board: &mut Board) -> bool {
        if self.is_proved(board) {
            return true;
        }
        self.stats.proved_again += 1;
        self.prove(board) == Verdict::Win
    }

    /// Proves `board` again from open numbers, whatever the table held
    /// (the certificate's way past an entry its expansion cannot read
    /// back); false when it is not proved so.
    pub(super) fn prove_afresh(&mut self, board: &mut Board) -> bool {
        self.stats.proved_afresh += 1;
        let open = Numbers {
            proof: 1,
            disproof: 1,
        };
        self.store(board.key(), open, 0);
        self.prove(board) == Verdict::Win
    }

    /// The certificate of a proved `board` as text, with its number of
    /// entries ([`Self::write_certificate`] into memory: for tests and
    /// small proofs).
    pub fn certificate(&mut self, board: &mut Board) -> Result<(String, usize)> {
        let mut text = Vec::new();
        let entries = self.write_certificate(board, &mut text)?;
        let text = String::from_utf8(text).expect("a certificate is ASCII");
        Ok((text, entries))
    }

    /// Writes the certificate of a proved `board` (docs/FORMAT.md) to
    /// `out` as it is read from the table: the header and one entry a
    /// position of the proof, each once; returns the number of entries.
    /// An error if the proof cannot be read back (a limit hit while a
    /// piece evicted was proved again), or if `out` fails
    /// ([`Error::Io`]). Only the set of positions listed is held in
    /// memory (module docs, "Memory"), never the text.
    pub fn write_certificate(&mut self, board: &mut Board, out: &mut dyn Write) -> Result<usize> {
        let g = self.geometry;
        write!(
            out,
            "{}\nmnk {} {} {}\nclaim {} wins\nroot {}\n",
            if self.settings.vct.is_some() {
                CERTIFICATE_MAGIC_VCT
            } else {
                CERTIFICATE_MAGIC
            },
            g.cols,
            g.rows,
            g.k,
            ["X", "O"][self.attacker],
            board.diagram()
        )
        .map_err(written)?;
        let mut seen = FxHashSet::default();
        let mut entries = 0;
        // the cuts are checked as they are read (module docs of `zones`),
        // against zones worked out afresh
        self.zone_memo.clear();
        self.checking_cuts = true;
        self.proof_keys.clear();
        let remade = self.stats.cuts_remade;
        let result = self.write_entries(board, out, &mut seen, &mut entries);
        self.checking_cuts = false;
        self.walk_bytes = 0;
        let result = result.and_then(|()| {
            if self.stats.cuts_remade > remade {
                return Err(Error::InvalidInput(format!(
                    "{CUTS_REMADE} ({} of them): walk it again",
                    self.stats.cuts_remade - remade
                )));
            }
            out.flush().map_err(written)
        });
        if result.is_err() {
            self.proof_keys = FxHashSet::default();
        }
        result.map(|()| entries)
    }

    /// Writes the entries of the proof below `board`, each position once
    /// (by `seen`); recursive, one level a ply (at most 256).
    pub(super) fn write_entries(
        &mut self,
        board: &mut Board,
        out: &mut dyn Write,
        seen: &mut FxHashSet<u128>,
        entries: &mut usize,
    ) -> Result<()> {
        let lost = || Error::InvalidInput("its certificate could not be read back".into());
        if !seen.insert(board.exact_key()) {
            return Ok(());
        }
        if self.keeping_proof_keys {
            self.proof_keys.insert(board.key());
        }
        // the positions listed (and their keys, kept) take their bytes
        // from the expansions' share (module docs, "Memory")
        let most = self.expansion_budget / 4 * 3;
        if (seen.len() + self.proof_keys.len()) as u64 * BYTES_PER_LISTED > most {
            // the keys go first: the checkpoint is then of the whole
            // table ([`Self::save_proof_checkpoint`])
            self.proof_keys = FxHashSet::default();
            self.keeping_proof_keys = false;
        }
        self.walk_bytes = (seen.len() + self.proof_keys.len()) as u64 * BYTES_PER_LISTED;
        if self.walk_bytes > most {
            return Err(Error::refused(
                format!(
                    "its certificate lists more positions than its share of {{remedy}} keeps ({} at {most} bytes)",
                    seen.len()
                ),
                &[Remedy::give(Setting::MaxMemory)],
            ));
        }
        if !self.ensure_proved(board) {
            return Err(match self.stopped() {
                // a piece the full table gave up, proved again on the clock
                Some(why) => Error::InvalidInput(format!(
                    "its certificate's walk stopped on {why} while proving again a position the full table gave up"
                )),
                None => lost(),
            });
        }
        let (expansion, t) = self.expansion(board);
        let mover = board.to_move();
        let g = self.geometry;
        let names = |cells: &[u32]| -> String {
            cells
                .iter()
                .map(|&c| format!(" {}", g.cell_name(c)))
                .collect()
        };
        match &*expansion {
            // (never untried: `expansion` resolves it)
            Expansion::Lost | Expansion::Untried(_) => return Err(lost()),
            Expansion::Won(run) if run.is_empty() => {}
            Expansion::Won(run) => {
                let run = self.oriented(run, t);
                writeln!(out, "vcf {}{}", board.diagram(), names(&run)).map_err(written)?;
                *entries += 1;
            }
            Expansion::Threats(_) => {
                let steps = self.threat_steps(board, t).ok_or_else(lost)?;
                self.write_steps(board, &steps, t, out)?;
                *entries += 1;
            }
            Expansion::Moves {
                all, covers, pass, ..
            } => {
                if self.attacker_to_move(board) {
                    let chosen = match self.chosen_move(board) {
                        Some(chosen) => chosen,
                        None => {
                            // proved, but by no move the expansion now
                            // offers: an entry settled under other rules
                            // (a checkpoint's: a run of fours found then
                            // and not now); proved again under these
                            if !self.prove_afresh(board) {
                                return Err(lost());
                            }
                            self.chosen_move(board).ok_or_else(lost)?
                        }
                    };
                    writeln!(out, "move {}{}", board.diagram(), names(&[chosen]))
                        .map_err(written)?;
                    *entries += 1;
                    board.play(chosen, mover);
                    let written = self.write_entries(board, out, seen, entries);
                    board.undo(chosen, mover);
                    written?;
                } else {
                    let mut replies = self.oriented(all, t);
                    if *pass {
                        let cut = self.cut(board, &expansion);
                        let zone: Vec<u32> = self.canonical_to_board(cut.zone, t).iter().collect();
                        writeln!(out, "zone {}{}", board.diagram(), names(&zone))
                            .map_err(written)?;
                        *entries += 1;
                        replies = self.oriented(&cut.all, t);
                    }
                    for cover in covers {
                        let cover = self.oriented(cover, t);
                        writeln!(out, "cover {}{}", board.diagram(), names(&cover))
                            .map_err(written)?;
                        *entries += 1;
                    }
                    if *pass {
                        board.pass();
                        let written = self.write_entries(board, out, seen, entries);
                        board.pass();
                        written?;
                    }
                    for reply in replies {
                        board.play(reply, mover);
                        let written = self.write_entries(board, out, seen, entries);
                        board.undo(reply, mover);
                        written?;
                    }
                    if *pass {
                        // checked again, now that the proofs below are
                        // all there (module docs of `zones`)
                        self.cut(board, &expansion);
                    }
                }
            }
        }
        Ok(())
    }
}
