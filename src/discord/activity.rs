//! Discord's side of the Activity (the board as a page inside Discord): what the web face's sign-in
//! asks Discord ([`ActivityDiscord`], provided once the bot knows its application), the **Open the
//! board** press answered with `LAUNCH_ACTIVITY` at once, and the app's entry point command kept in
//! the global commands' bulk overwrite.
//!
//! The three requests go through the same HTTP client settings as the rest of the bot (`[network]`:
//! a proxy, extra roots), with short timeouts, since the page waits on them:
//! - the code exchange at the OAuth2 token endpoint (`POST /oauth2/token`, form: `client_id`,
//!   `client_secret`, `grant_type=authorization_code`, `code`), with the application's client secret;
//! - the user of an access token (`GET /oauth2/@me`: the token must have been issued to this
//!   application, with `identify`; then `GET /users/@me` for the name and locale, `Authorization:
//!   Bearer …`);
//! - an instance of the Activity (`GET /applications/{app}/activity-instances/{id}`, the bot token),
//!   and what kind of place it runs in ([`ActivityInstance::venue`]): its location's kind `pc` (a DM
//!   or a group DM: the bot may only answer there), or `gc` in a server, which is a place where the
//!   bot posts only if it is a member of that server (the cache knows the servers of this process's
//!   shards; for any other the bot asks Discord once, `GET /guilds/{id}`: 403 or 404 where it is
//!   none).
//!
//! Discord's refusals become [`ActivityError`]s; no secret, code or token is ever put in one, nor in
//! a log line (the reqwest errors are taken without their URL, and the URLs hold none anyway).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serde::Deserialize;

use crate::app::activity::{
    ActivityDiscord, ActivityError, ActivityInstance, ActivityUser, Asking,
};
use crate::app::config::Network;
use crate::app::error::StartError;
use crate::service::Venue;

/// Where Discord's REST API is.
pub const DISCORD_API: &str = "https://discord.com/api/v10";

/// How long one request to Discord may take in all (the page waits on it).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// The longest code, token or instance id sent on (Discord's are far shorter): anything longer is
/// refused without asking.
const MAX_CREDENTIAL: usize = 512;

/// The name of the entry point command the bot registers when there is none (Discord's own default
/// is "Launch", made when Activities are turned on in the developer portal).
pub const ENTRY_POINT_NAME: &str = "launch";

/// Discord's part of the Activity's sign-in, asked over HTTPS.
pub struct DiscordActivity {
    application_id: u64,
    client_secret: String,
    bot_token: String,
    client: reqwest::Client,
    api: String,
    /// The gateway's cache (the servers the bot is a member of, on this process's shards).
    cache: Option<Arc<serenity::Cache>>,
}

impl fmt::Debug for DiscordActivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DiscordActivity")
            .field("application_id", &self.application_id)
            .field("client_secret", &"[hidden]")
            .field("bot_token", &"[hidden]")
            .field("api", &self.api)
            .finish()
    }
}

impl DiscordActivity {
    /// Asks Discord at `api` (normally [`DISCORD_API`]) through `client` for `application_id`, with its
    /// client secret and the bot's token (`Bot ` prefix optional).
    pub fn new(
        application_id: u64,
        client_secret: &str,
        bot_token: &str,
        client: reqwest::Client,
        api: &str,
    ) -> DiscordActivity {
        DiscordActivity {
            application_id,
            client_secret: client_secret.trim().to_string(),
            bot_token: bot_token.trim().trim_start_matches("Bot ").to_string(),
            client,
            api: api.trim_end_matches('/').to_string(),
            cache: None,
        }
    }

    /// The same, telling from the gateway's `cache` first whether the bot is a member of a server
    /// an instance runs in (without it, or for a server the cache does not hold, Discord is asked).
    pub fn with_cache(mut self, cache: Arc<serenity::Cache>) -> DiscordActivity {
        self.cache = Some(cache);
        self
    }

