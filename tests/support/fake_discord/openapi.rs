//! Checks every REST request the stand-in receives, and every answer it gives, against Discord's own
//! OpenAPI 3.1 description of REST API v10 (`../shared/discord-api/openapi.json`, written by Discord,
//! not by this project).
//!
//! A request must use a documented path template and method, documented path and query parameters,
//! and a JSON body (or multipart `payload_json`) that validates against the operation's request schema;
//! an answer must validate against the documented response schema of its status. Schemas are validated
//! with the `jsonschema` crate (draft 2020-12, which OpenAPI 3.1 uses); `$ref`s into `#/components` are
//! resolved by compiling each schema inside a document that carries the spec's `components`. Each
//! distinct schema is compiled once and cached, since the load test sends thousands of requests.
//!
//! What the spec leaves out and Discord enforces is checked by hand: the size of each command
//! definition, 25 options and 25 choices (see [`command_limits`]).
//!
//! Violations are collected in [`Report`]; `FakeDiscord`'s `Drop` fails the test that caused them.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use jsonschema::Validator;
use serde_json::{json, Map, Value};

/// Where the spec lies, relative to the crate (CI clones the repository with `shared/` beside it).
pub const SPEC_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/discord-api/openapi.json"
);

/// Discord's documented limit on the combined size of one command's names, descriptions and values
/// (`docs/interactions-application-commands.mdx`, "Slash Commands": 8000 characters; issue 15 quotes
/// 4000, an older figure, and the docs win).
pub const COMMAND_SIZE_LIMIT: usize = 8000;
/// At most this many options per command, subcommand or group, and choices per option.
pub const MAX_OPTIONS: usize = 25;
/// At most this many choices per option.
pub const MAX_CHOICES: usize = 25;

/// A known place where the spec (a preview) is stricter than Discord. Applied to a copy of a request
/// body before it is validated; every use is counted in the [`Report`].
struct Deviation {
    /// Short name, shown in the report.
    name: &'static str,
    /// Rewrites the body into the form the spec documents; true if it changed anything.
    apply: fn(&mut Value) -> bool,
}

/// The allow-list. Keep it short; each entry says why it is not a bug of the bot.
const DEVIATIONS: &[Deviation] = &[
    // serenity sends the ids of *new* attachments (files uploaded in the same multipart request) as
    // integers, `"attachments": [{"id": 0}]`, where the spec types every attachment id as a string
    // snowflake. Discord's docs (`docs/resources-message.mdx`, attachment in a request: "snowflake or
    // number ... for new attachments this must match the `n` in `files[n]`") allow both.
    Deviation {
        name: "attachment ids sent as integers (serenity), spec says string snowflakes",
        apply: attachment_ids_to_strings,
    },
    // A command's `default_member_permissions` is a permission bit set "serialized as a string"
    // (`docs/interactions-application-commands.mdx`: `?string`, e.g. `"0"`), which serenity sends
    // (`"32"` for Manage Server); the spec types it as an integer. The docs win.
    Deviation {
        name: "command default_member_permissions as a string (as Discord's docs say), spec says integer",
        apply: member_permissions_to_integers,
    },
];

/// In a command list (or one command), `"default_member_permissions": "32"` becomes `32`.
fn member_permissions_to_integers(body: &mut Value) -> bool {
    let mut changed = false;
    let commands: Vec<&mut Value> = match body {
        Value::Array(list) => list.iter_mut().collect(),
        Value::Object(_) => vec![body],
        _ => Vec::new(),
    };
    for command in commands {
        let Some(field) = command.get_mut("default_member_permissions") else {
            continue;
        };
        if let Some(number) = field.as_str().and_then(|s| s.parse::<u64>().ok()) {
            *field = json!(number);
            changed = true;
        }
    }
    changed
}

/// A known place where the spec's description of an answer differs from what Discord sends, and so
/// from what the stand-in sends.
struct AnswerDeviation {
    name: &'static str,
    applies: fn(u16, &Value) -> bool,
    apply: fn(&mut Value),
}

