//! The page itself: the app's HTML, scripts and styles (plain files under `assets/web/`, compiled
//! into the binary: no build step, no other host), the page's texts from the catalogue
//! (`/api/texts`) and the board's geometry and colours from the renderer (`/api/geometry`).
//!
//! The files are answered with `Cache-Control: no-cache` and an `ETag` of their bytes: a browser
//! keeps them and asks again with `If-None-Match`, so a new binary's files are seen at once and an
//! unchanged file costs a 304.
//!
//! Inside Discord (the Activity: `/` asked with `frame_id` and `instance_id`) the same page is answered
//! with its files under `/.proxy/assets/` (Discord's proxy forwards `/.proxy/…` to the bot), and the
//! script loads Discord's Embedded App SDK from `/assets/vendor/` (made by
//! `scripts/vendor-discord-sdk.sh`, its licences in `/assets/vendor/LICENSES.md`); the plain page never
//! loads it.

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde::Serialize;

use crate::app::http::only_get;
use crate::i18n::{self, Args, Lang};
use crate::render::BoardGeometry;

/// One embedded file of the page.
struct Asset {
    /// Its name under `/assets/`.
    name: &'static str,
    /// Its content type.
    content_type: &'static str,
    /// Its bytes.
    bytes: &'static [u8],
}

const JS: &str = "text/javascript; charset=utf-8";

/// The page's files (the HTML is answered at `/` and `/g/{token}`, not under `/assets/`).
static ASSETS: &[Asset] = &[
    Asset {
        name: "app.js",
        content_type: JS,
        bytes: include_bytes!("../../assets/web/app.js"),
    },
    Asset {
        name: "board.js",
        content_type: JS,
        bytes: include_bytes!("../../assets/web/board.js"),
    },
    Asset {
        name: "api.js",
        content_type: JS,
        bytes: include_bytes!("../../assets/web/api.js"),
    },
    Asset {
        name: "server.js",
        content_type: JS,
        bytes: include_bytes!("../../assets/web/server.js"),
    },
    Asset {
        name: "style.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("../../assets/web/style.css"),
    },
];

/// Files under `/assets/vendor/`: Discord's Embedded App SDK, bundled, and its licences. Only the
/// page inside Discord loads the SDK.
static VENDOR: &[Asset] = &[
    Asset {
        name: "discord-embedded-app-sdk.js",
        content_type: JS,
        bytes: include_bytes!("../../assets/web/vendor/discord-embedded-app-sdk.js"),
    },
    Asset {
        name: "LICENSES.md",
        content_type: "text/markdown; charset=utf-8",
        bytes: include_bytes!("../../assets/web/vendor/LICENSES.md"),
    },
];

static INDEX: &str = include_str!("../../assets/web/index.html");

/// The path prefix of every request of the page inside Discord.
pub const PROXY_PREFIX: &str = "/.proxy";

/// Messages of the catalogue the page uses besides its own `web-*` ones.
const REUSED: &[&str] = &[
    "choice-game-classic",
    "choice-game-dice",
    "choice-game-kids",
    "choice-mode-king_of_the_board",
    "choice-turn_time-15s",
    "choice-turn_time-30s",
    "choice-turn_time-60s",
    "choice-turn_time-120s",
    "button-join",
    "button-leave",
    "button-addbot",
    "button-begin",
    "button-cancel",
    "button-roll",
    "button-rematch",
    "picker-hint",
    "picker-play",
    "level-easy",
    "level-medium",
    "level-hard",
    "image-free",
    "image-zone",
    "confirm-leave",
    "button-leave-confirm",
    "button-leave-keep",
    "button-stop-confirm",
];

/// The routes of the page: `/` (the app; inside Discord's frame its Activity form),
/// `/assets/{file}`, `/assets/vendor/{file}`, `/api/texts` and `/api/geometry`.
pub fn page_routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", only_get(root))
        .route("/assets/{file}", only_get(asset))
        .route("/assets/vendor/{file}", only_get(vendor_asset))
        .route("/api/texts", only_get(texts))
        .route("/api/geometry", only_get(geometry))
}

