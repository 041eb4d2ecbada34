//! The stand-in's Activity: what a bot with an Activity asks Discord, modelled as Discord answers it.
//!
//! * The OAuth2 token endpoint (`POST /oauth2/token`, a form; not in Discord's OpenAPI description, so
//!   not checked against it): a code made by [`FakeDiscord::oauth_code`] for a user is exchanged once,
//!   within 5 minutes on the stand-in's clock, by the application it was made for, with its client
//!   secret ([`FakeDiscord::client_secret`]). A wrong client id or secret: 401 `invalid_client`; an
//!   unknown, used, expired or other application's code: 400 `invalid_grant`; another grant type:
//!   400 `unsupported_grant_type`. The answer: `{access_token, token_type: "Bearer", expires_in,
//!   refresh_token, scope: "identify"}`.
//! * `GET /users/@me` with `Authorization: Bearer <access token>`: the user the token was issued to
//!   (with their locale), whichever application it was issued to (as Discord answers); an unknown
//!   token 401. `GET /oauth2/@me` (Get Current Authorization Information): `{application: {id, name},
//!   scopes, expires, user}`, the application the token was issued to
//!   ([`FakeDiscord::access_token_for`] makes one of another application); an unknown token 401.
//! * `GET /applications/{app}/activity-instances/{instance}` (the bot's token): the instances a test
//!   made ([`FakeDiscord::add_activity_instance`]), with their channel (`gc` with its server, or `pc`
//!   in a DM or group DM) and users; an unknown one 404. An instance may run where the bot is no
//!   member (a group DM, a server made with `add_guild_without_bot`): there, as Discord does, the
//!   bot's channel posts are refused (403 50001) and so is its `GET /guilds/{id}` (403), and the bot
//!   speaks only through interaction tokens, a `LAUNCH_ACTIVITY` answer's too (its follow-ups are
//!   taken, as after any first answer).
//! * Callback type 12 (`LAUNCH_ACTIVITY`) is accepted on an application command or a component
//!   interaction while the app has Activities ([`FakeDiscord::enable_activities`]), and recorded as the
//!   interaction's callback; refused (40043) on autocomplete and modal submits, and (50035) without
//!   Activities.
//! * Commands: one global `PRIMARY_ENTRY_POINT` (type 4) at most, none in a guild, `handler` only on
//!   it; turning Activities on creates Discord's default entry point ("launch", handler 2), and from
//!   then on a bulk overwrite of the global commands that leaves it out is refused whole with 50240.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{FakeDiscord, FakeUser, State};

/// How long a code may wait for its exchange (Discord's are short-lived; 10 minutes at most).
pub const CODE_LIFETIME: Duration = Duration::from_secs(5 * 60);

/// Discord's answer to a bulk overwrite that drops the entry point.
pub const ENTRY_POINT_DROPPED: &str = "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.";

/// One authorization code.
#[derive(Clone, Debug)]
struct Code {
    user: u64,
    application: u64,
    issued: Instant,
    used: bool,
}

/// An instance of the Activity.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The channel it runs in.
    pub channel_id: u64,
    /// Its server (none in a DM or group DM).
    pub guild_id: Option<u64>,
    /// The users in it.
    pub users: Vec<u64>,
    /// Its launch id.
    pub launch_id: u64,
}

/// What the stand-in keeps of the Activity.
#[derive(Debug, Default)]
pub struct ActivityState {
    /// Whether the app has Activities enabled (the portal's switch).
    pub enabled: bool,
    codes: HashMap<String, Code>,
    /// Access tokens issued, and their users.
    /// Access tokens: their user and the application they were issued to.
    pub access_tokens: HashMap<String, (u64, u64)>,
    /// Instances by id.
    pub instances: HashMap<String, Instance>,
    /// Exchanges asked, and how each went (the status).
    pub exchanges: Vec<u16>,
}

/// The OAuth2 error body Discord sends.
fn oauth_error(status: u16, error: &str, description: &str) -> (u16, Value) {
    (
        status,
        json!({"error": error, "error_description": description}),
    )
}

/// `POST /oauth2/token` with its form (as a JSON object of strings).
pub(super) fn token_endpoint(state: &mut State, form: &Value) -> (u16, Value) {
    let field = |name: &str| form[name].as_str().unwrap_or("").to_string();
    let app = state.config.application_id.to_string();
    let answer =
        if field("client_id") != app || field("client_secret") != state.config.client_secret {
            oauth_error(
                401,
                "invalid_client",
                "Unknown client or wrong client secret.",
            )
        } else if field("grant_type") != "authorization_code" {
            oauth_error(400, "unsupported_grant_type", "Unsupported grant type.")
        } else {
            let now = state.clock();
            let application = state.config.application_id;
            let code = field("code");
            match state.activity.codes.get_mut(&code) {
                Some(c)
                    if !c.used
                        && c.application == application
                        && now.saturating_duration_since(c.issued) <= CODE_LIFETIME =>
                {
                    c.used = true;
                    let user = c.user;
                    let token = format!("fake-access-{}", state.snowflake());
                    state
                        .activity
                        .access_tokens
                        .insert(token.clone(), (user, application));
                    (
                        200,
                        json!({
                            "access_token": token,
                            "token_type": "Bearer",
                            "expires_in": 604800,
                            "refresh_token": format!("fake-refresh-{}", state.snowflake()),
                            "scope": "identify",
                        }),
                    )
                }
                Some(c) => {
                    // Discord revokes what a replayed code gave; a used code stays refused.
                    c.used = true;
                    oauth_error(400, "invalid_grant", "Invalid \"code\" in request.")
                }
                None => oauth_error(400, "invalid_grant", "Invalid \"code\" in request."),
            }
        };
    state.activity.exchanges.push(answer.0);
    answer
}

