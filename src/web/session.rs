//! Who asks on the web, and in which language: a guest's session cookie (`sb_guest`, 32 random
//! bytes as hex) whose SHA-256 gives the guest's user id, their name (`sb_name`), their language
//! (`?lang=`, the `sb_lang` cookie, `Accept-Language`), and the check that a state-changing request
//! comes from the bot's own page (the `X-Sequence: 1` header, and an `Origin` of this host).
//!
//! Nothing is stored: the user id is a function of the cookie, so a guest keeps their seats across
//! restarts. Its top bit is set, which no Discord id has (snowflakes are below 2^63), so a guest
//! can never be taken for a Discord user.

use axum::http::{header, HeaderMap, HeaderValue};
use rand::RngCore;

use crate::i18n::Lang;
use crate::service::UserId;

/// The guest's session cookie.
pub const GUEST_COOKIE: &str = "sb_guest";
/// The guest's name.
pub const NAME_COOKIE: &str = "sb_name";
/// The language chosen on the page (set by the page itself).
pub const LANG_COOKIE: &str = "sb_lang";
/// The header every state-changing request must carry, with the value `1`: a page of another site
/// cannot send it without the browser asking this server first (CORS), which it never allows.
pub const CSRF_HEADER: &str = "x-sequence";
/// Characters of a name, at most (Discord's limit, the one the service keeps names to).
pub const MAX_NAME_CHARS: usize = 32;
/// How long the browser keeps the cookies: a year.
const COOKIE_SECONDS: u64 = 365 * 24 * 60 * 60;
/// The top bit, set in every guest's user id.
pub const GUEST_BIT: u64 = 1 << 63;

/// A guest: their session token and the user id it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guest {
    /// The cookie's value (64 hex digits).
    pub token: String,
    /// The user id the service knows them by.
    pub user: UserId,
}

impl Guest {
    /// A new guest with a fresh random token (from the operating system's source).
    pub fn new() -> Guest {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Guest::of(token)
    }

    /// The guest whose cookie is `token` (already checked to be one).
    fn of(token: String) -> Guest {
        let user = user_of(&token);
        Guest { token, user }
    }
}

impl Default for Guest {
    fn default() -> Guest {
        Guest::new()
    }
}

/// The user id of the guest whose session token is `token`: the first 8 bytes of its SHA-256, the
/// top bit set.
pub fn user_of(token: &str) -> UserId {
    let digest = ring::digest::digest(&ring::digest::SHA256, token.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest.as_ref()[..8]);
    UserId(u64::from_be_bytes(first) | GUEST_BIT)
}

/// Whether `user` is a web guest (not a Discord user).
pub fn is_guest(user: UserId) -> bool {
    user.0 & GUEST_BIT != 0
}

/// Whether `value` is shaped like a session token: 64 lowercase hex digits.
fn is_token(value: &str) -> bool {
    value.len() == 64
        && value
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Who asks, as far as the request tells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// The guest, if their cookie is a valid one.
    pub guest: Option<Guest>,
    /// Their name, if their name cookie holds a valid one.
    pub name: Option<String>,
    /// The language to answer in.
    pub lang: Lang,
}

impl Session {
    /// The session of a request with `headers` and the query string `query`.
    pub fn read(headers: &HeaderMap, query: Option<&str>) -> Session {
        let mut guest = None;
        let mut name = None;
        let mut chosen = None;
        for (key, value) in cookies(headers) {
            match key {
                GUEST_COOKIE if is_token(value) => guest = Some(Guest::of(value.to_string())),
                NAME_COOKIE => {
                    name = percent_decode(value).and_then(|raw| checked_name(&raw).ok());
                }
                LANG_COOKIE => chosen = lang_code(value),
                _ => {}
            }
        }
        let asked = query.and_then(|q| {
            q.split('&')
                .filter_map(|pair| pair.split_once('='))
                .find(|(key, _)| *key == "lang")
                .and_then(|(_, value)| lang_code(value))
        });
        let lang = asked
            .or(chosen)
            .or_else(|| accepted_language(headers))
            .unwrap_or_default();
        Session { guest, name, lang }
    }

    /// The guest with a name: who may take a seat (`None`: they must choose a name first).
    pub fn player(&self) -> Option<(UserId, &str)> {
        Some((self.guest.as_ref()?.user, self.name.as_deref()?))
    }
}

