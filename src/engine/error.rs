//! Why a move was refused. Each variant maps to one error code of RECORD.md.

/// A refused move; the game is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// Someone other than the player to move tried to act.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The card is not in the player's hand.
    #[error("that card is not in your hand")]
    CardNotInHand,
    /// The cell already holds a chip.
    #[error("that cell already has a chip on it")]
    CellOccupied,
    /// The cell does not show the card (or the dice sum).
    #[error("that card does not match the cell")]
    CardDoesNotMatch,
    /// Free corners never take or lose chips.
    #[error("the corners are free for everyone and never take a chip")]
    FreeCorner,
    /// The chip is part of a completed sequence (or, in dice, on a 2 or 12 cell).
    #[error("that chip is protected and cannot be removed")]
    ChipLocked,
    /// There is no opponent chip on that cell.
    #[error("there is no opponent chip on that cell")]
    NoOpponentChip,
    /// Only dead cards may be exchanged.
    #[error("that card is not dead: one of its cells is still free")]
    NotDead,
    /// One exchange per turn.
    #[error("you have already exchanged a card this turn")]
    ExchangeTwice,
    /// Passing is allowed only when nothing else is.
    #[error("you can still move, so you cannot pass")]
    PassNotAllowed,
    /// The action does not fit the current roll (or the game).
    #[error("that action does not fit this roll")]
    WrongActionForRoll,
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The cell name is not on this board.
    #[error("that is not a cell of this board")]
    BadCell,
    /// The card name is not a card of this game.
    #[error("that is not a card of this game")]
    BadCard,
}

impl PlayError {
    /// The error code used in records and `replay` output.
    pub const fn code(self) -> &'static str {
        match self {
            PlayError::NotYourTurn => "not_your_turn",
            PlayError::CardNotInHand => "card_not_in_hand",
            PlayError::CellOccupied => "cell_occupied",
            PlayError::CardDoesNotMatch => "card_does_not_match",
            PlayError::FreeCorner => "free_corner",
            PlayError::ChipLocked => "chip_locked",
            PlayError::NoOpponentChip => "no_opponent_chip",
            PlayError::NotDead => "not_dead",
            PlayError::ExchangeTwice => "exchange_twice",
            PlayError::PassNotAllowed => "pass_not_allowed",
            PlayError::WrongActionForRoll => "wrong_action_for_roll",
            PlayError::GameOver => "game_over",
            PlayError::BadCell => "bad_cell",
            PlayError::BadCard => "bad_card",
        }
    }

    /// Every error, for tests and documentation.
    pub const ALL: [PlayError; 14] = [
        PlayError::NotYourTurn,
        PlayError::CardNotInHand,
        PlayError::CellOccupied,
        PlayError::CardDoesNotMatch,
        PlayError::FreeCorner,
        PlayError::ChipLocked,
        PlayError::NoOpponentChip,
        PlayError::NotDead,
        PlayError::ExchangeTwice,
        PlayError::PassNotAllowed,
        PlayError::WrongActionForRoll,
        PlayError::GameOver,
        PlayError::BadCell,
        PlayError::BadCard,
    ];
}