/// The allow-list for answers.
const ANSWER_DEVIATIONS: &[AnswerDeviation] = &[
    // The spec requires `code` in a 429 body; Discord's rate-limit docs (`docs/topics-rate-limits.mdx`,
    // which win over the spec) show the body without one.
    AnswerDeviation {
        name: "429 answers without `code` (as Discord's rate-limit docs show them)",
        applies: |status, body| status == 429 && body.get("code").is_none(),
        apply: |body| body["code"] = json!(0),
    },
    // The spec types the `code` of each field error in `errors` as an integer; Discord sends words
    // (`"code": "BASE_TYPE_REQUIRED"`), which is also what serenity parses (`DiscordJsonSingleError`
    // has `code: String`).
    AnswerDeviation {
        name: "field errors with word codes (BASE_TYPE_INVALID), spec says integers",
        applies: |status, body| status == 400 && body.get("errors").is_some(),
        apply: |body| {
            if let Some(errors) = body.get_mut("errors") {
                numeric_error_codes(errors);
            }
        },
    },
];

fn numeric_error_codes(errors: &mut Value) {
    let Some(map) = errors.as_object_mut() else {
        return;
    };
    for (key, value) in map.iter_mut() {
        if key == "_errors" {
            for error in value.as_array_mut().into_iter().flatten() {
                if error.get("code").is_some_and(Value::is_string) {
                    error["code"] = json!(0);
                }
            }
        } else {
            numeric_error_codes(value);
        }
    }
}

fn attachment_ids_to_strings(body: &mut Value) -> bool {
    let mut changed = false;
    let mut fix = |list: &mut Value| {
        for attachment in list.as_array_mut().into_iter().flatten() {
            if let Some(id) = attachment.get("id").and_then(Value::as_u64) {
                attachment["id"] = json!(id.to_string());
                changed = true;
            }
        }
    };
    // A message body (create, edit, follow-up) or an interaction callback's `data`.
    if let Some(list) = body.get_mut("attachments") {
        fix(list);
    }
    if let Some(list) = body.get_mut("data").and_then(|d| d.get_mut("attachments")) {
        fix(list);
    }
    changed
}

/// One segment of a path template.
#[derive(Debug)]
enum Segment {
    Literal(String),
    Param(String),
}

#[derive(Debug)]
struct Template {
    text: String,
    segments: Vec<Segment>,
}

/// Discord's OpenAPI description, with its path templates and a cache of compiled schemas.
pub struct Spec {
    doc: Value,
    templates: Vec<Template>,
    validators: Mutex<HashMap<String, Arc<Validator>>>,
}

/// The spec, loaded once per test binary. A missing or broken file is an error that names the path:
/// the file is part of the workplace, so a test never skips the check silently.
pub fn load() -> Result<&'static Spec, String> {
    static SPEC: OnceLock<Result<Spec, String>> = OnceLock::new();
    SPEC.get_or_init(|| Spec::read(SPEC_PATH))
        .as_ref()
        .map_err(Clone::clone)
}

/// The route a request matched: its template and method, e.g. `POST /channels/{channel_id}/messages`.
pub type RouteKey = String;

/// What the checks found so far, kept in the stand-in's state.
#[derive(Debug, Default)]
pub struct Report {
    /// Requests checked.
    pub requests: usize,
    /// Requests per documented route (`METHOD template`).
    pub routes: BTreeMap<RouteKey, usize>,
    /// Answers checked against a response schema.
    pub responses: usize,
    /// How often each allow-listed deviation was applied.
    pub deviations: BTreeMap<&'static str, usize>,
    /// Requests that broke the spec: route, method and the schema errors.
    pub violations: Vec<String>,
    /// Answers of the stand-in that broke the spec.
    pub response_violations: Vec<String>,
    /// Command definitions over Discord's documented limits.
    pub limit_violations: Vec<String>,
    /// The largest command definition seen (name, size in characters).
    pub largest_command: Option<(String, usize)>,
    /// Time spent checking, requests and answers.
    pub time: Duration,
}