/// Only the languages the bot speaks, by code (`en`, `en-US`, `de`, `no`, `nb`, `nn`).
pub(super) fn lang_code(value: &str) -> Option<Lang> {
    let primary = value
        .trim()
        .split(['-', '_'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    match primary.as_str() {
        "en" | "de" | "no" | "nb" | "nn" => Some(Lang::from_locale(&primary)),
        _ => None,
    }
}

/// The language of `Accept-Language` with the highest weight among those the bot speaks (the first
/// of equal weights).
fn accepted_language(headers: &HeaderMap) -> Option<Lang> {
    let value = headers.get(header::ACCEPT_LANGUAGE)?.to_str().ok()?;
    let mut best: Option<(f32, Lang)> = None;
    for item in value.split(',') {
        let mut parts = item.split(';');
        let Some(lang) = parts.next().and_then(lang_code) else {
            continue;
        };
        let weight = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .and_then(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if weight > 0.0 && best.is_none_or(|(w, _)| weight > w) {
            best = Some((weight, lang));
        }
    }
    best.map(|(_, lang)| lang)
}

/// The `name=value` pairs of the request's `Cookie` headers.
fn cookies(headers: &HeaderMap) -> impl Iterator<Item = (&str, &str)> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| {
            let (key, value) = pair.split_once('=')?;
            Some((key.trim(), value.trim().trim_matches('"')))
        })
}

/// Why a name was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadName;

/// `raw` as a name: trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control characters.
pub fn checked_name(raw: &str) -> Result<String, BadName> {
    let name = raw.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(BadName);
    }
    Ok(name.to_string())
}

/// The `Set-Cookie` headers that keep `guest` signed in as `name` (`Secure` when the pages are
/// reached over https).
pub fn set_cookies(guest: &Guest, name: &str, secure: bool) -> Vec<HeaderValue> {
    let attributes = format!(
        "; Path=/; Max-Age={COOKIE_SECONDS}; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    );
    [
        format!("{GUEST_COOKIE}={}{attributes}", guest.token),
        format!("{NAME_COOKIE}={}{attributes}", percent_encode(name)),
    ]
    .into_iter()
    .filter_map(|cookie| HeaderValue::from_str(&cookie).ok())
    .collect()
}

/// `text` with every byte but ASCII letters, digits and `-._~` written as `%XX` (a cookie value
/// holds no spaces, commas, semicolons or non-ASCII).
fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The text [`percent_encode`] wrote (`None` if it is not valid, or not UTF-8).
fn percent_decode(text: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&byte, tail)) = rest.split_first() {
        if byte == b'%' {
            let hex = tail.get(..2)?;
            let value = u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
            bytes.push(value);
            rest = &tail[2..];
        } else {
            bytes.push(byte);
            rest = tail;
        }
    }
    String::from_utf8(bytes).ok()
}

/// Why a state-changing request was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forgery {
    /// Without `X-Sequence: 1`.
    NoHeader,
    /// From a page of another origin.
    OtherOrigin,
}

