//! A checked, indexed seeding request: players as indices `0..n` (request order, those
//! sitting out left out), the pair costs of seating two players together, and each
//! player's seat history. Every refusal of a bad request happens here.

use std::collections::BTreeMap;

use super::{KEEP_APART_WEIGHT, MAX_BOARD_SIZE, SeedingError, SeedingRequest};

/// Pair cost of a player with themself: a player playing twice never sits twice on a board.
pub(super) const SAME_PLAYER: u64 = 1 << 40;

#[derive(Debug)]
pub(super) struct Problem {
    pub board_size: usize,
    pub seat_labels: Vec<String>,
    /// The players to seat, in request order.
    pub names: Vec<String>,
    /// Per player: seated on two boards this round.
    pub twice: Vec<bool>,
    /// The top board's players (empty when there is none).
    pub top_board: Vec<usize>,
    /// `met[p * n + q]`: earlier boards p and q shared.
    pub met: Vec<u32>,
    /// `keep_apart[p * n + q]`: the pair is to be kept apart.
    pub keep_apart: Vec<bool>,
    /// `team_mates[p * n + q]`: p and q are in the same team this team round (never on a
    /// board together: their pair cost is [`SAME_PLAYER`]'s).
    pub team_mates: Vec<bool>,
    /// `cost[p * n + q]`: what seating p and q together costs, (met + 25·keep-apart)²;
    /// [`SAME_PLAYER`] on the diagonal.
    pub cost: Vec<u64>,
    /// `seat_counts[p * k + s]`: how often p had seat s.
    pub seat_counts: Vec<u32>,
    /// Per player: the seats they never had, as a bit mask.
    pub fresh_seats: Vec<u64>,
    /// Each earlier board as the players to seat on it, with its full size.
    pub earlier_present: Vec<(Vec<usize>, usize)>,
}

impl Problem {
    pub(super) fn new(request: &SeedingRequest) -> Result<Self, SeedingError> {
        let k = request.board_size;
        if k < 2 {
            return Err(SeedingError::BoardTooSmall(k));
        }
        if k > MAX_BOARD_SIZE {
            return Err(SeedingError::BoardTooLarge(k));
        }
        let seat_labels: Vec<String> = match &request.seats {
            Some(labels) => labels.clone(),
            None => (1..=k).map(|seat| seat.to_string()).collect(),
        };
        if seat_labels.len() != k {
            return Err(SeedingError::SeatCount { labels: seat_labels.len(), board_size: k });
        }
        let seat_index = index_of(&seat_labels, SeedingError::DuplicateSeat)?;
        let present =
            index_of(&request.players, |name| SeedingError::DuplicatePlayer(name, "players"))?;
        let sitting_out = known_subset(&present, &request.sitting_out, "sittingOut")?;
        let playing_twice = known_subset(&present, &request.playing_twice, "playingTwice")?;
        if let Some(&both) = sitting_out.iter().find(|p| playing_twice.contains(p)) {
            return Err(SeedingError::SittingOutAndPlayingTwice(request.players[both].clone()));
        }
        let top_board_present = known_subset(&present, &request.top_board, "topBoard")?;
        if let Some(&out) = top_board_present.iter().find(|p| sitting_out.contains(p)) {
            return Err(SeedingError::TopBoardSittingOut(request.players[out].clone()));
        }
        if !request.top_board.is_empty() && request.top_board.len() != k {
            return Err(SeedingError::TopBoardSize {
                given: request.top_board.len(),
                board_size: k,
            });
        }

        let names: Vec<String> = (0..request.players.len())
            .filter(|p| !sitting_out.contains(p))
            .map(|p| request.players[p].clone())
            .collect();
        let n = names.len();
        let id: BTreeMap<&str, usize> =
            names.iter().enumerate().map(|(i, name)| (name.as_str(), i)).collect();
        let twice: Vec<bool> =
            names.iter().map(|name| request.playing_twice.contains(name)).collect();
        let slots = n + playing_twice.len();
        if slots == 0 || !slots.is_multiple_of(k) {
            let mut counts = format!("{} present", request.players.len());
            if !sitting_out.is_empty() {
                counts.push_str(&format!(", {} sitting out", sitting_out.len()));
            }
            if !playing_twice.is_empty() {
                counts.push_str(&format!(", {} playing twice", playing_twice.len()));
            }
            let why = if slots == 0 {
                format!(": a board needs {k}")
            } else {
                format!(" is not a multiple of {k}")
            };
            return Err(SeedingError::Uneven(format!("{slots} players to seat ({counts}){why}")));
        }
        if slots == k
            && let Some(&doubler) = playing_twice.first()
        {
            return Err(SeedingError::TwiceOnOneBoard(request.players[doubler].clone()));
        }
        let top_board: Vec<usize> =
            request.top_board.iter().map(|name| id[name.as_str()]).collect();

        let mut keep_apart = vec![false; n * n];
        for [first, second] in &request.keep_apart {
            if first == second {
                return Err(SeedingError::KeepApartSelf(first.clone()));
            }
            if let (Some(&p), Some(&q)) = (id.get(first.as_str()), id.get(second.as_str())) {
                keep_apart[p * n + q] = true;
                keep_apart[q * n + p] = true;
            }
        }

        let team_mates = super::teams::team_mates(request, &names, &twice, &top_board)?;

        let mut met = vec![0u32; n * n];
        let mut seat_counts = vec![0u32; n * k];
        let mut earlier_present = Vec::with_capacity(request.earlier_boards.len());
        for (number, board) in (1..).zip(&request.earlier_boards) {
            let mut seen = std::collections::BTreeSet::new();
            let mut on_board = Vec::with_capacity(board.len());
            for seated in board {
                let Some(&seat) = seat_index.get(seated.seat.as_str()) else {
                    return Err(SeedingError::UnknownEarlierSeat {
                        board: number,
                        seat: seated.seat.clone(),
                    });
                };
                if !seen.insert(seated.player.as_str()) {
                    return Err(SeedingError::TwiceOnEarlierBoard {
                        board: number,
                        player: seated.player.clone(),
                    });
                }
                if let Some(&p) = id.get(seated.player.as_str()) {
                    seat_counts[p * k + seat] += 1;
                    on_board.push(p);
                }
            }
            for (i, &p) in on_board.iter().enumerate() {
                for &q in &on_board[i + 1..] {
                    met[p * n + q] += 1;
                    met[q * n + p] += 1;
                }
            }
            earlier_present.push((on_board, board.len()));
        }

        let cost = (0..n * n)
            .map(|pq| {
                if pq / n == pq % n || team_mates[pq] {
                    SAME_PLAYER
                } else {
                    let weight = u64::from(met[pq])
                        + u64::from(KEEP_APART_WEIGHT) * u64::from(keep_apart[pq]);
                    weight * weight
                }
            })
            .collect();
        let fresh_seats = (0..n)
            .map(|p| (0..k).filter(|&s| seat_counts[p * k + s] == 0).fold(0, |m, s| m | 1 << s))
            .collect();
        Ok(Self {
            board_size: k,
            seat_labels,
            names,
            twice,
            top_board,
            met,
            keep_apart,
            team_mates,
            cost,
            seat_counts,
            fresh_seats,
            earlier_present,
        })
    }

