//! Presses of buttons and menus: the custom id decoded once into a service command, the presser and
//! the languages read from the interaction, and the press handed to [`answer::serve`] (a hint's to
//! the search, every other to the service's table); an id that is not ours is refused privately.
//! **Open the board** never reaches the service: it is answered at once with `LAUNCH_ACTIVITY`, as
//! is the app's entry point command when the portal left its handling to the app.

use poise::serenity_prelude as serenity;

use crate::i18n::Lang;
use crate::service::picker::Step;
use crate::service::{
    command_for_component, ChannelId, Command, GuildId, Reply, Request, Text, ACTIVITY_ID,
};

use super::answer::{self, Asked, Asking, Handled, Stage};
use super::interaction::{asker, channel_access, note_access, note_place, serve, Asker, Langs};
use super::relay::{self, place_of, Place};
use super::window::Window;
use super::{Data, Error};

/// Button presses (every other event is left to poise).
pub(super) async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    data: &Data,
) -> Result<(), Error> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Command(command),
    } = event
    {
        // The entry point command with the app's own handler (`APP_HANDLER`): launch the Activity.
        if command.data.kind == serenity::CommandType::PrimaryEntryPoint {
            let place = place_of(
                command.guild_id,
                &command.authorizing_integration_owners,
                command.member.as_ref().and_then(|m| m.permissions),
            );
            if launch_activity(ctx, command.id, &command.token, "entry point").await {
                let channel = ChannelId(command.channel_id.get());
                after_launch(ctx, data, channel, &command.token, place).await;
            }
        }
    }
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press),
    } = event
    {
        if press.data.custom_id == ACTIVITY_ID && data.tables.activity_on() {
            let started = std::time::Instant::now();
            let launched = launch_activity(ctx, press.id, &press.token, "button").await;
            metrics::histogram!("sequence_interaction_seconds", "command" => "activity")
                .record(started.elapsed());
            if launched {
                let place = place_of(
                    press.guild_id,
                    &press.authorizing_integration_owners,
                    press.member.as_ref().and_then(|m| m.permissions),
                );
                let channel = ChannelId(press.channel_id.get());
                after_launch(ctx, data, channel, &press.token, place).await;
            }
            return Ok(());
        }
        let values = match &press.data.kind {
            serenity::ComponentInteractionDataKind::StringSelect { values } => values.clone(),
            _ => Vec::new(),
        };
        let started = std::time::Instant::now();
        let window = Window::opened_now();
        match command_for_component(&press.data.custom_id, &values) {
            Ok(command) => on_press(ctx, data, press, command, window).await,
            Err(text) => refuse_press(ctx, data, press, text, window).await,
        }
        metrics::histogram!("sequence_interaction_seconds", "command" => "button")
            .record(started.elapsed());
    }
    Ok(())
}

/// Answers an interaction with `LAUNCH_ACTIVITY` (callback type 12): Discord opens the Activity for
/// the presser, in the interaction's channel. At once: nothing to ask the service, so well within
/// Discord's three seconds. Whether Discord took it.
async fn launch_activity(
    ctx: &serenity::Context,
    id: serenity::InteractionId,
    token: &str,
    what: &str,
) -> bool {
    let response = serenity::CreateInteractionResponse::LaunchActivity;
    match ctx
        .http
        .create_interaction_response(id, token, &response, Vec::new())
        .await
    {
        Ok(()) => true,
        Err(e) => {
            tracing::warn!(
                "Discord refused to launch the Activity ({what}): {e}; are Activities turned on for the application in the developer portal?"
            );
            false
        }
    }
}

/// After a launch answered an interaction in `channel`: where the bot may only answer, its token
/// is the channel's freshest, and what was held back for the next interaction goes out on it now.
/// `LAUNCH_ACTIVITY` is the interaction's first answer, and Discord keeps a token for follow-ups
/// 15 minutes after it (receiving and responding, "Interaction tokens are valid for 15 minutes and
/// can be used to send followup messages"; docs/development.md, *Playing where the bot may only
/// answer*). A follow-up Discord refuses there is held again, as with any token.
async fn after_launch(
    ctx: &serenity::Context,
    data: &Data,
    channel: ChannelId,
    token: &str,
    place: Place,
) {
    note_place(data, channel, token, place).await;
    if place != Place::Channel {
        data.relays.answered(channel, token);
        relay::flush(ctx, data, channel).await;
    }
}

