//! The project's own seeded generator, so records replay identically whatever `rand` version is linked.

/// A small, fast, deterministic generator (xoshiro256++ seeded through splitmix64).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameRng {
    s: [u64; 4],
}

impl GameRng {
    /// A generator whose whole output is fixed by `seed`.
    pub fn new(seed: u64) -> GameRng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        GameRng {
            s: [next(), next(), next(), next()],
        }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform number in `0..n` (`n > 0`), without modulo bias (Lemire's method).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let n = n.max(1);
        let mut m = (self.next_u64() >> 32) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = (self.next_u64() >> 32) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// Shuffles a slice in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// One roll of a six-sided die.
    #[inline]
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }
}

impl rand_core::RngCore for GameRng {
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    fn next_u64(&mut self) -> u64 {
        GameRng::next_u64(self)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        rand_core::impls::fill_bytes_via_next(self, dest)
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_below_in_range() {
        let mut a = GameRng::new(7);
        let mut b = GameRng::new(7);
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut counts = [0u32; 6];
        for _ in 0..6000 {
            let d = a.die();
            assert!((1..=6).contains(&d));
            counts[usize::from(d - 1)] += 1;
        }
        assert!(
            counts.iter().all(|&c| c > 800),
            "dice look biased: {counts:?}"
        );
        assert_ne!(GameRng::new(1).next_u64(), GameRng::new(2).next_u64());
    }
}

/// The dice roll-off that decides who starts a live dice game: everybody rolls two dice, the highest sum
/// starts, tied leaders roll again. Returns each round of rolls (`None` for players out of the running)
/// and the winner. Records skip this: seat 0 starts.
pub fn roll_off(players: u8, rng: &mut GameRng) -> (Vec<Vec<Option<[u8; 2]>>>, u8) {
    let mut in_running: Vec<bool> = vec![true; usize::from(players)];
    let mut rounds = Vec::new();
    loop {
        let round: Vec<Option<[u8; 2]>> = in_running
            .iter()
            .map(|&r| r.then(|| [rng.die(), rng.die()]))
            .collect();
        let sum = |r: &Option<[u8; 2]>| r.map_or(0, |[a, b]| a + b);
        let best = round.iter().map(sum).max().unwrap_or(0);
        for (running, roll) in in_running.iter_mut().zip(&round) {
            *running = *running && sum(roll) == best;
        }
        rounds.push(round);
        let leaders: Vec<usize> = (0..in_running.len()).filter(|&i| in_running[i]).collect();
        if leaders.len() <= 1 {
            return (rounds, leaders.first().copied().unwrap_or(0) as u8);
        }
    }
}

#[cfg(test)]
mod roll_off_tests {
    use super::*;

    #[test]
    fn the_highest_sum_starts_and_ties_roll_again() {
        let mut starts = [0u32; 4];
        for seed in 0..400 {
            let mut rng = GameRng::new(seed);
            let (rounds, winner) = roll_off(4, &mut rng);
            starts[usize::from(winner)] += 1;
            let last = rounds.last().expect("at least one round");
            let sum = |r: &Option<[u8; 2]>| r.map_or(0, |[a, b]| a + b);
            let best = last.iter().map(sum).max().expect("players");
            assert_eq!(sum(&last[usize::from(winner)]), best);
            assert_eq!(
                last.iter().filter(|r| sum(r) == best).count(),
                1,
                "the last round has one leader"
            );
            for pair in rounds.windows(2) {
                for (before, after) in pair[0].iter().zip(&pair[1]) {
                    assert!(
                        before.is_some() || after.is_none(),
                        "a player out stays out"
                    );
                }
            }
        }
        assert!(
            starts.iter().all(|&n| n > 60),
            "every seat can start: {starts:?}"
        );
    }
}
