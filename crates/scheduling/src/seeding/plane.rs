//! Rounds with no repeat by construction, for k² players in boards of k (k prime, e.g. 49
//! in boards of 7). The k² points of the affine plane over Z_k fall into k + 1 parallel
//! classes of k lines, two lines of different classes sharing exactly one point: seating
//! round r as class r gives k + 1 rounds in which no pair meets twice. A local search finds
//! the first two such rounds easily, but a third round with no repeat is any Latin square,
//! and not every Latin square of order 7 has an orthogonal mate, so a fourth round could
//! become impossible. So from the third round on, when the earlier boards are exactly
//! parallel classes of such a plane, the plane's coordinates are recovered from them and the
//! next round is one of the unused classes (the one whose boards leave fewest seat repeats).

use super::problem::Problem;
use super::seats::seat_deficit;

/// The next parallel class of the plane the earlier rounds form, as boards of player
/// indices; `None` when the round does not have that shape or every class is used.
pub(super) fn next_parallel_class(problem: &Problem) -> Option<Vec<Vec<usize>>> {
    let k = problem.board_size;
    let n = problem.players();
    if n != k * k
        || !is_prime(k)
        || !problem.top_board.is_empty()
        || problem.twice.contains(&true)
        || problem.met.iter().any(|&met| met > 1)
    {
        return None;
    }
    let classes = parallel_classes(problem)?;
    if classes.len() < 2 {
        return None; // the search finds these rounds, and any solution extends
    }
    let coordinates = coordinates(k, &classes)?;
    let used = used_slopes(k, &classes, &coordinates)?;
    let candidates = (1..k as u64).filter(|slope| !used.contains(slope)).map(|slope| {
        let mut boards = vec![Vec::with_capacity(k); k];
        for (player, &(x, y)) in coordinates.iter().enumerate() {
            let intercept = (y + k as u64 * k as u64 - slope * x) % k as u64;
            boards[intercept as usize].push(player);
        }
        boards
    });
    let cost = |boards: &Vec<Vec<usize>>| {
        let pairs: u64 = boards.iter().map(|board| problem.board_cost(board)).sum();
        let seats: u32 = boards
            .iter()
            .map(|board| seat_deficit(board.iter().map(|&p| problem.fresh_seats[p])))
            .sum();
        (pairs, seats)
    };
    let best = candidates.min_by_key(cost)?;
    (cost(&best).0 == 0).then_some(best)
}

fn is_prime(k: usize) -> bool {
    k >= 2 && (2..k).take_while(|d| d * d <= k).all(|d| !k.is_multiple_of(d))
}

/// Each earlier round as `line_of[player]` (the index of the player's board in the
/// class), when the earlier boards are whole boards of the players present that fall into
/// complete classes of pairwise disjoint boards.
fn parallel_classes(problem: &Problem) -> Option<Vec<Vec<usize>>> {
    let k = problem.board_size;
    let n = problem.players();
    let mut classes: Vec<(Vec<usize>, usize)> = Vec::new(); // (line_of, lines so far)
    for (present, size) in &problem.earlier_present {
        if present.is_empty() {
            continue;
        }
        if present.len() != k || *size != k {
            return None;
        }
        let disjoint = |line_of: &Vec<usize>| present.iter().all(|&p| line_of[p] == usize::MAX);
        let class = match classes.iter().position(|(line_of, _)| disjoint(line_of)) {
            Some(class) => class,
            None => {
                classes.push((vec![usize::MAX; n], 0));
                classes.len() - 1
            }
        };
        let (line_of, lines) = &mut classes[class];
        for &p in present {
            line_of[p] = *lines;
        }
        *lines += 1;
    }
    classes.into_iter().map(|(line_of, lines)| (lines == k).then_some(line_of)).collect()
}

/// Coordinates (x, y) in Z_k × Z_k of every player such that class 0 is the lines x = c,
/// class 1 the lines y = c and class 2 (if any) the lines y = x + c. Found by propagation
/// from x = y = 0 for player 0 and y = 1 for a player on player 0's class-0 line.
fn coordinates(k: usize, classes: &[Vec<usize>]) -> Option<Vec<(u64, u64)>> {
    let modulus = k as u64;
    let (xs, ys) = (&classes[0], &classes[1]);
    let n = xs.len();
    let (mut x_of, mut y_of) = (vec![None; k], vec![None; k]);
    if let Some(diagonal) = classes.get(2) {
        let mut c_of = vec![None; k];
        let neighbour = (1..n).find(|&p| xs[p] == xs[0])?;
        x_of[xs[0]] = Some(0);
        y_of[ys[0]] = Some(0);
        c_of[diagonal[0]] = Some(0);
        y_of[ys[neighbour]] = Some(1);
        c_of[diagonal[neighbour]] = Some(1);
        // y − x = c on every point: two known values give the third.
        let mut changed = true;
        while changed {
            changed = false;
            for p in 0..n {
                let (x, y, c) = (&mut x_of[xs[p]], &mut y_of[ys[p]], &mut c_of[diagonal[p]]);
                match (*x, *y, *c) {
                    (Some(x), Some(y), Some(c)) if (y + modulus - x) % modulus != c => return None,
                    (Some(x), Some(y), None) => *c = Some((y + modulus - x) % modulus),
                    (Some(x), None, Some(c)) => *y = Some((x + c) % modulus),
                    (None, Some(y), Some(c)) => *x = Some((y + modulus - c) % modulus),
                    _ => continue,
                }
                changed = true;
            }
        }
    } else {
        for line in 0..k {
            x_of[line] = Some(line as u64);
            y_of[line] = Some(line as u64);
        }
    }
    let coordinates: Vec<(u64, u64)> =
        (0..n).map(|p| Some((x_of[xs[p]]?, y_of[ys[p]]?))).collect::<Option<_>>()?;
    let mut points = coordinates.clone();
    points.sort_unstable();
    points.dedup();
    (points.len() == n).then_some(coordinates)
}

/// The slopes m of the classes after the first two (lines y = m·x + c), or `None` when
/// some class is not such a set of lines.
fn used_slopes(k: usize, classes: &[Vec<usize>], coordinates: &[(u64, u64)]) -> Option<Vec<u64>> {
    let modulus = k as u64;
    classes[2..]
        .iter()
        .map(|line_of| {
            let on_line_zero: Vec<usize> =
                (0..coordinates.len()).filter(|&p| line_of[p] == 0).collect();
            let ((x1, y1), (x2, y2)) = (coordinates[on_line_zero[0]], coordinates[on_line_zero[1]]);
            let run = (x2 + modulus - x1) % modulus;
            if run == 0 {
                return None;
            }
            let slope = (y2 + modulus - y1) % modulus * inverse(run, modulus) % modulus;
            // Every line of the class: one intercept per line, distinct lines distinct.
            let mut intercept_of_line = vec![None; k];
            for (p, &(x, y)) in coordinates.iter().enumerate() {
                let intercept = (y + modulus * modulus - slope * x) % modulus;
                match intercept_of_line[line_of[p]] {
                    None => intercept_of_line[line_of[p]] = Some(intercept),
                    Some(known) if known != intercept => return None,
                    Some(_) => {}
                }
            }
            Some(slope)
        })
        .collect()
}

/// The inverse of `value` modulo the prime `modulus` (Fermat).
fn inverse(value: u64, modulus: u64) -> u64 {
    let (mut result, mut base, mut exponent) = (1, value % modulus, modulus - 2);
    while exponent > 0 {
        if exponent & 1 == 1 {
            result = result * base % modulus;
        }
        base = base * base % modulus;
        exponent >>= 1;
    }
    result
}