impl Report {
    /// Everything that must fail a test, one entry per problem.
    pub fn problems(&self) -> Vec<String> {
        let requests = self.violations.iter().map(|v| format!("request: {v}"));
        let limits = self.limit_violations.iter().map(|v| format!("limit: {v}"));
        let answers = self
            .response_violations
            .iter()
            .map(|v| format!("stand-in answer: {v}"));
        requests.chain(limits).chain(answers).collect()
    }

    /// One paragraph: requests and routes checked, deviations applied.
    pub fn summary(&self) -> String {
        let per_request = self.time.as_micros() / self.requests.max(1) as u128;
        let mut text = format!(
            "OpenAPI check: {} requests on {} routes, {} answers checked, {} problems \
             ({per_request} µs of checking per request)",
            self.requests,
            self.routes.len(),
            self.responses,
            self.problems().len()
        );
        for (route, count) in &self.routes {
            let _ = write!(text, "\n  {count:>5}  {route}");
        }
        for (name, count) in &self.deviations {
            let _ = write!(text, "\n  allowed deviation ({count}x): {name}");
        }
        if let Some((name, size)) = &self.largest_command {
            let _ = write!(
                text,
                "\n  largest command: /{name}, {size} of {COMMAND_SIZE_LIMIT} characters"
            );
        }
        text
    }

    /// Adds what [`Spec::check_exchange`] found for one request and its answer.
    pub fn record(&mut self, found: Exchange) {
        self.requests += 1;
        for name in found.deviations {
            *self.deviations.entry(name).or_default() += 1;
        }
        if let Some(route) = found.route {
            *self.routes.entry(route).or_default() += 1;
        }
        self.violations.extend(found.errors);
        self.limit_violations.extend(found.limit_errors);
        if let Some((name, size)) = found.command {
            if self.largest_command.as_ref().is_none_or(|(_, s)| size > *s) {
                self.largest_command = Some((name, size));
            }
        }
        if let Some(answer) = found.answer {
            self.responses += 1;
            self.response_violations.extend(answer.err());
        }
        self.time += found.time;
    }
}

/// What checking one request and the stand-in's answer to it found ([`Spec::check_exchange`]), to be
/// added to a [`Report`]. Worked out without holding the stand-in's state, so that requests arriving
/// together are not queued behind each other's schema validation; recorded before the answer is sent.
pub struct Exchange {
    /// The documented route the request matched.
    route: Option<RouteKey>,
    /// The request's schema errors, each naming the request.
    errors: Vec<String>,
    /// The allow-listed deviations applied, to the request and to the answer.
    deviations: Vec<&'static str>,
    /// A command registration's definitions over Discord's limits.
    limit_errors: Vec<String>,
    /// The largest command definition of a registration.
    command: Option<(String, usize)>,
    /// The answer's check, if it was checked: an answer below 500 to a documented route.
    answer: Option<Result<(), String>>,
    /// Time spent checking.
    time: Duration,
}

