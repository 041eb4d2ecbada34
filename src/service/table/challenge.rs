//! A challenge's invitations in a lobby: the players the host invited by name (`/sequence start
//! invite:`, the user command "Challenge to Sequence"), each to answer with **Accept** (a seat, as
//! Join gives one) or **Decline** (the host is told privately, the others see the name leave the
//! list of invited players and nothing more), until the invitations lapse: the lobby post then says
//! who did not answer and stays open as an ordinary lobby. Kept in the lobby's saved state, so a
//! restart keeps the invitations and when they lapse.

use serde::{Deserialize, Serialize};

use crate::service::ids::{Actor, Timestamp, UserId};
use crate::service::reply::{Message, Output};
use crate::service::settings::Settings;
use crate::service::text::Text;

use super::{replied, Outcome, State, Table};

/// The invitations of a challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    /// Invited and not answered yet, in the host's order.
    pub waiting: Vec<UserId>,
    /// When the invitations still waiting lapse.
    pub lapses: Timestamp,
    /// Who had not answered when the invitations lapsed (the lobby card says so from then on).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unanswered: Vec<UserId>,
}

impl Challenge {
    /// Whether `user` is invited and has not answered yet.
    pub fn is_waiting_for(&self, user: UserId) -> bool {
        self.waiting.contains(&user)
    }
}

impl Table {
    /// The lobby's challenge, if it has one.
    pub(in crate::service) fn challenge(&self) -> Option<&Challenge> {
        match &self.state {
            State::Lobby(lobby) => lobby.challenge.as_ref(),
            State::Playing(_) => None,
        }
    }

    /// Invites `invited` to this new lobby until `lapses`: refused if it names nobody, the same
    /// person twice, someone who is no person (the id 0, which no user has, or one of `bots`, the
    /// invited that Discord says are apps), the host, or more players than the lobby has free
    /// seats. Checked here, not only where the invitation was read, so that no way in (a typed
    /// command, the console) can invite what Discord's parser would refuse.
    pub(in crate::service) fn invite(
        &mut self,
        invited: &[UserId],
        bots: &[UserId],
        lapses: Timestamp,
    ) -> Result<(), Text> {
        let host = self.host;
        let max_players = self.setup.max_players();
        let lobby = self.lobby_mut()?;
        for (i, user) in invited.iter().enumerate() {
            if user.0 == 0 {
                return Err(Text::InviteNotPeople);
            }
            if bots.contains(user) {
                return Err(Text::InviteBot(*user));
            }
            if invited[..i].contains(user) {
                return Err(Text::InviteTwice(*user));
            }
        }
        if invited.contains(&host) {
            return Err(Text::InviteSelf);
        }
        let free = usize::from(max_players).saturating_sub(lobby.seats.len());
        if invited.len() > free {
            return Err(Text::InviteTooMany {
                max: u8::try_from(free).unwrap_or(u8::MAX),
            });
        }
        if invited.is_empty() {
            return Err(Text::InviteNotMentions);
        }
        lobby.challenge = Some(Challenge {
            waiting: invited.to_vec(),
            lapses,
            unanswered: Vec::new(),
        });
        Ok(())
    }

    /// The invitation is for `actor` and still open: otherwise the polite refusal.
    fn check_invited(&self, actor: &Actor) -> Result<(), Text> {
        let State::Lobby(lobby) = &self.state else {
            return Err(Text::AlreadyStarted);
        };
        if lobby.seats.iter().any(|s| s.player.is(actor.user)) {
            return Err(Text::AlreadyJoined);
        }
        match &lobby.challenge {
            Some(challenge) if challenge.is_waiting_for(actor.user) => Ok(()),
            _ => Err(Text::NotInvited),
        }
    }

    /// **Accept**: an invited player takes a seat, as Join gives one (a full lobby or a team that
    /// cannot take them is refused the same way, and the invitation stays open).
    pub(super) fn accept(&mut self, actor: &Actor, settings: &Settings) -> Outcome {
        self.check_invited(actor)?;
        self.join(actor, None, settings)
    }

    /// **Decline**: the invitation is answered; the lobby card no longer lists the player, the player
    /// is told privately, and so is the host (by a direct message).
    pub(super) fn decline(&mut self, actor: &Actor, settings: &Settings) -> Outcome {
        self.check_invited(actor)?;
        let variant = self.setup.variant;
        if let Ok(lobby) = self.lobby_mut() {
            if let Some(challenge) = &mut lobby.challenge {
                challenge.waiting.retain(|&user| user != actor.user);
            }
        }
        replied(vec![
            self.lobby_output(self.lobby_message(settings)),
            Output::Ephemeral(Message::text(Text::DeclinedAck)),
            Output::Direct {
                user: self.host,
                message: Message::text(Text::ChallengeDeclined {
                    by: actor.user,
                    variant,
                    channel: self.channel,
                }),
            },
        ])
    }

    /// A player who joined answered their invitation (by Accept or by Join).
    pub(super) fn answered(&mut self, user: UserId) {
        if let Ok(lobby) = self.lobby_mut() {
            if let Some(challenge) = &mut lobby.challenge {
                challenge.waiting.retain(|&waiting| waiting != user);
            }
        }
    }

    /// When the invitations still waiting lapse (`None`: none waits).
    pub(in crate::service) fn invitations_lapse(&self) -> Option<Timestamp> {
        self.challenge()
            .filter(|c| !c.waiting.is_empty())
            .map(|c| c.lapses)
    }

    /// At `now`, the invitations still waiting lapse if their time has come: the lobby card is
    /// edited to say who did not answer, and loses Accept and Decline.
    pub(super) fn lapse_invitations(
        &mut self,
        now: Timestamp,
        settings: &Settings,
    ) -> Option<Output> {
        if self.invitations_lapse().is_none_or(|lapses| now < lapses) {
            return None;
        }
        let lobby = self.lobby_mut().ok()?;
        let challenge = lobby.challenge.as_mut()?;
        let waiting = std::mem::take(&mut challenge.waiting);
        challenge.unanswered.extend(waiting);
        Some(self.lobby_output(self.lobby_message(settings)))
    }
}