/// A press of a component whose id is not one of ours, answered privately; nothing changes.
async fn refuse_press(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    text: Text,
    window: Window,
) {
    let lang = Lang::from_locale(&press.locale);
    let asked = Asked {
        pressed: Some(press.message.id.get()),
        ..Asked::default()
    };
    let langs = Langs {
        user: lang,
        channel: lang,
    };
    let reply = Reply::ephemeral(text);
    // A press answers nothing to poise: failures are logged where they happen.
    let _ = answer::answer(
        Asking::Press(ctx, press),
        data,
        asked,
        Stage::Open,
        window,
        &reply,
        langs,
    )
    .await;
}

/// A button press or menu choice, handed to the service (a hint's to the search) and answered as
/// [`answer::plan`] decides. A press that changes a table, or searches, is acknowledged first;
/// any other is answered in place if its answer is ready within its [`Window`], and deferred
/// otherwise.
async fn on_press(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    command: Command,
    window: Window,
) {
    let channel = ChannelId(press.channel_id.get());
    let member = press.member.as_ref();
    let (actor, langs) = asker(
        ctx,
        data,
        &Asker {
            user: &press.user,
            member,
            locale: Some(&press.locale),
            guild_locale: press.guild_locale.as_deref(),
            guild: press.guild_id,
            channel,
        },
    );
    let place = place_of(
        press.guild_id,
        &press.authorizing_integration_owners,
        member.and_then(|m| m.permissions),
    );
    // Where the bot may only answer, no post is tried, so nothing pauses for permissions.
    let access = (place == Place::Channel)
        .then(|| {
            channel_access(
                ctx,
                press.guild_id,
                press.channel_id,
                press.app_permissions,
                press.channel.as_ref().map(|c| c.kind),
            )
        })
        .flatten();
    let token = press.token.as_str();
    let asking = Asking::Press(ctx, press);
    let pressed = Some(press.message.id.get());
    // A press answers nothing to poise: failures are logged where they happen.
    let _ = match command {
        Command::Press(hint) if hint.is_hint() => {
            // The search may take longer than the window. The Yes of the question before a hint in
            // a rated game is answered in place (the answer replaces the question); any other hint
            // in a new private message (the picker stays).
            let asked = Asked {
                pressed,
                searches: true,
                waits_privately: hint.step != Step::HintUnrated,
                ..Asked::default()
            };
            let request = Request {
                guild: press.guild_id.map(|g| GuildId(g.get())),
                channel,
                actor,
                command: Command::Press(hint),
            };
            answer::serve(asking, data, asked, window, async move {
                note_place(data, channel, token, place).await;
                let (reply, pending) = serve(data, request).await;
                Handled {
                    langs,
                    reply,
                    resumed: note_access(data, channel, access).await,
                    pending: Some(pending),
                }
            })
            .await
        }
        command => {
            let asked = Asked {
                pressed,
                changes_table: command.changes_table(),
                // A rematch opens a new lobby: posted as a new message (so its invitation
                // notifies), not written over the final message of the last game.
                opens_lobby: matches!(command, Command::Rematch { .. }),
                ..Asked::default()
            };
            let request = Request {
                guild: press.guild_id.map(|g| GuildId(g.get())),
                channel,
                actor,
                command,
            };
            answer::serve(asking, data, asked, window, async move {
                // A paused table resumes (now that the bot may post again) before the press is
                // handled; like the request itself it may wait for a blocking thread.
                note_place(data, channel, token, place).await;
                let resumed = note_access(data, channel, access).await;
                let (reply, pending) = serve(data, request).await;
                Handled {
                    langs,
                    reply,
                    resumed,
                    pending: Some(pending),
                }
            })
            .await
        }
    };
}