impl Spec {
    /// Checks one request and the stand-in's answer to it (`status`, `body`).
    pub fn check_exchange(
        &self,
        request: &RequestParts<'_>,
        status: u16,
        body: &Value,
    ) -> Exchange {
        let begun = Instant::now();
        let checked = self.check_request(request);
        let label = checked.route.clone().unwrap_or_else(|| {
            let path = request
                .path
                .strip_prefix("/api/v10")
                .unwrap_or(request.path);
            format!("{} {path}", request.method)
        });
        let mut found = Exchange {
            errors: checked
                .errors
                .into_iter()
                .map(|e| format!("#{} {label}: {e}", request.index))
                .collect(),
            deviations: checked.deviations,
            limit_errors: Vec::new(),
            command: None,
            answer: None,
            route: checked.route,
            time: Duration::ZERO,
        };
        if found.route.as_deref().is_some_and(is_command_registration) {
            (found.limit_errors, found.command) = command_limits(request.body);
        }
        // The spec documents no 5xx answers; Discord sends them in outages, and the stand-in only
        // when a test injects them as faults.
        if let Some(route) = found.route.as_deref().filter(|_| status < 500) {
            let mut body = Cow::Borrowed(body);
            for deviation in ANSWER_DEVIATIONS {
                if (deviation.applies)(status, &body) {
                    (deviation.apply)(body.to_mut());
                    found.deviations.push(deviation.name);
                }
            }
            found.answer = Some(
                self.check_response(route, status, &body)
                    .map_err(|e| format!("{route} answered {status}: {e}")),
            );
        }
        found.time = begun.elapsed();
        found
    }
}

fn is_command_registration(route: &str) -> bool {
    route == "PUT /applications/{application_id}/commands"
        || route == "PUT /applications/{application_id}/guilds/{guild_id}/commands"
}

/// A request as the stand-in received it.
pub struct RequestParts<'a> {
    /// Order of arrival, to find it among the recorded requests.
    pub index: usize,
    /// `GET`, `POST`, ...
    pub method: &'a str,
    /// The full path, e.g. `/api/v10/channels/1/messages`.
    pub path: &'a str,
    /// The query string without `?`.
    pub query: &'a str,
    /// The JSON body or multipart `payload_json` (`Null` if none).
    pub body: &'a Value,
    /// Whether the body was `multipart/form-data`.
    pub multipart: bool,
    /// The form fields of uploaded files (`files[0]`, ...).
    pub file_fields: Vec<&'a str>,
    /// Why the body could not be parsed, if it could not.
    pub parse_error: Option<&'a str>,
}

struct Checked {
    route: Option<RouteKey>,
    errors: Vec<String>,
    deviations: Vec<&'static str>,
}

/// At most this many schema errors are listed per request.
const MAX_ERRORS: usize = 5;