/// `GET /users/@me` with a Bearer token.
pub(super) fn bearer_me(state: &State, token: &str) -> (u16, Value) {
    match state
        .activity
        .access_tokens
        .get(token)
        .and_then(|(id, _)| state.users.get(id))
    {
        Some(user) => {
            let mut json = user.json();
            json["locale"] = json!(user.locale);
            json["mfa_enabled"] = json!(false);
            (200, json)
        }
        None => (401, json!({"message": "401: Unauthorized", "code": 0})),
    }
}

/// `GET /oauth2/@me` with a Bearer token: the authorization behind it.
pub(super) fn bearer_authorization(state: &State, token: &str) -> (u16, Value) {
    let Some(&(id, application)) = state.activity.access_tokens.get(token) else {
        return (401, json!({"message": "401: Unauthorized", "code": 0}));
    };
    let Some(user) = state.users.get(&id) else {
        return (401, json!({"message": "401: Unauthorized", "code": 0}));
    };
    // The application the token was issued to: ours as `GET /applications/@me` describes it, or
    // another one.
    let mut the_application = super::rest::application_info(state);
    if application != state.config.application_id {
        the_application["id"] = json!(application.to_string());
        the_application["name"] = json!("Another app");
    }
    (
        200,
        json!({
            "application": the_application,
            "scopes": ["identify"],
            "expires": "2099-01-01T00:00:00+00:00",
            "user": user.json(),
        }),
    )
}

/// `GET /applications/{app}/activity-instances/{id}` (the bot's token).
pub(super) fn instance(state: &State, id: &str) -> (u16, Value) {
    let Some(instance) = state.activity.instances.get(id) else {
        return (404, json!({"message": "404: Not Found", "code": 0}));
    };
    let location = match instance.guild_id {
        Some(guild) => json!({
            "id": format!("gc-{guild}-{}", instance.channel_id),
            "kind": "gc",
            "channel_id": instance.channel_id.to_string(),
            "guild_id": guild.to_string(),
        }),
        None => json!({
            "id": format!("pc-{}", instance.channel_id),
            "kind": "pc",
            "channel_id": instance.channel_id.to_string(),
        }),
    };
    (
        200,
        json!({
            "application_id": state.config.application_id.to_string(),
            "instance_id": id,
            "launch_id": instance.launch_id.to_string(),
            "location": location,
            "users": instance.users.iter().map(u64::to_string).collect::<Vec<_>>(),
        }),
    )
}

/// The entry point rules of a command registration (`list`, to the guild or globally): `Err` is
/// Discord's refusal (status, code, message).
pub(super) fn check_entry_point(
    state: &State,
    list: &[Value],
    guild: Option<u64>,
) -> Result<(), (u16, u64, String)> {
    let entry_points = list.iter().filter(|c| c["type"] == 4).count();
    let form = |message: &str| (400, 50035, message.to_string());
    if guild.is_some() && entry_points > 0 {
        return Err(form("An Entry Point command cannot be a guild command"));
    }
    if entry_points > 1 {
        return Err(form("An app can have only one Entry Point command"));
    }
    if list
        .iter()
        .any(|c| c["type"] != 4 && !c["handler"].is_null())
    {
        return Err(form("handler may only be set on an Entry Point command"));
    }
    if entry_points == 1 && !state.activity.enabled {
        return Err(form(
            "An Entry Point command needs an app with Activities enabled",
        ));
    }
    let had_one = state.global_commands.iter().any(|c| c["type"] == 4);
    if guild.is_none() && state.activity.enabled && had_one && entry_points == 0 {
        return Err((400, 50240, ENTRY_POINT_DROPPED.to_string()));
    }
    Ok(())
}

impl FakeDiscord {
    /// Turns Activities on for the app, as the developer portal does: Discord then makes its default
    /// entry point command ("launch", handled by Discord), unless the app has one.
    pub fn enable_activities(&self) {
        let mut state = self.state();
        state.activity.enabled = true;
        if !state.global_commands.iter().any(|c| c["type"] == 4) {
            let id = state.snowflake();
            let version = state.snowflake();
            let app = state.config.application_id.to_string();
            state.global_commands.push(json!({
                "id": id.to_string(),
                "application_id": app,
                "version": version.to_string(),
                "type": 4,
                "name": "launch",
                "description": "Launch an activity",
                "handler": 2,
                "default_member_permissions": null,
                "name_localizations": null,
                "description_localizations": null,
                "nsfw": false,
                "integration_types": [0, 1],
                "contexts": [0, 1, 2],
                "options": [],
            }));
        }
    }