/// The paths the page answers, for the answer to an unknown path.
pub const PAGE_PATHS: &[&str] = &["/", "/assets/…", "/api/texts", "/api/geometry"];

/// Whether a query is Discord's launch of the Activity: it names the frame and the instance.
pub fn is_activity_launch(query: Option<&str>) -> bool {
    let keys: Vec<&str> = query
        .unwrap_or_default()
        .split('&')
        .filter_map(|pair| pair.split('=').next())
        .collect();
    keys.contains(&"frame_id") && keys.contains(&"instance_id")
}

async fn root(uri: axum::http::Uri) -> Response {
    if is_activity_launch(uri.query()) {
        activity_index_html()
    } else {
        index_html()
    }
}

/// The app page (for `/` and a known game's `/g/{token}`): the script reads the address itself.
pub fn index_html() -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        INDEX,
    )
        .into_response()
}

/// The app page inside Discord's Activity frame: the same page, its files asked under `/.proxy/`.
pub fn activity_index_html() -> Response {
    static HTML: OnceLock<String> = OnceLock::new();
    let html =
        HTML.get_or_init(|| INDEX.replace("\"/assets/", &format!("\"{PROXY_PREFIX}/assets/")));
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        html.as_str(),
    )
        .into_response()
}

/// A plain page for an unknown or expired link (404), in `lang`.
pub fn not_found_page(lang: Lang) -> Response {
    let title = escape(&i18n::tr(lang, "web-not-found-title"));
    let text = escape(&i18n::tr(lang, "web-not-found-text"));
    let home = escape(&i18n::tr(lang, "web-home"));
    let html = format!(
        "<!doctype html><html lang=\"{tag}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\
         <body class=\"plain\"><main class=\"card\"><h1>{title}</h1><p>{text}</p>\
         <p><a href=\"/\">{home}</a></p></main></body></html>",
        tag = lang_code(lang),
    );
    (
        StatusCode::NOT_FOUND,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        html,
    )
        .into_response()
}

/// The page's language code (`en`, `de`, `no`), as `?lang=` and the `sb_lang` cookie carry it.
pub fn lang_code(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::De => "de",
        Lang::No => "no",
    }
}

/// The asked language: `?lang=`, else the `sb_lang` cookie, else `Accept-Language`, else English.
pub fn asked_lang(query: Option<&str>, headers: &HeaderMap) -> Lang {
    let from_query = query.and_then(|q| {
        q.split('&')
            .filter_map(|pair| pair.split_once('='))
            .find(|(key, _)| *key == "lang")
            .map(|(_, value)| value.to_string())
    });
    let from_cookie = || {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(key, _)| *key == "sb_lang")
            .map(|(_, value)| value.to_string())
    };
    let from_header = || {
        headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .map(|v| v.split(';').next().unwrap_or_default().trim().to_string())
    };
    from_query
        .filter(|v| !v.is_empty())
        .or_else(from_cookie)
        .or_else(from_header)
        .map(|code| Lang::from_locale(&code))
        .unwrap_or_default()
}

async fn asset(Path(file): Path<String>, headers: HeaderMap) -> Response {
    answer_asset(ASSETS, &file, &headers)
}

async fn vendor_asset(Path(file): Path<String>, headers: HeaderMap) -> Response {
    answer_asset(VENDOR, &file, &headers)
}

/// The file `file` of `assets` (404 if none is called so), or 304 if the browser has it.
fn answer_asset(assets: &'static [Asset], file: &str, headers: &HeaderMap) -> Response {
    let Some(asset) = assets.iter().find(|a| a.name == file) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "not found\n",
        )
            .into_response();
    };
    let tag = etag(asset.bytes);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag));
    let tag_value = HeaderValue::from_str(&tag).unwrap_or(HeaderValue::from_static("\"0\""));
    if fresh {
        return (
            StatusCode::NOT_MODIFIED,
            [
                (header::ETAG, tag_value),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
        )
            .into_response();
    }
    (
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (header::ETAG, tag_value),
        ],
        asset.bytes,
    )
        .into_response()
}