/// Whether a state-changing request may be served: it carries `X-Sequence: 1`, and its `Origin`, if
/// any, is this server as the browser reached it (its `Host`) or one of `allowed` (`[web]
/// public_url`'s, the Activity's frame in Discord).
pub fn check_forgery(headers: &HeaderMap, allowed: &[&str]) -> Result<(), Forgery> {
    let marked = headers
        .get(CSRF_HEADER)
        .is_some_and(|v| v.as_bytes() == b"1");
    if !marked {
        return Err(Forgery::NoHeader);
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin
        .to_str()
        .map_err(|_| Forgery::OtherOrigin)?
        .trim()
        .to_ascii_lowercase();
    if allowed
        .iter()
        .any(|other| other.eq_ignore_ascii_case(&origin))
    {
        return Ok(());
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(|h| h.trim().to_ascii_lowercase());
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    match (origin_host, host) {
        (Some(origin_host), Some(host)) if !host.is_empty() && origin_host == host => Ok(()),
        _ => Err(Forgery::OtherOrigin),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (key, value) in pairs {
            map.append(
                header::HeaderName::from_bytes(key.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        map
    }

    #[test]
    fn a_guest_is_a_hash_of_the_cookie_with_the_top_bit_set() {
        let guest = Guest::new();
        assert!(is_token(&guest.token), "{}", guest.token);
        assert_ne!(guest.token, Guest::new().token, "random");
        assert!(is_guest(guest.user));
        assert_eq!(
            user_of(&guest.token),
            guest.user,
            "the same after a restart"
        );
        // The SHA-256 of "abc" begins ba7816bf8f01cfea.
        assert_eq!(user_of("abc").0, 0xba78_16bf_8f01_cfea | GUEST_BIT);
        let cookie = format!("{GUEST_COOKIE}={}; other=1", guest.token);
        let session = Session::read(&headers(&[("cookie", &cookie)]), None);
        assert_eq!(session.guest, Some(guest));
        assert_eq!(session.player(), None, "no name yet");
        for bad in ["abc", &"g".repeat(64), &"A".repeat(64)] {
            let cookie = format!("{GUEST_COOKIE}={bad}");
            let session = Session::read(&headers(&[("cookie", &cookie)]), None);
            assert_eq!(session.guest, None, "{bad}");
        }
    }

    #[test]
    fn names_are_checked_and_survive_the_cookie() {
        assert_eq!(checked_name("  Ann  "), Ok("Ann".into()));
        assert_eq!(checked_name(&"é".repeat(32)), Ok("é".repeat(32)));
        for bad in ["", "   ", "a\nb", "a\u{7}", &"x".repeat(33)] {
            assert_eq!(checked_name(bad), Err(BadName), "{bad:?}");
        }
        let guest = Guest::new();
        let name = "Ann; <b>Ø</b>=1,\"x\"";
        let set = set_cookies(&guest, name, true);
        assert_eq!(set.len(), 2);
        for cookie in &set {
            let text = cookie.to_str().unwrap();
            assert!(text.contains("HttpOnly; SameSite=Lax; Secure"), "{text}");
            assert!(text.contains("Path=/"), "{text}");
        }
        // What the browser sends back: the name= pairs of both cookies.
        let sent: Vec<String> = set
            .iter()
            .map(|c| c.to_str().unwrap().split(';').next().unwrap().to_string())
            .collect();
        let session = Session::read(&headers(&[("cookie", &sent.join("; "))]), None);
        assert_eq!(session.name.as_deref(), Some(name));
        assert_eq!(session.player(), Some((guest.user, name)));
        assert!(!set_cookies(&guest, "Ann", false)[0]
            .to_str()
            .unwrap()
            .contains("Secure"));
        // A name cookie made by hand that is no name is no name.
        let session = Session::read(&headers(&[("cookie", "sb_name=%0A")]), None);
        assert_eq!(session.name, None);
        let session = Session::read(&headers(&[("cookie", "sb_name=%ZZ")]), None);
        assert_eq!(session.name, None);
    }

    #[test]
    fn the_language_comes_from_the_query_the_cookie_or_the_browser() {
        let lang = |pairs: &[(&str, &str)], query: Option<&str>| {
            Session::read(&headers(pairs), query).lang
        };
        assert_eq!(lang(&[], None), Lang::En);
        assert_eq!(
            lang(&[("accept-language", "fr-FR, de;q=0.5, nb;q=0.8")], None),
            Lang::No
        );
        assert_eq!(
            lang(&[("accept-language", "de-DE,de;q=0.9,en;q=0.8")], None),
            Lang::De
        );
        assert_eq!(lang(&[("accept-language", "fr")], None), Lang::En);
        let browser = ("accept-language", "de");
        assert_eq!(lang(&[browser, ("cookie", "sb_lang=no")], None), Lang::No);
        assert_eq!(
            lang(&[browser, ("cookie", "sb_lang=no")], Some("x=1&lang=en")),
            Lang::En
        );
        assert_eq!(
            lang(&[browser], Some("lang=xx")),
            Lang::De,
            "unknown: ignored"
        );
    }

    #[test]
    fn a_change_needs_the_header_and_this_origin() {
        let public = &["https://sequence.example.org", "https://42.discordsays.com"];
        assert_eq!(check_forgery(&headers(&[]), public), Err(Forgery::NoHeader));
        assert_eq!(
            check_forgery(&headers(&[("x-sequence", "yes")]), public),
            Err(Forgery::NoHeader)
        );
        assert_eq!(
            check_forgery(&headers(&[("x-sequence", "1")]), public),
            Ok(())
        );
        let from = |origin: &str| {
            check_forgery(
                &headers(&[
                    ("x-sequence", "1"),
                    ("host", "127.0.0.1:8080"),
                    ("origin", origin),
                ]),
                public,
            )
        };
        assert_eq!(from("http://127.0.0.1:8080"), Ok(()));
        assert_eq!(from("https://Sequence.example.org"), Ok(()));
        assert_eq!(from("https://42.discordsays.com"), Ok(()));
        assert_eq!(
            from("https://43.discordsays.com"),
            Err(Forgery::OtherOrigin)
        );
        assert_eq!(from("http://127.0.0.1:8081"), Err(Forgery::OtherOrigin));
        assert_eq!(from("https://evil.example"), Err(Forgery::OtherOrigin));
        assert_eq!(from("null"), Err(Forgery::OtherOrigin));
    }
}