    /// Whether the bot is a member of server `guild`: in the cache (available or not yet), else as
    /// Discord answers `GET /guilds/{id}` with the bot's token (403 Missing Access or 404 where it is
    /// none).
    async fn is_member(&self, guild: u64) -> Result<bool, ActivityError> {
        let Some(id) = std::num::NonZeroU64::new(guild).map(serenity::GuildId::from) else {
            return Ok(false);
        };
        if let Some(cache) = &self.cache {
            if cache.guild(id).is_some() || cache.unavailable_guilds().get(&id).is_some() {
                return Ok(true);
            }
        }
        let response = self
            .client
            .get(format!("{}/guilds/{guild}", self.api))
            .header("authorization", format!("Bot {}", self.bot_token))
            .send()
            .await
            .map_err(unreachable)?;
        match response.status().as_u16() {
            200 => Ok(true),
            403 | 404 => Ok(false),
            401 => Err(ActivityError::Unavailable(
                "guilds refused the bot's token".into(),
            )),
            status => Err(ActivityError::Unavailable(format!(
                "guilds answered {status}"
            ))),
        }
    }

    async fn exchange(&self, code: &str) -> Result<String, ActivityError> {
        if !is_credential(code) {
            return Err(ActivityError::BadCode);
        }
        let form = [
            ("client_id", self.application_id.to_string()),
            ("client_secret", self.client_secret.clone()),
            ("grant_type", "authorization_code".to_string()),
            ("code", code.to_string()),
        ];
        let response = self
            .client
            .post(format!("{}/oauth2/token", self.api))
            .form(&form)
            .send()
            .await
            .map_err(unreachable)?;
        let status = response.status().as_u16();
        match status {
            200 => {
                #[derive(Deserialize)]
                struct Token {
                    access_token: String,
                }
                let token: Token = read(response, "the token endpoint").await?;
                if is_credential(&token.access_token) {
                    Ok(token.access_token)
                } else {
                    Err(ActivityError::Unavailable(
                        "the token endpoint answered without a usable access token".into(),
                    ))
                }
            }
            // `invalid_grant`: unknown, used or expired, or made for another application.
            400 => {
                let reason = oauth_error(response).await;
                match reason.as_str() {
                    "invalid_grant" => Err(ActivityError::BadCode),
                    _ => Err(ActivityError::Unavailable(format!(
                        "the token endpoint refused the exchange: 400 {reason}"
                    ))),
                }
            }
            // `invalid_client`: the client secret (or id) is wrong: the operator's to fix.
            401 => Err(ActivityError::Unavailable(format!(
                "the token endpoint refused the client ({}): check [activity] client_secret (or DISCORD_CLIENT_SECRET) against the developer portal",
                oauth_error(response).await
            ))),
            _ => Err(ActivityError::Unavailable(format!(
                "the token endpoint answered {status}"
            ))),
        }
    }

    async fn me(&self, access_token: &str) -> Result<ActivityUser, ActivityError> {
        if !is_credential(access_token) {
            return Err(ActivityError::BadToken);
        }
        // `users/@me` answers for a token of any application: the token must be ours first.
        let authorized = self.authorized_user(access_token).await?;
        #[derive(Deserialize)]
        struct Me {
            id: String,
            username: String,
            #[serde(default)]
            global_name: Option<String>,
            #[serde(default)]
            locale: Option<String>,
        }
        let me: Me = self.as_user("users/@me", access_token).await?;
        let id = me.id.parse::<u64>().map_err(|_| {
            ActivityError::Unavailable("users/@me answered a user id that is no id".into())
        })?;
        if id != authorized {
            return Err(ActivityError::BadToken);
        }
        let name = me
            .global_name
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .unwrap_or(me.username);
        Ok(ActivityUser {
            id,
            name,
            locale: me.locale.filter(|l| !l.trim().is_empty()),
        })
    }

    /// The user an access token was issued to by this application (`GET /oauth2/@me`, "Get Current
    /// Authorization Information": the token's application and, with the `identify` scope, its
    /// user). A token issued to another application, or without `identify`, is refused as a bad
    /// token.
    async fn authorized_user(&self, access_token: &str) -> Result<u64, ActivityError> {
        #[derive(Deserialize)]
        struct Id {
            id: String,
        }
        #[derive(Deserialize)]
        struct Authorization {
            application: Id,
            #[serde(default)]
            user: Option<Id>,
        }
        let found: Authorization = self.as_user("oauth2/@me", access_token).await?;
        if found.application.id.parse::<u64>().ok() != Some(self.application_id) {
            tracing::info!("an Activity sign-in brought a token of another application");
            return Err(ActivityError::BadToken);
        }
        found
            .user
            .and_then(|u| u.id.parse::<u64>().ok())
            .ok_or(ActivityError::BadToken)
    }