    /// The application's client secret, as the bot's `[activity] client_secret` must say.
    pub fn client_secret(&self) -> String {
        self.state().config.client_secret.clone()
    }

    /// An authorization code for `user`, as the SDK's `authorize` gives the page: valid once, for
    /// [`CODE_LIFETIME`] on the stand-in's clock, for this application.
    pub fn oauth_code(&self, user: &FakeUser) -> String {
        let application = self.application_id();
        self.oauth_code_for(user, application)
    }

    /// An authorization code for `user` made for another application (`application`).
    pub fn oauth_code_for(&self, user: &FakeUser, application: u64) -> String {
        let mut state = self.state();
        let code = format!("fake-code-{}", state.snowflake());
        let issued = state.clock();
        state.activity.codes.insert(
            code.clone(),
            Code {
                user: user.id,
                application,
                issued,
                used: false,
            },
        );
        code
    }

    /// An access token of `user` as if a code had been exchanged (for tests that skip the exchange).
    pub fn access_token(&self, user: &FakeUser) -> String {
        let application = self.application_id();
        self.access_token_for(user, application)
    }

    /// An access token of `user` issued to another application (`application`).
    pub fn access_token_for(&self, user: &FakeUser, application: u64) -> String {
        let mut state = self.state();
        let token = format!("fake-access-{}", state.snowflake());
        state
            .activity
            .access_tokens
            .insert(token.clone(), (user.id, application));
        token
    }

    /// Starts an instance of the Activity in `channel_id` with `users` in it (as after a launch): its
    /// id, for the page's `instance_id`. Its server is the channel's (none in a DM or group DM).
    pub fn add_activity_instance(&self, channel_id: u64, users: &[&FakeUser]) -> String {
        let mut state = self.state();
        let private = state
            .channel_json(channel_id)
            .is_some_and(|c| matches!(c["type"].as_u64(), Some(1 | 3)));
        let guild_id = (!private).then(|| state.guild_of(channel_id));
        let launch_id = state.snowflake();
        let id = format!(
            "i-{}-{}",
            state.snowflake(),
            if private { "pc" } else { "gc" }
        );
        state.activity.instances.insert(
            id.clone(),
            Instance {
                channel_id,
                guild_id,
                users: users.iter().map(|u| u.id).collect(),
                launch_id,
            },
        );
        id
    }

    /// Sets who is in instance `id` now (someone joined or left).
    pub fn set_instance_users(&self, id: &str, users: &[&FakeUser]) {
        if let Some(instance) = self.state().activity.instances.get_mut(id) {
            instance.users = users.iter().map(|u| u.id).collect();
        }
    }

    /// Ends instance `id` (everyone left): Discord then answers 404 for it.
    pub fn end_activity_instance(&self, id: &str) {
        self.state().activity.instances.remove(id);
    }

    /// The interactions answered with `LAUNCH_ACTIVITY` (callback type 12), in no particular order.
    pub fn launched_activities(&self) -> Vec<u64> {
        self.state()
            .interactions
            .values()
            .filter(|i| i.callback.as_ref().is_some_and(|c| c.kind == 12))
            .map(|i| i.id)
            .collect()
    }

    /// Sets the handler of the app's entry point command (1 `APP_HANDLER`: the app answers its use; 2
    /// `DISCORD_LAUNCH_ACTIVITY`), as the portal or another tool may have registered it.
    pub fn set_entry_point_handler(&self, handler: u8) {
        let mut state = self.state();
        for command in state.global_commands.iter_mut().filter(|c| c["type"] == 4) {
            command["handler"] = json!(handler);
        }
    }

    /// `user` opens the app's entry point (the App Launcher's *Launch*) in `channel_id`: with handler
    /// 2 Discord launches the Activity itself and nothing reaches the bot (`Ok(None)`); with handler 1
    /// the bot gets an application command interaction of type 4 to answer. An error if the app has
    /// no entry point.
    pub fn use_entry_point(
        &self,
        user: &FakeUser,
        channel_id: u64,
    ) -> Result<Option<super::Interaction>, String> {
        let entry = self
            .state()
            .global_commands
            .iter()
            .find(|c| c["type"] == 4)
            .cloned()
            .ok_or("the app has no entry point command")?;
        if entry["handler"] == 2 {
            return Ok(None);
        }
        let data = json!({
            "id": entry["id"].clone(),
            "name": entry["name"].clone(),
            "type": 4,
        });
        self.raw_command(user, channel_id, data).map(Some)
    }

    /// The statuses of the code exchanges asked so far, in order.
    pub fn code_exchanges(&self) -> Vec<u16> {
        self.state().activity.exchanges.clone()
    }
}
