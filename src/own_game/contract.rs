//! A contract check of a user's rules, like a perft for them: it walks the
//! positions the start reaches, breadth first up to a limit, and checks
//! at each what the engine relies on ([`Rules`]'s contract). Run it on a
//! new game before solving it; a failure names the position in hex.

use std::collections::{HashSet, VecDeque};

use super::{canonical, Key, Rules};

/// What a contract check looked at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ContractReport {
    /// Positions checked.
    pub positions: u64,
    /// Moves checked (children of positions in play).
    pub moves: u64,
    /// Symmetric images checked.
    pub images: u64,
    /// Unmoves checked (parents yielded, and children found among their
    /// children's parents).
    pub unmoves: u64,
}

/// Checks `rules` on the first `limit` positions the start reaches
/// (breadth first): keys round-trip through bytes and hex; moves are
/// deterministic and their names distinct; every image of a position has
/// its value at the end (`outcome`), the same canonical form, and the
/// same canonical children; with unmoves, every move is undone by an
/// unmove and every unmove undoes a move; with a rank, the canonical form's
/// rank is below the ranks and unranks back to it; with a tier, no move
/// lowers it and images share it. The first broken rule, in words.
pub fn check<R: Rules>(rules: &R, limit: u64) -> Result<ContractReport, String> {
    check_from(rules, &[rules.start()], limit)
}

/// [`check`] from `starts` instead of the start: for the parts of a game
/// a walk from its start reaches only past the limit (a move phase after a
/// long drop phase).
pub fn check_from<R: Rules>(
    rules: &R,
    starts: &[R::Position],
    limit: u64,
) -> Result<ContractReport, String> {
    let mut report = ContractReport::default();
    let mut seen: HashSet<R::Position> = starts.iter().copied().collect();
    let mut queue: VecDeque<R::Position> = starts.iter().copied().collect();
    let mut scratch = Vec::new();
    while let Some(position) = queue.pop_front() {
        if report.positions >= limit {
            break;
        }
        report.positions += 1;
        let at = |why: String| format!("position {}: {why}", position.to_hex());
        check_key(&position).map_err(at)?;
        let images = images_of(rules, position);
        let class = canonical(rules, position, &mut scratch);
        let children = children_of(rules, position);
        if R::RANKED {
            check_rank(rules, class).map_err(at)?;
        }
        for &image in &images {
            report.images += 1;
            if rules.outcome(&image) != rules.outcome(&position) {
                return Err(at(format!("its image {} ends otherwise", image.to_hex())));
            }
            if R::TIERED && rules.tier(&image) != rules.tier(&position) {
                return Err(at(format!(
                    "its image {} is in tier {}, it in tier {}",
                    image.to_hex(),
                    rules.tier(&image),
                    rules.tier(&position)
                )));
            }
            if canonical(rules, image, &mut scratch) != class {
                return Err(at(format!(
                    "its image {} has another canonical form (the images are not a group)",
                    image.to_hex()
                )));
            }
            if canonical_set(rules, &children_of(rules, image)) != canonical_set(rules, &children) {
                return Err(at(format!(
                    "its image {} has other moves (up to symmetry)",
                    image.to_hex()
                )));
            }
        }
        if rules.outcome(&position).is_some() {
            continue;
        }
        if children_of(rules, position) != children {
            return Err(at("its moves differ from one call to the next".into()));
        }
        let mut named = std::collections::HashMap::new();
        for (i, child) in children.iter().enumerate() {
            let name = rules.move_name(&position, i, child);
            if named
                .insert(name.clone(), *child)
                .is_some_and(|other| other != *child)
            {
                return Err(at(format!(
                    "two moves to different positions are named {name}"
                )));
            }
        }
        report.moves += children.len() as u64;
        if R::TIERED {
            let tier = rules.tier(&position);
            if let Some(lower) = children.iter().find(|c| rules.tier(c) < tier) {
                return Err(at(format!(
                    "it is in tier {tier} and moves to {}, in tier {} (a move lowers the tier)",
                    lower.to_hex(),
                    rules.tier(lower)
                )));
            }
        }
        if R::UNMOVES {
            check_unmoves(rules, position, &children, &mut report).map_err(at)?;
        }
        for child in children {
            if seen.insert(child) {
                queue.push_back(child);
            }
        }
    }
    Ok(report)
}

/// The rank of the canonical `class` is below the ranks and unranks back
/// to it.
fn check_rank<R: Rules>(rules: &R, class: R::Position) -> Result<(), String> {
    let rank = rules.rank(&class);
    if rank >= rules.ranks() {
        return Err(format!(
            "its canonical form's rank {rank} is not below the {} ranks",
            rules.ranks()
        ));
    }
    match rules.unrank(rank) {
        Some(back) if back == class => Ok(()),
        Some(other) => Err(format!(
            "its canonical form's rank {rank} unranks to {}",
            other.to_hex()
        )),
        None => Err(format!(
            "its canonical form's rank {rank} unranks to no position"
        )),
    }
}

fn check_key<P: Key>(position: &P) -> Result<(), String> {
    let mut bytes = vec![0u8; P::BYTES];
    position.write(&mut bytes);
    if P::read(&bytes) != *position || P::from_hex(&position.to_hex()) != Some(*position) {
        return Err("its key does not read back".into());
    }
    Ok(())
}

fn images_of<R: Rules>(rules: &R, position: R::Position) -> Vec<R::Position> {
    let mut images = Vec::new();
    rules.symmetries(&position, &mut images);
    images
}

fn children_of<R: Rules>(rules: &R, position: R::Position) -> Vec<R::Position> {
    let mut children = Vec::new();
    if rules.outcome(&position).is_none() {
        rules.moves(&position, &mut children);
    }
    children
}

fn canonical_set<R: Rules>(rules: &R, positions: &[R::Position]) -> Vec<R::Position> {
    let mut scratch = Vec::new();
    let mut set: Vec<R::Position> = positions
        .iter()
        .map(|&p| canonical(rules, p, &mut scratch))
        .collect();
    set.sort_unstable();
    set.dedup();
    set
}

/// The canonical forms of the parents the unmoves give of `position` and
/// of each of its images.
fn parents_of<R: Rules>(rules: &R, position: R::Position) -> Vec<R::Position> {
    let mut raw = Vec::new();
    rules.unmoves(&position, &mut raw);
    for image in images_of(rules, position) {
        rules.unmoves(&image, &mut raw);
    }
    canonical_set(rules, &raw)
}

fn check_unmoves<R: Rules>(
    rules: &R,
    position: R::Position,
    children: &[R::Position],
    report: &mut ContractReport,
) -> Result<(), String> {
    let class = canonical(rules, position, &mut Vec::new());
    for &child in children {
        report.unmoves += 1;
        if parents_of(rules, child).binary_search(&class).is_err() {
            return Err(format!(
                "its move to {} is not undone by an unmove of that position",
                child.to_hex()
            ));
        }
    }
    let mut raw = Vec::new();
    rules.unmoves(&position, &mut raw);
    for parent in raw {
        report.unmoves += 1;
        if rules.outcome(&parent).is_some() {
            continue; // a parent at which the game is over: the engine drops it
        }
        let theirs = canonical_set(rules, &children_of(rules, parent));
        if theirs.binary_search(&class).is_err() {
            return Err(format!(
                "its unmove to {} is not undone by a move of that position",
                parent.to_hex()
            ));
        }
    }
    Ok(())
}