impl Spec {
    /// Reads and parses the description at `path`; the error names the path and what is wrong.
    pub fn read(path: &str) -> Result<Spec, String> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "cannot read Discord's OpenAPI description at {path}: {e} (it is part of the \
                 workplace: the repository is expected to have `shared/discord-api/` beside it)"
            )
        })?;
        let doc: Value =
            serde_json::from_str(&text).map_err(|e| format!("{path} is not valid JSON: {e}"))?;
        Spec::from_value(doc).map_err(|e| format!("{path}: {e}"))
    }

    /// Builds the route table of a parsed description.
    pub fn from_value(doc: Value) -> Result<Spec, String> {
        if doc["components"]["schemas"].as_object().is_none() {
            return Err("no components.schemas: not an OpenAPI description".into());
        }
        let paths = doc["paths"]
            .as_object()
            .ok_or("no paths: not an OpenAPI description")?;
        let templates = paths
            .keys()
            .map(|text| Template {
                text: text.clone(),
                segments: text
                    .trim_start_matches('/')
                    .split('/')
                    .map(
                        |s| match s.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                            Some(name) => Segment::Param(name.to_string()),
                            None => Segment::Literal(s.to_string()),
                        },
                    )
                    .collect(),
            })
            .collect();
        Ok(Spec {
            doc,
            templates,
            validators: Mutex::new(HashMap::new()),
        })
    }

    /// The template matching `path` (below `/api/v10`), preferring literal segments (`@original` over
    /// `{message_id}`), and the values of its parameters.
    fn match_path<'p>(&self, path: &'p str) -> Option<(&Template, Vec<(&str, &'p str)>)> {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let mut best: Option<(&Template, usize)> = None;
        for template in &self.templates {
            if template.segments.len() != parts.len() {
                continue;
            }
            let mut literals = 0;
            let fits = template.segments.iter().zip(&parts).all(|(s, p)| match s {
                Segment::Literal(l) => {
                    literals += 1;
                    l == p
                }
                Segment::Param(_) => !p.is_empty(),
            });
            if fits && best.is_none_or(|(_, n)| literals > n) {
                best = Some((template, literals));
            }
        }
        let (template, _) = best?;
        let params = template
            .segments
            .iter()
            .zip(parts)
            .filter_map(|(s, p)| match s {
                Segment::Param(name) => Some((name.as_str(), p)),
                Segment::Literal(_) => None,
            })
            .collect();
        Some((template, params))
    }

    fn check_request(&self, request: &RequestParts<'_>) -> Checked {
        let mut checked = Checked {
            route: None,
            errors: Vec::new(),
            deviations: Vec::new(),
        };
        let Some(path) = request.path.strip_prefix("/api/v10") else {
            checked
                .errors
                .push("not under /api/v10 (the REST API version the spec describes)".into());
            return checked;
        };
        let Some((template, params)) = self.match_path(path) else {
            checked
                .errors
                .push("no such path in Discord's API description".into());
            return checked;
        };
        let item = &self.doc["paths"][&template.text];
        let method = request.method.to_ascii_lowercase();
        let operation = &item[&method];
        if !operation.is_object() {
            checked
                .errors
                .push("method not documented for this path".into());
            return checked;
        }
        checked.route = Some(format!("{} {}", request.method, template.text));
        let parameters = |place: &str| -> Vec<&Value> {
            item["parameters"]
                .as_array()
                .into_iter()
                .chain(operation["parameters"].as_array())
                .flatten()
                .filter(|p| p["in"] == place)
                .collect()
        };

        let path_parameters = parameters("path");
        for (name, value) in params {
            let schema = path_parameters
                .iter()
                .find(|p| p["name"] == name)
                .map(|p| &p["schema"]);
            if let Some(schema) = schema {
                let instance = self.coerce(schema, value);
                if let Err(e) = self.validate(schema, &instance) {
                    checked.errors.push(format!("path parameter {name}: {e}"));
                }
            }
        }

        let query_parameters = parameters("query");
        for pair in request.query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            match query_parameters.iter().find(|p| p["name"] == name) {
                None => checked
                    .errors
                    .push(format!("query parameter {name:?} is not documented")),
                Some(parameter) => {
                    let instance = self.coerce(&parameter["schema"], value);
                    if let Err(e) = self.validate(&parameter["schema"], &instance) {
                        checked.errors.push(format!("query parameter {name}: {e}"));
                    }
                }
            }
        }

        if let Some(error) = request.parse_error {
            checked.errors.push(format!("body: {error}"));
            return checked;
        }
        let content = &operation["requestBody"]["content"];
        let has_body = !request.body.is_null() || !request.file_fields.is_empty();
        if !has_body {
            if operation["requestBody"]["required"] == true {
                checked
                    .errors
                    .push("the spec requires a body and there is none".into());
            }
            return checked;
        }
        let media = if request.multipart {
            "multipart/form-data"
        } else {
            "application/json"
        };
        let Some(schema) = content.get(media).map(|m| &m["schema"]) else {
            checked
                .errors
                .push(format!("the spec documents no {media} body here"));
            return checked;
        };
        let mut body = request.body.clone();
        if request.multipart {
            if body.is_null() {
                body = json!({});
            }
            // Files are form fields of their own beside `payload_json`; the multipart schema names
            // them (`files[0]`, ...) as binary strings.
            if let Some(object) = body.as_object_mut() {
                for field in &request.file_fields {
                    object.insert((*field).to_string(), json!(""));
                }
            }
        }
        for deviation in DEVIATIONS {
            if (deviation.apply)(&mut body) {
                checked.deviations.push(deviation.name);
            }
        }
        if let Err(e) = self.validate(schema, &body) {
            checked.errors.push(format!("body: {e}"));
        }
        checked
    }

    /// Checks an answer of the stand-in to a request on `route` (`METHOD template`).
    pub fn check_response(&self, route: &str, status: u16, body: &Value) -> Result<(), String> {
        let (method, template) = route.split_once(' ').ok_or("not a route")?;
        let responses = &self.doc["paths"][template][method.to_ascii_lowercase()]["responses"];
        let class = format!("{}XX", status / 100);
        let response = [status.to_string(), class, "default".to_string()]
            .iter()
            .find_map(|key| responses.get(key.as_str()))
            .ok_or_else(|| format!("status {status} is not documented"))?;
        let response = self.resolve(response);
        let Some(schema) = response["content"]["application/json"].get("schema") else {
            return if body.is_null() {
                Ok(())
            } else {
                Err(format!(
                    "status {status} documents no body, but one was sent"
                ))
            };
        };
        self.validate(schema, body)
    }

    /// Follows a `$ref` to `#/components/...` (responses, parameters), one level.
    fn resolve<'a>(&'a self, value: &'a Value) -> &'a Value {
        match value["$ref"].as_str().and_then(|r| r.strip_prefix('#')) {
            Some(pointer) => self.doc.pointer(pointer).unwrap_or(value),
            None => value,
        }
    }

    /// A path or query parameter's text as the JSON value its schema types it as.
    fn coerce(&self, schema: &Value, text: &str) -> Value {
        let schema = self.resolve(schema);
        let types: Vec<&str> = match &schema["type"] {
            Value::String(t) => vec![t.as_str()],
            Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if types.contains(&"boolean") {
            if let Ok(b) = text.parse::<bool>() {
                return json!(b);
            }
        }
        if types.contains(&"integer") || types.contains(&"number") {
            if let Ok(n) = text.parse::<i64>() {
                return json!(n);
            }
        }
        json!(text)
    }

    /// Validates `instance` against `schema` (a schema object of the spec, `$ref`s included).
    pub fn validate(&self, schema: &Value, instance: &Value) -> Result<(), String> {
        let errors = self.errors(schema, instance, 0)?;
        if errors.is_empty() {
            return Ok(());
        }
        let listed: Vec<String> = errors
            .iter()
            .map(|(at, message)| {
                let at = if at.is_empty() { "/" } else { at };
                format!("at {at}: {message}")
            })
            .collect();
        Err(listed.join("; "))
    }

    /// The errors of `instance` against `schema`, as (instance path, message). A failed `oneOf` or
    /// `anyOf` (nullable fields, unions of components) only says that no alternative matched: it is
    /// replaced by the errors of the alternative that came closest, so the message names the field.
    fn errors(
        &self,
        schema: &Value,
        instance: &Value,
        depth: usize,
    ) -> Result<Vec<(String, String)>, String> {
        let validator = self.validator(schema)?;
        let mut found = Vec::new();
        for error in validator.iter_errors(instance).take(MAX_ERRORS) {
            let at = error.instance_path().to_string();
            let keyword = error.kind().keyword();
            // The keyword's place: a JSON pointer into the components, or into `schema` itself.
            let pointer = error.schema_path().to_string();
            let alternatives = (depth < 6 && (keyword == "oneOf" || keyword == "anyOf"))
                .then(|| {
                    let inside = if pointer.starts_with("/components/") {
                        &self.doc
                    } else {
                        schema
                    };
                    inside.pointer(&pointer)?.as_array().cloned()
                })
                .flatten();
            let closest = alternatives.and_then(|alternatives| {
                let sub_instance = error.instance();
                alternatives
                    .iter()
                    .filter(|a| a["type"] != "null" || sub_instance.is_null())
                    .filter_map(|a| self.errors(a, sub_instance, depth + 1).ok())
                    .filter(|errors| !errors.is_empty())
                    // The alternative whose `type` matched, then the one with fewest errors.
                    .min_by_key(|errors| {
                        let wrong_kind = errors.iter().any(|(p, _)| p == "/type");
                        (wrong_kind, errors.len())
                    })
            });
            match closest {
                Some(errors) => found.extend(
                    errors
                        .into_iter()
                        .map(|(sub, message)| (format!("{at}{sub}"), message)),
                ),
                None => found.push((at, shorten(&error.to_string(), 300))),
            }
        }
        Ok(found)
    }

    /// The compiled validator of `schema`, compiled on first use inside a document that carries the
    /// spec's `components`, so that `#/components/schemas/...` resolves.
    fn validator(&self, schema: &Value) -> Result<Arc<Validator>, String> {
        let key = schema.to_string();
        let mut cache = self.validators.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(validator) = cache.get(&key) {
            return Ok(Arc::clone(validator));
        }
        let mut document = match schema {
            Value::Object(map) => map.clone(),
            other => {
                let mut map = Map::new();
                map.insert("allOf".into(), json!([other]));
                map
            }
        };
        document.insert("components".into(), self.doc["components"].clone());
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&Value::Object(document))
            .map_err(|e| {
                format!(
                    "the spec's schema {} does not compile: {e}",
                    shorten(&key, 200)
                )
            })?;
        let validator = Arc::new(validator);
        cache.insert(key, Arc::clone(&validator));
        Ok(validator)
    }
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    format!("{cut}…")
}

