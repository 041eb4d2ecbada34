//! How a reply answers the interaction that asked for it, in one place for slash commands and
//! presses alike: when the interaction is acknowledged (deferred), so Discord's three seconds hold
//! (see [`super::window`]); which output becomes the interaction's answer (the pressed message
//! updated in place, a private or a public reply, the deferral filled in); and how every other output
//! goes (a private follow-up, or posted like anything unprompted: channel, lobby, DM). [`plan`]
//! decides and touches nothing; [`serve`] carries an interaction from its arrival to its answer.
//!
//! | asked | acknowledged | the answer | goes |
//! |---|---|---|---|
//! | command | not yet (in time) | private words, else a channel post, else a new lobby, else the confirmation (public ones publicly); nothing: [`Text::Internal`] | first; a picture or file is deferred first |
//! | command | privately (changes a table, a hint, or late) | the private words fill the deferral in, else the confirmation; nothing: [`Text::Done`] | an edit of the lobby card, then private answers, then the rest in order |
//! | press | not yet (in time) | the picker in place, else the pressed lobby in place, else private words; nothing: a bare acknowledgement | first; an update in place races the window, a private picture is deferred first |
//! | press | by an update (changes a table, or late) | the picker, else the pressed lobby, edited in place (a played picker loses its picture) | everything in order |
//! | press | privately (a hint) | as a command acknowledged privately | |
//!
//! Everything else: a confirmation is dropped, other private words are private follow-ups, the rest
//! is posted in the channel (a rematch's lobby as a new message), by DM, or disarms an old prompt.
//!
//! Languages: what answers privately is in the user's Discord locale; what is public is in the
//! server's preferred locale.

use std::future::Future;

use poise::serenity_prelude as serenity;

use crate::i18n::Lang;
use crate::service::{ChannelId, Message, Output, Pending, Reply, Sent, Text};

use super::interaction::Langs;
use super::outgoing::{clip, prepare, Outgoing};
use super::post::{send_output, send_unprompted, Discord};
use super::relay;
use super::retry::retrying;
use super::window::{Ack, Window};
use super::{Context, Data, Error};

/// What asked, as far as its answer is concerned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Asked {
    /// The pressed message, for a press of a button or a menu; `None` for a slash command.
    pub pressed: Option<u64>,
    /// Handling it changes a table: acknowledged before the service acts, which it does only if
    /// Discord took the acknowledgement (see STYLE.md, "Acknowledge, then act").
    pub changes_table: bool,
    /// Handling it searches (a hint) and may take longer than the window: acknowledged first too.
    pub searches: bool,
    /// A press that waits for its answer privately (a hint, answered in a new private message)
    /// rather than by a deferred update of the pressed message.
    pub waits_privately: bool,
    /// A press that opens a new lobby (a rematch): the lobby is posted as a new message, so its
    /// invitation notifies, not written over the pressed one.
    pub opens_lobby: bool,
}

/// How an interaction is acknowledged before its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Deferral {
    /// A private "thinking…", filled in by the private answer.
    Private,
    /// A public "thinking…", filled in by the public answer (commands).
    Public,
    /// A deferred update of the pressed message: nothing changes on screen yet (presses).
    Update,
}

/// When an interaction is acknowledged, before the service's reply is ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Acknowledgement {
    /// Before the service is asked anything.
    First(Deferral),
    /// Only if the reply is not ready when the window closes.
    WhenLate(Deferral),
}

impl Asked {
    /// When and how the interaction is acknowledged.
    pub(super) fn acknowledgement(self) -> Acknowledgement {
        let deferral = match self.pressed {
            Some(_) if !self.waits_privately => Deferral::Update,
            _ => Deferral::Private,
        };
        if self.changes_table || self.searches {
            Acknowledgement::First(deferral)
        } else {
            Acknowledgement::WhenLate(deferral)
        }
    }
}

/// How an interaction stands when its reply is ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// Not acknowledged: the answer is the interaction's response, and the window still runs.
    Open,
    /// Acknowledged.
    Deferred(Deferral),
}

/// How the answering output answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Answer {
    /// The pressed picker (or question) is replaced; `clear`: its pictures go (a move was made).
    Picker { clear: bool },
    /// The pressed lobby message is replaced (and remembered as the lobby if it was new).
    Lobby,
    /// Privately, in the user's language.
    Private,
    /// Publicly, in the channel's language (a new lobby message is remembered as the lobby).
    Public,
}

/// How one output of a reply goes out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Route {
    /// It answers the interaction.
    Answer(Answer),
    /// A private follow-up to the one who asked.
    FollowUp,
    /// Posted like anything unprompted ([`send_output`]): the channel, the lobby, a DM, a disarm.
    Post,
    /// Not sent: a bare confirmation where something else answers.
    Skip,
}