/// A strong entity tag of a file's bytes (FNV-1a, 64 bits: enough to tell two builds' files apart).
fn etag(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("\"{hash:016x}\"")
}

/// The answer of `/api/texts`.
#[derive(Serialize)]
struct TextsAnswer<'a> {
    lang: &'static str,
    texts: &'a std::collections::BTreeMap<String, String>,
}

/// Every page string of `lang`: the `web-*` messages and the reused ones, each formatted with its
/// variables left as `{name}` for the script to fill (built once per language).
pub fn page_texts(lang: Lang) -> &'static std::collections::BTreeMap<String, String> {
    static TEXTS: [OnceLock<std::collections::BTreeMap<String, String>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    TEXTS[lang.index()].get_or_init(|| {
        // The English file names every message: another language lacking one falls back to it.
        i18n::messages(Lang::En)
            .into_iter()
            .filter(|(id, _)| id.starts_with("web-") || REUSED.contains(&id.as_str()))
            .map(|(id, uses)| {
                let mut args = Args::new();
                let holes: Vec<String> =
                    uses.variables.iter().map(|v| format!("{{{v}}}")).collect();
                for (name, hole) in uses.variables.iter().zip(&holes) {
                    args = args.text(name, hole.as_str());
                }
                let text = i18n::tr_args(lang, &id, &args);
                (id, text)
            })
            .collect()
    })
}

async fn texts(uri: axum::http::Uri, headers: HeaderMap) -> Response {
    let lang = asked_lang(uri.query(), &headers);
    json(&TextsAnswer {
        lang: lang_code(lang),
        texts: page_texts(lang),
    })
}

async fn geometry() -> Response {
    static GEOMETRY: OnceLock<String> = OnceLock::new();
    let body = GEOMETRY.get_or_init(|| {
        serde_json::to_string(&BoardGeometry::standard()).unwrap_or_else(|_| "{}".into())
    });
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body.as_str(),
    )
        .into_response()
}

