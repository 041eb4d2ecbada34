//! Computer players as seen by the service: a level, and a [`MovePicker`] that chooses a move from a
//! seat's view. The Discord layer plugs in the real AI; tests use [`RandomPicker`].

use crate::engine::{GameRng, Move, MoveList, Seat, View};

/// How strong a computer player is: the AI's own levels (same names in commands, config and saves).
pub use crate::ai::Level as BotLevel;

/// Chooses a move for the seat whose view is given (it is that seat's turn). Synchronous and possibly
/// slow: the service calls it on a blocking thread, never holding a table lock. A move that turns out
/// illegal is replaced by a random legal one.
pub trait MovePicker: Send + Sync + 'static {
    /// The move to play, knowing the game's public actions so far (`history`, oldest first).
    fn choose(&self, view: &View, history: &[(Seat, Move)], level: BotLevel, seed: u64) -> Move;

    /// [`MovePicker::choose`] thinking at most `think` (`None`: the picker's own time); a picker
    /// without a notion of time ignores it.
    fn choose_thinking(
        &self,
        view: &View,
        history: &[(Seat, Move)],
        level: BotLevel,
        seed: u64,
        think: Option<std::time::Duration>,
    ) -> Move {
        let _ = think;
        self.choose(view, history, level, seed)
    }
}

/// Picks a uniformly random legal move, whatever the level (a stand-in for the real AI).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPicker;

impl MovePicker for RandomPicker {
    fn choose(&self, view: &View, _history: &[(Seat, Move)], _level: BotLevel, seed: u64) -> Move {
        random_legal_move(view, seed)
    }
}

/// A uniformly random legal move from a view (`Pass` when there is none).
pub fn random_legal_move(view: &View, seed: u64) -> Move {
    let mut moves = MoveList::new();
    view.legal_moves(&mut moves);
    if moves.is_empty() {
        return Move::Pass;
    }
    let mut rng = GameRng::new(seed);
    let n = u32::try_from(moves.len()).unwrap_or(u32::MAX);
    moves
        .get(rng.below(n) as usize)
        .copied()
        .unwrap_or(Move::Pass)
}