/// What answers when no output does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Otherwise {
    /// Nothing more: acknowledged already.
    Nothing,
    /// A bare acknowledgement of a press (nothing to say, nothing changes on screen).
    Acknowledge,
    /// A private line.
    Say(Text),
}

/// When the answering output is made ready (its picture drawn), the interaction not acknowledged yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Drawing {
    /// Nothing to wait for, or acknowledged already.
    Now,
    /// Deferred first: a picture may take longer than the window.
    DeferFirst(Deferral),
    /// Raced against the window, deferred if not ready when it closes.
    Race(Deferral),
}

/// How a reply answers an interaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    /// The reply's outputs in the order they go out, each with its route.
    pub steps: Vec<(usize, Route)>,
    /// What answers (before anything else) when no output does.
    pub otherwise: Otherwise,
    /// When the answering output is made ready.
    pub drawing: Drawing,
}

/// Whether a message only confirms what the asker did (dropped where something else answers).
fn is_ack(message: &Message) -> bool {
    message.lines.first().is_some_and(Text::is_ack)
}

/// How an output goes when it does not answer.
fn route_of(output: &Output) -> Route {
    match output {
        Output::Ephemeral(m) if is_ack(m) => Route::Skip,
        Output::Ephemeral(_) | Output::Update(_) => Route::FollowUp,
        _ => Route::Post,
    }
}

fn is_private(output: &Output) -> bool {
    matches!(output, Output::Ephemeral(_) | Output::Update(_))
}

/// Which output answers, and how.
fn answering(asked: Asked, stage: Stage, outputs: &[Output]) -> Option<(usize, Answer)> {
    let find = |f: &dyn Fn(&Output) -> bool| outputs.iter().position(f);
    let said = || find(&|o| matches!(o, Output::Ephemeral(m) | Output::Update(m) if !is_ack(m)));
    let fill_in = || {
        said()
            .or_else(|| find(&is_private))
            .map(|i| (i, Answer::Private))
    };
    match (asked.pressed, stage) {
        (None, Stage::Open) => said()
            .map(|i| (i, Answer::Private))
            .or_else(|| {
                find(&|o| matches!(o, Output::Channel(_)))
                    .or_else(|| {
                        find(&|o| {
                            matches!(
                                o,
                                Output::Lobby {
                                    message_id: None,
                                    ..
                                }
                            )
                        })
                    })
                    .map(|i| (i, Answer::Public))
            })
            .or_else(|| find(&|o| matches!(o, Output::Ephemeral(_))).map(|i| (i, Answer::Private))),
        (None, Stage::Deferred(_)) | (Some(_), Stage::Deferred(Deferral::Private)) => fill_in(),
        (Some(pressed), _) => find(&|o| matches!(o, Output::Update(_)))
            .map(|i| {
                let clear = asked.changes_table;
                (i, Answer::Picker { clear })
            })
            .or_else(|| {
                find(&|o| {
                    matches!(o, Output::Lobby { message_id, .. }
                        if !asked.opens_lobby && message_id.is_none_or(|id| id == pressed))
                })
                .map(|i| (i, Answer::Lobby))
            })
            .or_else(|| said().map(|i| (i, Answer::Private))),
    }
}