    /// Boards of names as boards of player indices, checked: whole boards, everyone to
    /// seat on as many boards as planned, nobody twice on a board.
    pub(super) fn boards_by_index(
        &self,
        boards: &[Vec<String>],
    ) -> Result<Vec<Vec<usize>>, SeedingError> {
        let mismatch = |why: String| Err(SeedingError::BoardsMismatch(why));
        let id: BTreeMap<&str, usize> =
            self.names.iter().enumerate().map(|(i, name)| (name.as_str(), i)).collect();
        let mut boards_of = vec![0usize; self.names.len()];
        let mut indexed = Vec::with_capacity(boards.len());
        for (number, board) in (1..).zip(boards) {
            if board.len() != self.board_size {
                return mismatch(format!("board {number} has {} players", board.len()));
            }
            let mut players = Vec::with_capacity(board.len());
            for name in board {
                let Some(&p) = id.get(name.as_str()) else {
                    return mismatch(format!("{name:?} on board {number} is not to be seated"));
                };
                if players.contains(&p) {
                    return mismatch(format!("{name:?} is twice on board {number}"));
                }
                boards_of[p] += 1;
                players.push(p);
            }
            indexed.push(players);
        }
        for (p, &count) in boards_of.iter().enumerate() {
            let planned = 1 + usize::from(self.twice[p]);
            if count != planned {
                return mismatch(format!(
                    "{:?} is on {count} boards, not {planned}",
                    self.names[p]
                ));
            }
        }
        Ok(indexed)
    }

    pub(super) fn players(&self) -> usize {
        self.names.len()
    }

    pub(super) fn cost(&self, p: usize, q: usize) -> u64 {
        self.cost[p * self.names.len() + q]
    }

    /// Σ over ordered pairs of the board of their pair cost.
    pub(super) fn board_cost(&self, board: &[usize]) -> u64 {
        let mut total = 0;
        for (i, &p) in board.iter().enumerate() {
            for &q in &board[i + 1..] {
                total += 2 * self.cost(p, q);
            }
        }
        total
    }
}

/// Name → index, refusing a name listed twice.
fn index_of(
    names: &[String],
    duplicate: impl Fn(String) -> SeedingError,
) -> Result<BTreeMap<&str, usize>, SeedingError> {
    let mut index = BTreeMap::new();
    for (i, name) in names.iter().enumerate() {
        if index.insert(name.as_str(), i).is_some() {
            return Err(duplicate(name.clone()));
        }
    }
    Ok(index)
}

/// The indices of `names` among the present players, refusing unknown and repeated names.
fn known_subset(
    present: &BTreeMap<&str, usize>,
    names: &[String],
    list: &'static str,
) -> Result<Vec<usize>, SeedingError> {
    index_of(names, |name| SeedingError::DuplicatePlayer(name, list))?;
    names
        .iter()
        .map(|name| {
            present
                .get(name.as_str())
                .copied()
                .ok_or_else(|| SeedingError::UnknownPlayer(name.clone(), list))
        })
        .collect()
}