/// Checks a `PUT .../commands` body against the limits Discord enforces and the spec leaves out:
/// the combined size of each command (names, descriptions and choice values, counting the longest
/// localization of each field), at most 25 options per command/subcommand/group and 25 choices per
/// option. Returns the problems and the largest command (name, size).
pub fn command_limits(body: &Value) -> (Vec<String>, Option<(String, usize)>) {
    let mut errors = Vec::new();
    let mut largest: Option<(String, usize)> = None;
    for command in body.as_array().into_iter().flatten() {
        let name = command["name"].as_str().unwrap_or("?").to_string();
        let size = command_size(command);
        if size > COMMAND_SIZE_LIMIT {
            errors.push(format!(
                "/{name} has {size} characters of names, descriptions and values; Discord allows \
                 {COMMAND_SIZE_LIMIT}"
            ));
        }
        if largest.as_ref().is_none_or(|(_, s)| size > *s) {
            largest = Some((name.clone(), size));
        }
        count_options(command, &format!("/{name}"), &mut errors);
    }
    (errors, largest)
}

/// The longest of a field and its localizations, in characters.
fn longest(object: &Value, field: &str) -> usize {
    let default = match &object[field] {
        Value::String(s) => s.chars().count(),
        Value::Null => 0,
        other => other.to_string().chars().count(),
    };
    let localized = object[format!("{field}_localizations")]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values())
        .filter_map(Value::as_str)
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0);
    default.max(localized)
}

/// Size of a command, an option or a choice, with everything below it.
fn command_size(item: &Value) -> usize {
    let own = longest(item, "name") + longest(item, "description") + longest(item, "value");
    let options: usize = item["options"]
        .as_array()
        .into_iter()
        .flatten()
        .map(command_size)
        .sum();
    let choices: usize = item["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .map(command_size)
        .sum();
    own + options + choices
}

fn count_options(item: &Value, label: &str, errors: &mut Vec<String>) {
    let options = item["options"].as_array().map_or(&[][..], Vec::as_slice);
    if options.len() > MAX_OPTIONS {
        errors.push(format!(
            "{label} has {} options; Discord allows {MAX_OPTIONS}",
            options.len()
        ));
    }
    let choices = item["choices"].as_array().map_or(0, Vec::len);
    if choices > MAX_CHOICES {
        errors.push(format!(
            "{label} has {choices} choices; Discord allows {MAX_CHOICES}"
        ));
    }
    for option in options {
        let name = option["name"].as_str().unwrap_or("?");
        count_options(option, &format!("{label} {name}"), errors);
    }
}