/// Decides how a reply's outputs answer an interaction asked as `asked`, standing at `stage`.
pub(super) fn plan(asked: Asked, stage: Stage, outputs: &[Output]) -> Plan {
    let answer = answering(asked, stage, outputs);
    let route = |i: usize| match answer {
        Some((a, how)) if a == i => Route::Answer(how),
        _ => route_of(&outputs[i]),
    };
    let all = 0..outputs.len();
    let steps: Vec<(usize, Route)> = match stage {
        // The window runs: the answer first.
        Stage::Open => answer
            .map(|(i, _)| i)
            .into_iter()
            .chain(all.filter(|&i| Some(i) != answer.map(|(a, _)| a)))
            .map(|i| (i, route(i)))
            .collect(),
        // A private "thinking…" shows: what is private fills it in first, except that an edit of
        // the lobby card goes before it: whoever reads "you joined" finds the card saying so, and a
        // press on the card that follows edits the newer card (the two go by different routes,
        // which Discord does not keep in order).
        Stage::Deferred(Deferral::Private | Deferral::Public) => {
            let card = |i: &usize| {
                matches!(
                    outputs[*i],
                    Output::Lobby {
                        message_id: Some(_),
                        ..
                    }
                )
            };
            all.clone()
                .filter(card)
                .chain(all.clone().filter(|i| !card(i) && is_private(&outputs[*i])))
                .chain(all.filter(|i| !card(i) && !is_private(&outputs[*i])))
                .map(|i| (i, route(i)))
                .collect()
        }
        // Nothing shows yet: in the reply's order (the board is posted before the picker says the
        // move is made).
        Stage::Deferred(Deferral::Update) => all.map(|i| (i, route(i))).collect(),
    };
    let otherwise = match (answer, asked.pressed, stage) {
        (Some(_), _, _) | (None, Some(_), Stage::Deferred(Deferral::Update)) => Otherwise::Nothing,
        (None, Some(_), Stage::Open) => Otherwise::Acknowledge,
        (None, None, Stage::Open) => Otherwise::Say(Text::Internal),
        (None, _, Stage::Deferred(_)) => Otherwise::Say(Text::Done),
    };
    let drawing = match (answer, stage) {
        (Some((i, how)), Stage::Open) => {
            let message = outputs[i].message();
            let picture = message.is_some_and(|m| m.image.is_some());
            let file = message.is_some_and(|m| m.attachment.is_some());
            match (asked.pressed, how) {
                (_, Answer::Picker { .. } | Answer::Lobby) => Drawing::Race(Deferral::Update),
                (Some(_), Answer::Private) if picture => Drawing::DeferFirst(Deferral::Private),
                (None, Answer::Private) if picture || file => {
                    Drawing::DeferFirst(Deferral::Private)
                }
                (None, Answer::Public) if picture || file => Drawing::DeferFirst(Deferral::Public),
                _ => Drawing::Now,
            }
        }
        _ => Drawing::Now,
    };
    Plan {
        steps,
        otherwise,
        drawing,
    }
}

/// The interaction being answered.
#[derive(Clone, Copy)]
pub(super) enum Asking<'a> {
    /// A slash command (poise answers its first message as the response, later ones as follow-ups).
    Command(Context<'a>),
    /// A press of a button or a menu.
    Press(&'a serenity::Context, &'a serenity::ComponentInteraction),
}

/// What the service answered, with what the interaction brought.
pub(super) struct Handled {
    /// The languages of the answer.
    pub langs: Langs,
    /// The service's reply.
    pub reply: Reply,
    /// A paused table resumed by this interaction: its note and board, sent after the answer.
    pub resumed: Option<Reply>,
    /// What follows the request (a computer's move that was not ready to go with the answer, the
    /// next ones): the service publishes it once this is dropped, after the answer.
    pub pending: Option<Pending>,
}

/// Carries an interaction from its arrival (its `window` opened then) to its answer: acknowledges it
/// first where [`Asked::acknowledgement`] says so (the `work`, which asks the service, runs only if
/// Discord took it), else races the work against the window; then answers with the reply as
/// [`plan`] decides, and sends the note of a table the interaction resumed. An error is one a
/// command's error handler should hear of (the answer to a command in time failed).
pub(super) async fn serve(
    asking: Asking<'_>,
    data: &Data,
    asked: Asked,
    window: Window,
    work: impl Future<Output = Handled>,
) -> Result<(), Error> {
    let channel = asking.channel();
    let (handled, stage) = match asked.acknowledgement() {
        Acknowledgement::First(deferral) => {
            if let Err(e) = asking.defer(deferral).await {
                tracing::info!(
                    channel = channel.0,
                    "an interaction was not acknowledged in time, so it was not carried out: {e}"
                );
                return Ok(());
            }
            (work.await, Stage::Deferred(deferral))
        }
        Acknowledgement::WhenLate(deferral) => {
            let (handled, ack) = window.race(work, asking.defer(deferral)).await;
            match ack {
                Ack::InTime => (handled, Stage::Open),
                Ack::Deferred => (handled, Stage::Deferred(deferral)),
                Ack::Lost(e) => {
                    // Nothing it asked for changes a table: only the answer is lost.
                    tracing::info!(
                        channel = channel.0,
                        "an interaction was not acknowledged in time: {e}"
                    );
                    if let Some(resumed) = handled.resumed {
                        send_unprompted(asking.discord(), data, channel, resumed).await;
                    }
                    drop(handled.pending);
                    return Ok(());
                }
            }
        }
    };
    let answered = answer(
        asking,
        data,
        asked,
        stage,
        window,
        &handled.reply,
        handled.langs,
    )
    .await;
    if let Some(resumed) = handled.resumed {
        send_unprompted(asking.discord(), data, channel, resumed).await;
    }
    drop(handled.pending);
    answered
}