    /// `GET {route}` (under the API, no leading slash) with a user's access token: its JSON on 200;
    /// 401 or 403 a bad token; any other answer Discord being unavailable.
    async fn as_user<T: serde::de::DeserializeOwned>(
        &self,
        route: &str,
        access_token: &str,
    ) -> Result<T, ActivityError> {
        let response = self
            .client
            .get(format!("{}/{route}", self.api))
            .bearer_auth(access_token)
            .send()
            .await
            .map_err(unreachable)?;
        match response.status().as_u16() {
            200 => read(response, route).await,
            401 | 403 => Err(ActivityError::BadToken),
            status => Err(ActivityError::Unavailable(format!(
                "{route} answered {status}"
            ))),
        }
    }

    async fn find_instance(&self, instance_id: &str) -> Result<ActivityInstance, ActivityError> {
        if !is_instance_id(instance_id) {
            return Err(ActivityError::NoInstance);
        }
        let response = self
            .client
            .get(format!(
                "{}/applications/{}/activity-instances/{instance_id}",
                self.api, self.application_id
            ))
            .header("authorization", format!("Bot {}", self.bot_token))
            .send()
            .await
            .map_err(unreachable)?;
        match response.status().as_u16() {
            200 => {
                #[derive(Deserialize)]
                struct Location {
                    #[serde(default)]
                    kind: Option<String>,
                    channel_id: String,
                    #[serde(default)]
                    guild_id: Option<String>,
                }
                #[derive(Deserialize)]
                struct Instance {
                    application_id: String,
                    location: Location,
                    users: Vec<String>,
                }
                let instance: Instance = read(response, "activity-instances").await?;
                let bad = |what: &str| {
                    ActivityError::Unavailable(format!(
                        "activity-instances answered {what} that is no id"
                    ))
                };
                if instance.application_id.parse::<u64>().ok() != Some(self.application_id) {
                    return Err(ActivityError::NoInstance);
                }
                let channel = instance
                    .location
                    .channel_id
                    .parse::<u64>()
                    .map_err(|_| bad("a channel"))?;
                let guild = match instance.location.guild_id.filter(|g| !g.is_empty()) {
                    Some(guild) => Some(guild.parse::<u64>().map_err(|_| bad("a server"))?),
                    None => None,
                };
                let users = instance
                    .users
                    .iter()
                    .map(|u| u.parse::<u64>().map_err(|_| bad("a user")))
                    .collect::<Result<Vec<u64>, _>>()?;
                // `pc`: a private channel (a DM or a group DM); `gc`: a server's channel.
                let venue = match (instance.location.kind.as_deref(), guild) {
                    (Some("pc"), _) | (_, None) => Venue::GroupDm,
                    (_, Some(guild)) if self.is_member(guild).await? => Venue::Server,
                    // Discord launched it there, so the server lets its members' apps be used.
                    (_, Some(_)) => Venue::ServerWithoutBot {
                        external_apps: true,
                    },
                };
                Ok(ActivityInstance {
                    channel,
                    guild,
                    users,
                    venue,
                })
            }
            404 => Err(ActivityError::NoInstance),
            401 => Err(ActivityError::Unavailable(
                "activity-instances refused the bot's token".into(),
            )),
            status => Err(ActivityError::Unavailable(format!(
                "activity-instances answered {status}"
            ))),
        }
    }
}

impl ActivityDiscord for DiscordActivity {
    fn application_id(&self) -> u64 {
        self.application_id
    }

    fn exchange_code<'a>(&'a self, code: &'a str) -> Asking<'a, String> {
        Box::pin(self.exchange(code))
    }

    fn user<'a>(&'a self, access_token: &'a str) -> Asking<'a, ActivityUser> {
        Box::pin(self.me(access_token))
    }