/// A JSON answer (200).
fn json(value: &impl Serialize) -> Response {
    match serde_json::to_string(value) {
        Ok(body) => (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, "application/json"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body,
        )
            .into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// Text made safe to put in HTML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The size in bytes of the whole page: the HTML and every file it loads (not the SDK: the plain page
/// never loads it).
pub fn page_bytes() -> usize {
    INDEX.len() + ASSETS.iter().map(|a| a.bytes.len()).sum::<usize>()
}

/// The size in bytes of the page inside Discord: the page's and the SDK's (its licences are not loaded).
pub fn activity_page_bytes() -> usize {
    page_bytes()
        + VENDOR
            .iter()
            .filter(|a| a.content_type == JS)
            .map(|a| a.bytes.len())
            .sum::<usize>()
}

#[cfg(test)]
mod tests {
    use axum::http::{Method, Request};
    use tower::ServiceExt;

    use super::*;
    use crate::app::http::test_kit::ask;

    fn app() -> Router {
        page_routes()
    }

    #[tokio::test]
    async fn the_app_page_and_its_files_are_served_with_their_types() {
        let page = ask(&app(), Method::GET, "/").await;
        assert_eq!(page.status, StatusCode::OK);
        assert_eq!(
            page.content_type.as_deref(),
            Some("text/html; charset=utf-8")
        );
        assert!(page.body.contains("/assets/app.js"));
        for (file, kind) in [
            ("app.js", "text/javascript"),
            ("board.js", "text/javascript"),
            ("api.js", "text/javascript"),
            ("style.css", "text/css"),
        ] {
            let answer = ask(&app(), Method::GET, &format!("/assets/{file}")).await;
            assert_eq!(answer.status, StatusCode::OK, "{file}");
            assert!(
                answer
                    .content_type
                    .as_deref()
                    .is_some_and(|t| t.starts_with(kind)),
                "{file}: {:?}",
                answer.content_type
            );
            assert_eq!(answer.headers[header::CACHE_CONTROL], "no-cache");
            assert!(answer.headers.contains_key(header::ETAG));
        }
        let post = ask(&app(), Method::POST, "/assets/app.js").await;
        assert_eq!(post.status, StatusCode::METHOD_NOT_ALLOWED);
    }

    #[tokio::test]
    async fn an_unknown_file_is_404_and_a_known_one_asked_again_is_304() {
        for path in ["/assets/nope.js", "/assets/..%2Fapp.js", "/assets/APP.JS"] {
            let answer = ask(&app(), Method::GET, path).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        }
        let first = ask(&app(), Method::GET, "/assets/app.js").await;
        let tag = first.headers[header::ETAG].clone();
        let request = Request::builder()
            .uri("/assets/app.js")
            .header(header::IF_NONE_MATCH, tag)
            .body(axum::body::Body::empty())
            .expect("a request");
        let again = app().oneshot(request).await.expect("an answer");
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    }

    #[tokio::test]
    async fn texts_come_from_the_catalogue_in_the_asked_language() {
        let en = ask(&app(), Method::GET, "/api/texts?lang=en").await;
        assert_eq!(en.status, StatusCode::OK);
        assert_eq!(en.content_type.as_deref(), Some("application/json"));
        let en: serde_json::Value = serde_json::from_str(&en.body).expect("json");
        assert_eq!(en["lang"], "en");
        assert_eq!(
            en["texts"]["web-name-save"],
            i18n::tr(Lang::En, "web-name-save")
        );
        assert_eq!(en["texts"]["button-join"], "Join");
        let de = ask(&app(), Method::GET, "/api/texts?lang=de").await;
        let de: serde_json::Value = serde_json::from_str(&de.body).expect("json");
        assert_eq!(de["lang"], "de");
        assert_ne!(de["texts"]["web-name-save"], en["texts"]["web-name-save"]);
        // Variables are left for the page to fill, without isolation marks.
        let step = en["texts"]["web-replay-step"].as_str().expect("a text");
        assert!(step.contains("{n}") && step.contains("{total}"), "{step}");
        // Every language has the same keys.
        let no = ask(&app(), Method::GET, "/api/texts?lang=no").await;
        let no: serde_json::Value = serde_json::from_str(&no.body).expect("json");
        let keys = |v: &serde_json::Value| {
            v["texts"]
                .as_object()
                .map(|o| o.keys().cloned().collect::<Vec<_>>())
        };
        assert_eq!(keys(&no), keys(&en));
        for lang in [Lang::En, Lang::De, Lang::No] {
            for key in page_texts(lang).keys().filter(|k| k.starts_with("web-")) {
                assert!(i18n::has(lang, key), "{key} missing in {lang:?}");
            }
        }
    }

    #[test]
    fn the_language_comes_from_the_query_the_cookie_or_the_browser() {
        let mut headers = HeaderMap::new();
        assert_eq!(asked_lang(None, &headers), Lang::En);
        headers.insert(
            header::ACCEPT_LANGUAGE,
            HeaderValue::from_static("nb-NO,en;q=0.5"),
        );
        assert_eq!(asked_lang(None, &headers), Lang::No);
        headers.insert(header::COOKIE, HeaderValue::from_static("a=b; sb_lang=de"));
        assert_eq!(asked_lang(None, &headers), Lang::De);
        assert_eq!(asked_lang(Some("x=1&lang=en"), &headers), Lang::En);
        assert_eq!(asked_lang(Some("lang=zz"), &headers), Lang::En);
    }

    #[tokio::test]
    async fn the_geometry_is_the_renderers() {
        let answer = ask(&app(), Method::GET, "/api/geometry").await;
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(answer.content_type.as_deref(), Some("application/json"));
        let want = serde_json::to_string(&BoardGeometry::standard()).expect("json");
        assert_eq!(answer.body, want);
        let json: serde_json::Value = serde_json::from_str(&answer.body).expect("json");
        assert_eq!(
            json["variants"]["classic"]["teams"][0]["body"],
            crate::render::geometry::hex(crate::render::team_colour(
                crate::engine::Variant::Classic,
                0
            ))
        );
    }

    #[tokio::test]
    async fn an_unknown_link_gets_a_plain_page_in_its_language() {
        let page = not_found_page(Lang::De);
        assert_eq!(page.status(), StatusCode::NOT_FOUND);
        let bytes = axum::body::to_bytes(page.into_body(), 1 << 20)
            .await
            .expect("body");
        let body = String::from_utf8_lossy(&bytes);
        assert!(body.contains(&escape(&i18n::tr(Lang::De, "web-not-found-title"))));
        assert!(body.contains("lang=\"de\""));
    }

    #[test]
    fn the_page_stays_under_300_kb() {
        assert!(page_bytes() < 300 * 1024, "{} bytes", page_bytes());
    }

    #[tokio::test]
    async fn inside_discord_the_page_asks_its_files_under_the_proxy_prefix() {
        let launch = "/?frame_id=f1&instance_id=i-1&platform=desktop&channel_id=5&guild_id=6";
        let page = ask(&app(), Method::GET, launch).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(
            page.body.contains("\"/.proxy/assets/app.js\""),
            "{}",
            page.body
        );
        assert!(page.body.contains("\"/.proxy/assets/style.css\""));
        assert!(
            !page.body.contains("\"/assets/"),
            "a file asked outside the proxy"
        );
        // The plain page, and a query that only names one of the two, keep the plain paths.
        for plain in ["/", "/?frame_id=f1", "/?instance_id=i-1", "/?lang=de"] {
            let page = ask(&app(), Method::GET, plain).await;
            assert!(page.body.contains("\"/assets/app.js\""), "{plain}");
            assert!(!page.body.contains("/.proxy/"), "{plain}");
        }
    }

    #[tokio::test]
    async fn the_discord_sdk_is_served_with_its_licences_and_the_plain_page_never_loads_it() {
        let sdk = ask(
            &app(),
            Method::GET,
            "/assets/vendor/discord-embedded-app-sdk.js",
        )
        .await;
        assert_eq!(sdk.status, StatusCode::OK);
        assert!(sdk
            .content_type
            .as_deref()
            .is_some_and(|t| t.starts_with("text/javascript")));
        assert!(sdk.headers.contains_key(header::ETAG));
        assert!(
            sdk.body.contains("export{") && sdk.body.contains("as DiscordSDK}"),
            "the bundle exports DiscordSDK"
        );
        assert!(sdk
            .body
            .starts_with("/* @discord/embedded-app-sdk 2.5.0 (MIT)"));
        let licences = ask(&app(), Method::GET, "/assets/vendor/LICENSES.md").await;
        assert_eq!(licences.status, StatusCode::OK);
        for package in [
            "@discord/embedded-app-sdk` 2.5.0 (MIT)",
            "`zod`",
            "`uuid`",
            "`eventemitter3`",
            "`big-integer`",
            "`decimal.js-light`",
            "`lodash.transform`",
            "`tslib`",
            "Copyright (c) 2024 Discord Inc.",
        ] {
            assert!(licences.body.contains(package), "{package} in LICENSES.md");
        }
        for missing in [
            "/assets/vendor/nope.js",
            "/assets/vendor/..%2Fapp.js",
            "/assets/discord-embedded-app-sdk.js",
        ] {
            let answer = ask(&app(), Method::GET, missing).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{missing}");
        }
        // The plain page's files name the SDK only in the Activity's dynamic import.
        assert!(!INDEX.contains("vendor"));
        for asset in ASSETS {
            let text = String::from_utf8_lossy(asset.bytes);
            let named = text.matches("discord-embedded-app-sdk").count();
            let imported = text
                .matches("await import('./vendor/discord-embedded-app-sdk.js')")
                .count();
            assert_eq!(named, imported, "{} loads the SDK", asset.name);
        }
        let plain = page_bytes();
        let inside = activity_page_bytes();
        assert!(plain < 300 * 1024, "{plain} bytes");
        assert!(
            inside > plain + 100 * 1024 && inside < 500 * 1024,
            "{inside} bytes"
        );
    }

    #[test]
    fn names_are_escaped_in_html() {
        assert_eq!(
            escape("<b>\"A&B\"</b>"),
            "&lt;b&gt;&quot;A&amp;B&quot;&lt;/b&gt;"
        );
    }
}