/// Answers an interaction standing at `stage` with `reply` as [`plan`] decides. Only the failed answer to a command in time is returned; every
/// other failure is logged (a press whose answer failed sends that output like the others).
pub(super) async fn answer(
    asking: Asking<'_>,
    data: &Data,
    asked: Asked,
    stage: Stage,
    window: Window,
    reply: &Reply,
    langs: Langs,
) -> Result<(), Error> {
    let channel = asking.channel();
    let plan = plan(asked, stage, &reply.outputs);
    let answering = plan.steps.iter().find_map(|&(i, route)| match route {
        Route::Answer(_) => Some(i),
        _ => None,
    });
    // The replay the answer draws itself holds its slot in the replay queue until it is sent.
    let _replay = answering.map(|i| {
        data.tables.replays_held(&Reply {
            outputs: vec![reply.outputs[i].clone()],
            auto_move: false,
        })
    });
    let mut deferred = matches!(stage, Stage::Deferred(_));
    // Where the bot may only answer, this interaction's token carries what would be posted once the
    // interaction shows its answer (a follow-up sooner would be refused, or fill a private
    // "thinking…" in): a deferred update shows nothing, so at once.
    let answers_only = data.tables.is_answers_only(channel);
    let answered_now = || {
        if answers_only {
            data.relays.answered(channel, asking.token());
        }
    };
    if stage == Stage::Deferred(Deferral::Update) {
        answered_now();
    }
    match &plan.otherwise {
        Otherwise::Nothing => {}
        Otherwise::Acknowledge => {
            if let Asking::Press(ctx, press) = asking {
                if let Err(e) = retrying("acknowledge", || {
                    press.create_response(ctx, serenity::CreateInteractionResponse::Acknowledge)
                })
                .await
                {
                    tracing::warn!(channel = channel.0, "cannot answer a button press: {e}");
                }
            }
        }
        Otherwise::Say(text) => {
            let out = prepare(data, &Message::text(text.clone()), langs.user).await;
            asking.say_privately(out, deferred).await;
        }
    }
    if plan.otherwise != Otherwise::Nothing {
        answered_now();
    }
    for (i, route) in plan.steps {
        let output = &reply.outputs[i];
        match route {
            Route::Skip => {}
            Route::Post => send_output(asking.discord(), data, channel, output).await,
            Route::FollowUp => {
                if let Some(message) = output.message() {
                    let out = prepare(data, message, langs.user).await;
                    asking.say_privately(out, true).await;
                }
            }
            Route::Answer(how) => {
                let answered = answer_with(
                    asking,
                    data,
                    output,
                    how,
                    plan.drawing,
                    window,
                    &mut deferred,
                    langs,
                )
                .await;
                answered_now();
                let Err(e) = answered else { continue };
                match (asking, stage) {
                    (Asking::Command(_), Stage::Open) => return Err(e.into()),
                    (Asking::Press(..), Stage::Open) => {
                        tracing::warn!(channel = channel.0, "cannot answer a button press: {e}");
                        // Said another way, as if something else had answered.
                        match route_of(output) {
                            Route::FollowUp => {
                                if let Some(message) = output.message() {
                                    let out = prepare(data, message, langs.user).await;
                                    asking.say_privately(out, true).await;
                                }
                            }
                            Route::Post => {
                                send_output(asking.discord(), data, channel, output).await;
                            }
                            Route::Skip | Route::Answer(_) => {}
                        }
                    }
                    _ => tracing::warn!(channel = channel.0, "cannot answer: {e}"),
                }
            }
        }
    }
    if answers_only {
        // Answered in every case now; what waited for an interaction here comes with this one.
        answered_now();
        relay::flush(asking.discord(), data, channel).await;
    }
    Ok(())
}