    fn instance<'a>(&'a self, instance_id: &'a str) -> Asking<'a, ActivityInstance> {
        Box::pin(self.find_instance(instance_id))
    }
}

/// Whether `text` may be a code or token: printable ASCII without spaces, of a sane length.
fn is_credential(text: &str) -> bool {
    !text.is_empty() && text.len() <= MAX_CREDENTIAL && text.bytes().all(|b| b.is_ascii_graphic())
}

/// Whether `text` may be an instance id (safe in a path: letters, digits, `-`, `_`, `.`, `:`).
fn is_instance_id(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 128
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

/// A request that got no answer, said without its URL.
fn unreachable(error: reqwest::Error) -> ActivityError {
    let kind = if error.is_timeout() {
        "no answer in time"
    } else if error.is_connect() {
        "cannot connect"
    } else {
        "the request failed"
    };
    ActivityError::Unavailable(format!("Discord: {kind}: {}", error.without_url()))
}

/// The JSON body of a 200 answer.
async fn read<T: serde::de::DeserializeOwned>(
    response: reqwest::Response,
    what: &str,
) -> Result<T, ActivityError> {
    let bytes = response
        .bytes()
        .await
        .map_err(|e| ActivityError::Unavailable(format!("{what}: {}", e.without_url())))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| ActivityError::Unavailable(format!("{what} answered unreadable JSON: {e}")))
}