/// Sends the output that answers the interaction, as `how` says; `deferred` tells (and is set when)
/// the interaction has been acknowledged.
#[allow(clippy::too_many_arguments)]
async fn answer_with(
    asking: Asking<'_>,
    data: &Data,
    output: &Output,
    how: Answer,
    drawing: Drawing,
    window: Window,
    deferred: &mut bool,
    langs: Langs,
) -> Result<(), serenity::Error> {
    let channel = asking.channel();
    let Some(message) = output.message() else {
        return Ok(());
    };
    if let (Drawing::DeferFirst(deferral), false) = (drawing, *deferred) {
        asking.defer(deferral).await?;
        *deferred = true;
    }
    match (how, asking) {
        (Answer::Private, _) => {
            let out = prepare(data, message, langs.user).await;
            asking.answer_privately(out, *deferred).await
        }
        (Answer::Public, Asking::Command(ctx)) => {
            let out = prepare(data, message, langs.channel).await;
            let more = out.more.clone();
            // A new lobby card: nothing else posts one until its id is noted (see
            // `Tables::deliver`).
            let card = matches!(output, Output::Lobby { .. })
                .then(|| data.tables.lobby_card_lock(channel));
            let one_card = match &card {
                Some(card) => Some(card.lock().await),
                None => None,
            };
            let handle = retrying("answer", || ctx.send(reply_of(out.clone(), false))).await?;
            let sent = match output {
                Output::Lobby { .. } => {
                    let posted = retrying("read the answer", || handle.message()).await?;
                    Sent::Lobby(posted.id.get())
                }
                _ => Sent::Answered,
            };
            let face = Discord::new(ctx.serenity_context(), data);
            if let Sent::Lobby(_) = sent {
                data.tables.acknowledge(&face, channel, output, sent).await;
            }
            drop(one_card);
            command_more(ctx, more, false).await;
            if let Output::Channel(_) = output {
                data.tables.acknowledge(&face, channel, output, sent).await;
            }
            Ok(())
        }
        (Answer::Picker { clear }, Asking::Press(ctx, press)) => {
            // The picker's picture (the board with the step's cells) may be behind the drawing
            // queue: past the window the press is deferred and the picker edited once it is drawn.
            let out =
                prepare_in_window(asking, data, message, langs.user, window, deferred).await?;
            if *deferred {
                edit_pressed(ctx, press, "update the picker", out, clear).await
            } else {
                update_picker(ctx, press, out).await
            }
        }
        (Answer::Lobby, Asking::Press(ctx, press)) => {
            let new = matches!(
                output,
                Output::Lobby {
                    message_id: None,
                    ..
                }
            );
            // The new lobby message is the pressed one: remembered before an edit (nothing waits
            // for it), after an answer in time (the window does). The answer takes no lock: it
            // changes the pressed card only, and a card being posted meanwhile is the same one.
            let remember_first = new && *deferred;
            let face = Discord::new(ctx, data);
            let pressed = Sent::Lobby(press.message.id.get());
            if remember_first {
                data.tables
                    .acknowledge(&face, channel, output, pressed)
                    .await;
            }
            let out =
                prepare_in_window(asking, data, message, langs.channel, window, deferred).await?;
            let sent = if *deferred {
                edit_pressed(ctx, press, "update the lobby", out, false).await
            } else {
                let update = serenity::CreateInteractionResponseMessage::new()
                    .content(out.content)
                    .allowed_mentions(serenity::CreateAllowedMentions::new())
                    .components(out.components);
                update_pressed(ctx, press, "update the lobby", update).await
            };
            if sent.is_ok() && new && !remember_first {
                data.tables
                    .acknowledge(&face, channel, output, pressed)
                    .await;
            }
            sent
        }
        // Not planned: a command updates no message, a press answers nothing publicly.
        (Answer::Picker { .. } | Answer::Lobby, Asking::Command(_)) | (Answer::Public, _) => Ok(()),
    }
}

/// Prepares the message that answers a press in place. If it is not ready (its picture still being
/// drawn) when the press's window closes, the press is deferred first (a deferred update: nothing
/// changes on screen yet), and `deferred` set.
async fn prepare_in_window(
    asking: Asking<'_>,
    data: &Data,
    message: &Message,
    lang: Lang,
    window: Window,
    deferred: &mut bool,
) -> Result<Outgoing, serenity::Error> {
    if *deferred {
        return Ok(prepare(data, message, lang).await);
    }
    let (out, ack) = window
        .race(prepare(data, message, lang), asking.defer(Deferral::Update))
        .await;
    match ack {
        Ack::InTime => Ok(out),
        Ack::Deferred => {
            *deferred = true;
            Ok(out)
        }
        Ack::Lost(e) => Err(e),
    }
}

impl Asking<'_> {
    fn discord(&self) -> &serenity::Context {
        match self {
            Asking::Command(ctx) => ctx.serenity_context(),
            Asking::Press(ctx, _) => ctx,
        }
    }

    /// The interaction's token.
    fn token(&self) -> &str {
        match self {
            Asking::Command(poise::Context::Application(app)) => &app.interaction.token,
            Asking::Command(poise::Context::Prefix(_)) => "",
            Asking::Press(_, press) => &press.token,
        }
    }

    fn channel(&self) -> ChannelId {
        match self {
            Asking::Command(ctx) => ChannelId(ctx.channel_id().get()),
            Asking::Press(_, press) => ChannelId(press.channel_id.get()),
        }
    }

    /// Acknowledges the interaction (a command has no message to update: privately then).
    async fn defer(self, deferral: Deferral) -> Result<(), serenity::Error> {
        match (self, deferral) {
            (Asking::Command(ctx), Deferral::Public) => retrying("defer", || ctx.defer()).await,
            (Asking::Command(ctx), _) => retrying("defer", || ctx.defer_ephemeral()).await,
            (Asking::Press(ctx, press), Deferral::Update) => {
                retrying("defer", || press.defer(ctx)).await
            }
            (Asking::Press(ctx, press), _) => {
                retrying("defer", || press.defer_ephemeral(ctx)).await
            }
        }
    }

    /// A private answer: the interaction's response, or (once it is `deferred`) a follow-up, which
    /// fills in a private deferral. The rest of a long text follows; its failures are logged.
    async fn answer_privately(self, out: Outgoing, deferred: bool) -> Result<(), serenity::Error> {
        let more = out.more.clone();
        let sent = match self {
            Asking::Command(ctx) => {
                retrying("answer privately", || ctx.send(reply_of(out.clone(), true)))
                    .await
                    .map(|_| ())
            }
            Asking::Press(ctx, press) if deferred => retrying("answer privately", || {
                press.create_followup(ctx, private_followup(out.clone()))
            })
            .await
            .map(|_| ()),
            Asking::Press(ctx, press) => {
                retrying("answer privately", || {
                    press.create_response(
                        ctx,
                        serenity::CreateInteractionResponse::Message(private_message(out.clone())),
                    )
                })
                .await
            }
        };
        match self {
            Asking::Command(ctx) => command_more(ctx, more, true).await,
            Asking::Press(ctx, press) => press_more(ctx, press, more).await,
        }
        sent
    }

    /// A private message whose failure is only logged.
    async fn say_privately(self, out: Outgoing, deferred: bool) {
        if let Err(e) = self.answer_privately(out, deferred).await {
            tracing::warn!(channel = self.channel().0, "cannot answer privately: {e}");
        }
    }
}

/// A command's answer.
fn reply_of(out: Outgoing, private: bool) -> poise::CreateReply {
    let mut builder = poise::CreateReply::default()
        .content(out.content)
        .ephemeral(private)
        .allowed_mentions(out.mentions)
        .components(out.components);
    for file in out.files {
        builder = builder.attachment(file);
    }
    builder
}

/// The rest of a long answer to a command, as further messages.
async fn command_more(ctx: Context<'_>, more: Vec<String>, private: bool) {
    for chunk in more {
        let builder = poise::CreateReply::default()
            .content(chunk)
            .ephemeral(private)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        if let Err(e) = retrying("answer", || ctx.send(builder.clone())).await {
            tracing::warn!("cannot answer: {e}");
        }
    }
}

/// The rest of a long private answer to a press, as follow-ups.
async fn press_more(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    more: Vec<String>,
) {
    for chunk in more {
        let followup = serenity::CreateInteractionResponseFollowup::new()
            .content(chunk)
            .ephemeral(true)
            .allowed_mentions(serenity::CreateAllowedMentions::new());
        if let Err(e) = retrying("answer privately", || {
            press.create_followup(ctx, followup.clone())
        })
        .await
        {
            tracing::warn!("cannot answer privately: {e}");
        }
    }
}

fn private_message(out: Outgoing) -> serenity::CreateInteractionResponseMessage {
    serenity::CreateInteractionResponseMessage::new()
        .content(out.content)
        .ephemeral(true)
        .allowed_mentions(out.mentions)
        .components(out.components)
        .add_files(out.files)
}

fn private_followup(out: Outgoing) -> serenity::CreateInteractionResponseFollowup {
    serenity::CreateInteractionResponseFollowup::new()
        .content(out.content)
        .ephemeral(true)
        .allowed_mentions(out.mentions)
        .components(out.components)
        .add_files(out.files)
}

/// Updates the pressed picker in place (UPDATE_MESSAGE). Without a new image the body names no
/// attachments, so Discord keeps the hand picture the picker showed (serenity's builder would send an
/// empty list, which removes it).
async fn update_picker(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    out: Outgoing,
) -> Result<(), serenity::Error> {
    if out.files.is_empty() {
        let body = serde_json::json!({
            "type": 7,
            "data": {
                "content": out.content,
                "components": out.components,
                "allowed_mentions": out.mentions,
            },
        });
        return retrying("update the picker", || {
            ctx.http
                .create_interaction_response(press.id, &press.token, &body, Vec::new())
        })
        .await;
    }
    let update = serenity::CreateInteractionResponseMessage::new()
        .content(out.content)
        .allowed_mentions(out.mentions)
        .components(out.components)
        .files(out.files);
    update_pressed(ctx, press, "update the picker", update).await
}