/// The OAuth2 error name of a refusal (`invalid_grant`, `invalid_client`, …), never its other text.
async fn oauth_error(response: reqwest::Response) -> String {
    #[derive(Deserialize)]
    struct Refusal {
        error: String,
    }
    let bytes = response.bytes().await.unwrap_or_default();
    serde_json::from_slice::<Refusal>(&bytes)
        .ok()
        .map(|r| r.error)
        .filter(|e| e.len() <= 40 && e.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
        .unwrap_or_else(|| "no OAuth2 error name".into())
}

/// The HTTP client of the Activity's requests: `[network]`'s proxy and roots, short timeouts.
pub fn http_client(network: &Network) -> Result<reqwest::Client, StartError> {
    super::client_builder(network)?
        .timeout(REQUEST_TIMEOUT)
        .connect_timeout(CONNECT_TIMEOUT)
        .build()
        .map_err(|e| StartError::Config(format!("network: {e}")))
}

/// Makes the Discord face the one the Activity's pages ask ([`crate::app::activity::provide`]), for
/// `application_id`, when a client secret is configured (`cache`: the gateway's, which knows the
/// servers the bot is a member of).
pub fn provide(
    application_id: u64,
    client_secret: Option<&str>,
    bot_token: &str,
    client: reqwest::Client,
    cache: Arc<serenity::Cache>,
) {
    let Some(secret) = client_secret else {
        return;
    };
    crate::app::activity::provide(Arc::new(
        DiscordActivity::new(application_id, secret, bot_token, client, DISCORD_API)
            .with_cache(cache),
    ));
    tracing::info!(
        application = application_id,
        "the Activity's sign-in is on (its pages may ask Discord now)"
    );
}

/// The global commands to register: the bot's own `commands`, and an entry point command (type 4,
/// `PRIMARY_ENTRY_POINT`): the one registered now (`existing`), kept as it is, since Discord refuses a
/// bulk overwrite without it (50240) once the app has one; else, with the Activity on (`activity`),
/// a new one that Discord handles itself (`DISCORD_LAUNCH_ACTIVITY`: no interaction for the bot).
pub fn with_entry_point(
    mut commands: Vec<serenity::CreateCommand>,
    existing: &[serenity::Command],
    activity: bool,
) -> Vec<serenity::CreateCommand> {
    let kept = existing
        .iter()
        .find(|c| c.kind == serenity::CommandType::PrimaryEntryPoint);
    let entry = match kept {
        Some(command) => {
            let mut entry = serenity::CreateCommand::new(command.name.clone())
                .kind(serenity::CommandType::PrimaryEntryPoint)
                .description(command.description.clone())
                .handler(
                    command
                        .handler
                        .unwrap_or(serenity::EntryPointHandlerType::DiscordLaunchActivity),
                );
            let mut names: Vec<_> = command.name_localizations.iter().flatten().collect();
            names.sort();
            for (locale, name) in names {
                entry = entry.name_localized(locale, name);
            }
            let mut descriptions: Vec<_> =
                command.description_localizations.iter().flatten().collect();
            descriptions.sort();
            for (locale, description) in descriptions {
                entry = entry.description_localized(locale, description);
            }
            if !command.integration_types.is_empty() {
                entry = entry.integration_types(command.integration_types.clone());
            }
            if let Some(contexts) = &command.contexts {
                entry = entry.contexts(contexts.clone());
            }
            Some(entry)
        }
        None if activity => Some(
            serenity::CreateCommand::new(ENTRY_POINT_NAME)
                .kind(serenity::CommandType::PrimaryEntryPoint)
                .description("Open the Sequence board")
                .handler(serenity::EntryPointHandlerType::DiscordLaunchActivity)
                .integration_types(vec![
                    serenity::InstallationContext::Guild,
                    serenity::InstallationContext::User,
                ])
                .contexts(vec![
                    serenity::InteractionContext::Guild,
                    serenity::InteractionContext::BotDm,
                    serenity::InteractionContext::PrivateChannel,
                ]),
        ),
        None => None,
    };
    commands.extend(entry);
    commands
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for Discord on the loopback that answers each request with the next of `answers`
    /// (status, body) and hands the requests it read (head and body as text) to the test.
    async fn discord(
        answers: Vec<(&'static str, &'static str)>,
    ) -> (String, tokio::sync::mpsc::UnboundedReceiver<String>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            for (status, body) in answers {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                let mut buffer = vec![0u8; 16384];
                let mut read = 0;
                // Headers, then as much body as `content-length` says.
                while let Ok(n) = socket.read(&mut buffer[read..]).await {
                    read += n;
                    let text = String::from_utf8_lossy(&buffer[..read]).to_string();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let length = text
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        if read >= end + 4 + length || n == 0 {
                            break;
                        }
                    }
                    if n == 0 {
                        break;
                    }
                }
                let _ = tx.send(String::from_utf8_lossy(&buffer[..read]).to_string());
                let response = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(response.as_bytes()).await;
            }
        });
        (format!("http://{address}/api/v10"), rx)
    }

    const SECRET: &str = "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW";

    fn activity(api: &str) -> DiscordActivity {
        DiscordActivity::new(
            42,
            SECRET,
            "MTIz.bot.token",
            http_client(&Network::default()).unwrap(),
            api,
        )
    }

    /// The exchange sends the form Discord documents and gives the access token; a refused code is
    /// `BadCode`, a refused client secret `Unavailable` with a reason for the log, and none of the
    /// errors holds the secret or the code.
    #[tokio::test]
    async fn the_code_exchange_speaks_oauth2_and_maps_refusals() {
        let (api, mut requests) = discord(vec![
            (
                "200 OK",
                r#"{"access_token":"tok123","token_type":"Bearer","expires_in":604800,"refresh_token":"r","scope":"identify"}"#,
            ),
            (
                "400 Bad Request",
                r#"{"error":"invalid_grant","error_description":"Invalid \"code\" in request."}"#,
            ),
            ("401 Unauthorized", r#"{"error":"invalid_client"}"#),
            ("503 Service Unavailable", r#"{}"#),
        ])
        .await;
        let activity = activity(&api);
        assert_eq!(activity.exchange_code("code-1").await.unwrap(), "tok123");
        let sent = requests.recv().await.unwrap();
        assert!(sent.starts_with("POST /api/v10/oauth2/token "), "{sent}");
        let body = sent.split("\r\n\r\n").nth(1).unwrap_or_default();
        for field in [
            "client_id=42",
            &format!("client_secret={SECRET}"),
            "grant_type=authorization_code",
            "code=code-1",
        ] {
            assert!(body.split('&').any(|f| f == field), "{field} in {body}");
        }
        assert_eq!(
            activity.exchange_code("code-2").await,
            Err(ActivityError::BadCode)
        );
        let e = activity.exchange_code("code-3").await.unwrap_err();
        let ActivityError::Unavailable(reason) = &e else {
            panic!("{e:?}");
        };
        assert!(reason.contains("invalid_client"), "{reason}");
        let e = activity.exchange_code("code-4").await.unwrap_err();
        assert!(matches!(e, ActivityError::Unavailable(_)), "{e:?}");
        // Nothing is asked for what cannot be a code.
        for code in ["", "a b", &"x".repeat(600)] {
            assert_eq!(
                activity.exchange_code(code).await,
                Err(ActivityError::BadCode)
            );
        }
        assert!(!format!("{activity:?}").contains(SECRET));
        assert!(!format!("{activity:?}").contains("bot.token"));
    }

    #[tokio::test]
    async fn the_user_and_the_instance_are_read_as_discord_gives_them() {
        let (api, mut requests) = discord(vec![
            // Each token's authorization first (its application must be 42), then its user.
            (
                "200 OK",
                r#"{"application":{"id":"42","name":"Sequence"},"scopes":["identify"],"expires":"2099-01-01T00:00:00+00:00","user":{"id":"1001","username":"ann"}}"#,
            ),
            (
                "200 OK",
                r#"{"id":"1001","username":"ann","global_name":"Ann B","discriminator":"0","avatar":null,"locale":"de"}"#,
            ),
            (
                "200 OK",
                r#"{"application":{"id":"42","name":"Sequence"},"scopes":["identify"],"expires":"2099-01-01T00:00:00+00:00","user":{"id":"1002","username":"bob"}}"#,
            ),
            ("200 OK", r#"{"id":"1002","username":"bob","global_name":null}"#),
            ("401 Unauthorized", r#"{"message":"401: Unauthorized","code":0}"#),
            // A token another application was given (its users/@me would answer: it is not asked).
            (
                "200 OK",
                r#"{"application":{"id":"77","name":"Other"},"scopes":["identify"],"expires":"2099-01-01T00:00:00+00:00","user":{"id":"1002","username":"bob"}}"#,
            ),
            (
                "200 OK",
                r#"{"application_id":"42","instance_id":"i-1","launch_id":"7","location":{"id":"gc-9-5","kind":"gc","channel_id":"5","guild_id":"9"},"users":["1001","1003"]}"#,
            ),
            // The bot is a member of server 9 (no cache here: Discord is asked).
            ("200 OK", r#"{"id":"9","name":"Nine"}"#),
            (
                "200 OK",
                r#"{"application_id":"42","instance_id":"i-2","launch_id":"8","location":{"id":"pc-6","kind":"pc","channel_id":"6"},"users":["1002"]}"#,
            ),
            (
                "200 OK",
                r#"{"application_id":"42","instance_id":"i-4","launch_id":"9","location":{"id":"gc-11-12","kind":"gc","channel_id":"12","guild_id":"11"},"users":["1002"]}"#,
            ),
            // Server 11 did not add the bot: only a member installed the app.
            ("403 Forbidden", r#"{"message":"Missing Access","code":50001}"#),
            ("404 Not Found", r#"{"message":"404: Not Found","code":0}"#),
        ])
        .await;
        let activity = activity(&api);
        let ann = activity.user("tok-a").await.unwrap();
        assert_eq!(
            ann,
            ActivityUser {
                id: 1001,
                name: "Ann B".into(),
                locale: Some("de".into())
            }
        );
        for path in ["/oauth2/@me", "/users/@me"] {
            let sent = requests.recv().await.unwrap();
            assert!(sent.starts_with(&format!("GET /api/v10{path} ")), "{sent}");
            assert!(
                sent.to_ascii_lowercase()
                    .contains("authorization: bearer tok-a"),
                "{sent}"
            );
        }
        let bob = activity.user("tok-b").await.unwrap();
        assert_eq!((bob.id, bob.name.as_str(), bob.locale), (1002, "bob", None));
        assert_eq!(activity.user("tok-c").await, Err(ActivityError::BadToken));
        assert_eq!(activity.user("tok-d").await, Err(ActivityError::BadToken));
        // Bob's two requests, tok-c's and tok-d's authorization (no users/@me after them).
        for _ in 0..4 {
            let _ = requests.recv().await;
        }
        let instance = activity.instance("i-1").await.unwrap();
        assert_eq!(
            instance,
            ActivityInstance {
                channel: 5,
                guild: Some(9),
                users: vec![1001, 1003],
                venue: Venue::Server,
            }
        );
        let sent = requests.recv().await.unwrap();
        assert!(
            sent.starts_with("GET /api/v10/applications/42/activity-instances/i-1 "),
            "{sent}"
        );
        assert!(
            sent.to_ascii_lowercase()
                .contains("authorization: bot mtiz.bot.token"),
            "{sent}"
        );
        let asked = requests.recv().await.unwrap();
        assert!(asked.starts_with("GET /api/v10/guilds/9 "), "{asked}");
        let dm = activity.instance("i-2").await.unwrap();
        assert_eq!((dm.channel, dm.guild, dm.venue), (6, None, Venue::GroupDm));
        let elsewhere = activity.instance("i-4").await.unwrap();
        assert_eq!(
            (elsewhere.guild, elsewhere.venue),
            (
                Some(11),
                Venue::ServerWithoutBot {
                    external_apps: true
                }
            )
        );
        assert_eq!(
            activity.instance("i-3").await,
            Err(ActivityError::NoInstance)
        );
        // Not an instance id: not asked.
        for id in ["", "../users/@me", "a b", "i?x=1"] {
            assert_eq!(
                activity.instance(id).await,
                Err(ActivityError::NoInstance),
                "{id}"
            );
        }
    }

    #[tokio::test]
    async fn an_unreachable_discord_is_unavailable_in_time() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        drop(listener);
        let activity = activity(&format!("http://{address}/api/v10"));
        let started = std::time::Instant::now();
        let e = activity.exchange_code("some-code").await.unwrap_err();
        assert!(matches!(e, ActivityError::Unavailable(_)), "{e:?}");
        assert!(!e.to_string().contains("some-code"), "{e}");
        assert!(started.elapsed() < REQUEST_TIMEOUT + Duration::from_secs(1));
    }

    fn registered(json: serde_json::Value) -> serenity::Command {
        serde_json::from_value(json).unwrap()
    }

    /// The bulk overwrite keeps the app's entry point as registered (its name, handler and
    /// languages), with or without the Activity on here; with it on and none registered, adds one
    /// that Discord launches itself; without either, adds none.
    #[test]
    fn the_entry_point_is_kept_or_added() {
        let ours = vec![serenity::CreateCommand::new("sequence").description("Play")];
        let json = |commands: Vec<serenity::CreateCommand>| {
            serde_json::to_value(commands)
                .unwrap()
                .as_array()
                .unwrap()
                .clone()
        };
        assert_eq!(json(with_entry_point(ours.clone(), &[], false)).len(), 1);
        let added = json(with_entry_point(ours.clone(), &[], true));
        assert_eq!(added.len(), 2);
        assert_eq!(added[1]["type"], 4);
        assert_eq!(added[1]["handler"], 2);
        assert_eq!(added[1]["name"], ENTRY_POINT_NAME);
        let existing = registered(serde_json::json!({
            "id": "77", "application_id": "42", "version": "1", "type": 4, "name": "Launch",
            "description": "Launch an activity", "handler": 1,
            "name_localizations": {"de": "Starten"}, "description_localizations": null,
            "default_member_permissions": null, "nsfw": false,
            "integration_types": [0, 1], "contexts": [0, 1, 2]
        }));
        let slash = registered(serde_json::json!({
            "id": "78", "application_id": "42", "version": "1", "type": 1, "name": "old",
            "description": "an old command", "default_member_permissions": null, "nsfw": false
        }));
        for activity in [false, true] {
            let kept = json(with_entry_point(
                ours.clone(),
                &[slash.clone(), existing.clone()],
                activity,
            ));
            assert_eq!(kept.len(), 2, "{kept:?}");
            assert_eq!(kept[0]["name"], "sequence");
            let entry = &kept[1];
            assert_eq!(entry["type"], 4);
            assert_eq!(entry["name"], "Launch");
            assert_eq!(entry["handler"], 1, "its handler kept");
            assert_eq!(entry["name_localizations"]["de"], "Starten");
            assert_eq!(entry["description"], "Launch an activity");
        }
    }
}