/// Edits the pressed message after a deferral (its answer went out as a deferred update). Without
/// new files the message keeps its pictures, unless `clear` (a picker whose hand is played).
async fn edit_pressed(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    what: &'static str,
    out: Outgoing,
    clear: bool,
) -> Result<(), serenity::Error> {
    let mut edit = serenity::EditInteractionResponse::new()
        .content(out.content)
        .allowed_mentions(serenity::CreateAllowedMentions::new())
        .components(out.components);
    if clear {
        edit = edit.clear_attachments();
    }
    for file in out.files {
        edit = edit.new_attachment(file);
    }
    retrying(what, || press.edit_response(ctx, edit.clone()))
        .await
        .map(|_| ())
}

/// Answers a press by editing the pressed message (UPDATE_MESSAGE), retried like every call.
async fn update_pressed(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    what: &'static str,
    update: serenity::CreateInteractionResponseMessage,
) -> Result<(), serenity::Error> {
    retrying(what, || {
        press.create_response(
            ctx,
            serenity::CreateInteractionResponse::UpdateMessage(update.clone()),
        )
    })
    .await
}

/// A private line in answer to a command that no reply of the service answers (a refusal before
/// the service is asked, the error handler), in the user's language (errors are logged, not
/// returned).
pub(super) async fn say_private(ctx: Context<'_>, text: &Text) {
    let lang = Lang::from_optional(ctx.locale()).unwrap_or_default();
    let reply = poise::CreateReply::default()
        .content(clip(text.render(lang)))
        .ephemeral(true)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    if let Err(e) = retrying("answer privately", || ctx.send(reply.clone())).await {
        tracing::warn!("cannot answer privately: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ephemeral(text: Text) -> Output {
        Output::Ephemeral(Message::text(text))
    }

    const COMMAND: Asked = Asked {
        pressed: None,
        changes_table: false,
        searches: false,
        waits_privately: false,
        opens_lobby: false,
    };

    fn press(pressed: u64) -> Asked {
        Asked {
            pressed: Some(pressed),
            ..Asked::default()
        }
    }

    /// The output that answers, and how.
    fn answers(asked: Asked, stage: Stage, outputs: &[Output]) -> Option<(usize, Answer)> {
        plan(asked, stage, outputs)
            .steps
            .into_iter()
            .find_map(|(i, route)| match route {
                Route::Answer(how) => Some((i, how)),
                _ => None,
            })
    }

    #[test]
    fn the_right_output_answers_the_interaction() {
        let lobby_edit = Output::Lobby {
            message_id: Some(5),
            message: Message::text(Text::Joined),
        };
        let new_lobby = Output::Lobby {
            message_id: None,
            message: Message::text(Text::Joined),
        };
        let board = Output::Channel(Message::text(Text::Reshuffled));
        let open = Stage::Open;
        // Join by command: the confirmation answers; by button: the lobby message is updated.
        let join = vec![lobby_edit.clone(), ephemeral(Text::Joined)];
        assert_eq!(answers(COMMAND, open, &join), Some((1, Answer::Private)));
        assert_eq!(answers(press(5), open, &join), Some((0, Answer::Lobby)));
        let other = plan(press(6), open, &join);
        assert_eq!(other.otherwise, Otherwise::Acknowledge);
        assert_eq!(other.steps, vec![(0, Route::Post), (1, Route::Skip)]);
        // Start: the new lobby message is the public answer.
        let start = vec![new_lobby, ephemeral(Text::LobbyOpened)];
        assert_eq!(answers(COMMAND, open, &start), Some((0, Answer::Public)));
        // A move: the board post answers.
        let play = vec![board.clone(), ephemeral(Text::BegunAck)];
        assert_eq!(answers(COMMAND, open, &play), Some((0, Answer::Public)));
        // Private content wins over public posts.
        let hand = vec![board, ephemeral(Text::NoBot)];
        assert_eq!(answers(COMMAND, open, &hand), Some((1, Answer::Private)));
        assert_eq!(answers(press(1), open, &hand), Some((1, Answer::Private)));
        // In time, the answer goes first.
        assert_eq!(
            plan(COMMAND, open, &hand).steps,
            vec![(1, Route::Answer(Answer::Private)), (0, Route::Post)]
        );
    }

    #[test]
    fn acknowledged_first_where_the_service_must_not_act_unacknowledged() {
        let changes = Asked {
            changes_table: true,
            ..COMMAND
        };
        assert_eq!(
            changes.acknowledgement(),
            Acknowledgement::First(Deferral::Private)
        );
        assert_eq!(
            COMMAND.acknowledgement(),
            Acknowledgement::WhenLate(Deferral::Private)
        );
        assert_eq!(
            press(1).acknowledgement(),
            Acknowledgement::WhenLate(Deferral::Update)
        );
        let move_made = Asked {
            changes_table: true,
            ..press(1)
        };
        assert_eq!(
            move_made.acknowledgement(),
            Acknowledgement::First(Deferral::Update)
        );
        let hint = Asked {
            searches: true,
            waits_privately: true,
            ..press(1)
        };
        assert_eq!(
            hint.acknowledgement(),
            Acknowledgement::First(Deferral::Private)
        );
    }

    #[test]
    fn a_deferred_answer_fills_in_or_edits_in_the_replys_order() {
        let board = Output::Channel(Message::text(Text::Reshuffled));
        let done = Output::Update(Message::text(Text::PickerDone));
        // A move by the picker: the board is posted before the picker says the move is made, and
        // the played picker loses its hand picture.
        let move_made = Asked {
            changes_table: true,
            ..press(9)
        };
        let moved = vec![board.clone(), done];
        let deferred = Stage::Deferred(Deferral::Update);
        let plan_moved = plan(move_made, deferred, &moved);
        assert_eq!(
            plan_moved.steps,
            vec![
                (0, Route::Post),
                (1, Route::Answer(Answer::Picker { clear: true }))
            ]
        );
        assert_eq!(plan_moved.otherwise, Otherwise::Nothing);
        // A rematch's lobby is a new message, never the pressed one.
        let rematch = Asked {
            opens_lobby: true,
            changes_table: true,
            ..press(9)
        };
        let lobby = vec![Output::Lobby {
            message_id: None,
            message: Message::text(Text::Joined),
        }];
        assert_eq!(
            plan(rematch, deferred, &lobby).steps,
            vec![(0, Route::Post)]
        );
        // A command acknowledged privately: the private answer fills it in first; with only public
        // posts, a plain "done" does.
        let private = Stage::Deferred(Deferral::Private);
        let play = vec![board.clone(), ephemeral(Text::BegunAck)];
        assert_eq!(
            plan(COMMAND, private, &play).steps,
            vec![(1, Route::Answer(Answer::Private)), (0, Route::Post)]
        );
        // A lobby command (`/sequence join`): the card is edited before "you joined" fills the
        // "thinking…" in.
        let lobby_edit = Output::Lobby {
            message_id: Some(5),
            message: Message::text(Text::Joined),
        };
        let joined = vec![ephemeral(Text::Joined), lobby_edit];
        assert_eq!(
            plan(COMMAND, private, &joined).steps,
            vec![(1, Route::Post), (0, Route::Answer(Answer::Private))]
        );
        let posted = plan(COMMAND, private, std::slice::from_ref(&board));
        assert_eq!(posted.otherwise, Otherwise::Say(Text::Done));
        assert_eq!(posted.steps, vec![(0, Route::Post)]);
        // Nothing to answer in time: a command says so.
        assert_eq!(
            plan(COMMAND, Stage::Open, &[]).otherwise,
            Otherwise::Say(Text::Internal)
        );
    }

    #[test]
    fn pictures_are_deferred_or_raced_before_they_are_drawn() {
        let with_picture = |output: fn(Message) -> Output| {
            let mut message = Message::text(Text::Reshuffled);
            let config = crate::engine::Config::new(
                crate::engine::Variant::Classic,
                2,
                None,
                crate::engine::Options::default(),
            )
            .expect("a classic game of two");
            let game = crate::engine::Game::new(config, 1);
            message.image = Some(crate::service::Image::Replay(crate::service::ReplayImage {
                record: crate::engine::Record::start_of(&game),
                slot: None,
            }));
            vec![output(message)]
        };
        let open = Stage::Open;
        assert_eq!(
            plan(COMMAND, open, &with_picture(Output::Channel)).drawing,
            Drawing::DeferFirst(Deferral::Public)
        );
        assert_eq!(
            plan(COMMAND, open, &with_picture(Output::Ephemeral)).drawing,
            Drawing::DeferFirst(Deferral::Private)
        );
        assert_eq!(
            plan(press(1), open, &with_picture(Output::Ephemeral)).drawing,
            Drawing::DeferFirst(Deferral::Private)
        );
        assert_eq!(
            plan(press(1), open, &with_picture(Output::Update)).drawing,
            Drawing::Race(Deferral::Update)
        );
        assert_eq!(
            plan(press(1), open, &[ephemeral(Text::NoBot)]).drawing,
            Drawing::Now
        );
        assert_eq!(
            plan(
                press(1),
                Stage::Deferred(Deferral::Update),
                &with_picture(Output::Update)
            )
            .drawing,
            Drawing::Now
        );
    }
}
