//! Real headless Chromium for the tests of the web page: `chromedriver` started on a free port of
//! 127.0.0.1, browser sessions of headless Chromium through it (the fantoccini WebDriver client, spoken to
//! in plain HTTP on the loopback), helpers that wait on and click what the page's DOM contract names
//! (`body[data-ready]`, `data-version`, `[data-card]`, `[data-cell]`, `#confirm`), screenshots, and the bot
//! started in local mode (no Discord token, the pages on a port of its own). For the Activity (issue 47):
//! a window turned into Discord's side of the Activity ([`Page::open_activity`]: a parent document on the
//! bot's origin that answers the real Embedded App SDK's handshake), and a collector of everything a page
//! receives ([`Page::install_collector`]). What the tests of both share: a whole game's turns counted
//! ([`WholeGame`]), the end shown on a page ([`shows_result`]), the fit on a phone's width
//! ([`fits_width`]), a move chosen by tapping ([`Page::tap_first_target`]) and the pictures
//! ([`shot`]).
//!
//! Debian's `chromium` and `chromium-driver` packages provide the two programs (`.ci/run` installs them).
//! Without them a test prints a note and passes without doing anything, except when `CI` is set: then it
//! fails, so that CI cannot pass without having run the browser.

use std::collections::BTreeSet;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// How long one step on a page (an answer, a redraw, a computer's move) may take.
pub const PAGE_STEP: Duration = Duration::from_secs(30);

/// Finds an executable by name on `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// Whether the tests must run the browser (CI): `CI` set to anything but empty, `0` or `false`.
pub fn browser_required() -> bool {
    std::env::var("CI")
        .map(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
        .unwrap_or(false)
}

/// A port of 127.0.0.1 that was free a moment ago.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port on 127.0.0.1")
        .port()
}

/// GETs `url` (plain HTTP): status and body.
pub async fn http_get(url: &str) -> Result<(u16, String), String> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .no_proxy()
        .build()
        .map_err(|e| e.to_string())?;
    let answer = client.get(url).send().await.map_err(|e| e.to_string())?;
    let status = answer.status().as_u16();
    let body = answer.text().await.map_err(|e| e.to_string())?;
    Ok((status, body))
}

/// A running `chromedriver`; stopped when dropped.
pub struct Browser {
    driver: Child,
    url: String,
    chromium: PathBuf,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Browser {
    /// Starts `chromedriver` for the test `test`. `None` (with a note on standard error) when Chromium
    /// or its driver is not installed; a panic instead when [`browser_required`].
    pub async fn start(test: &str) -> Option<Browser> {
        let chromium = which("chromium").or_else(|| which("chromium-browser"));
        let driver = which("chromedriver");
        let (chromium, driver) = match (chromium, driver) {
            (Some(c), Some(d)) => (c, d),
            (chromium, driver) => {
                let missing = [
                    chromium.is_none().then_some("chromium"),
                    driver.is_none().then_some("chromedriver"),
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" and ");
                if browser_required() {
                    panic!(
                        "{test}: CI is set, so the browser tests must run, but {missing} is not \
                         installed (Debian: apt-get install chromium chromium-driver)"
                    );
                }
                eprintln!(
                    "{test}: skipped: {missing} not installed (Debian: apt-get install chromium \
                     chromium-driver); set CI to make this a failure"
                );
                return None;
            }
        };
        let dir = tempfile::tempdir().expect("a folder for chromedriver");
        let log = dir.path().join("chromedriver.log");
        // The port is chosen free, then taken by the driver: another process may take it in between,
        // so a driver that does not answer is tried again on another port.
        let mut last_error = String::new();
        for _ in 0..3 {
            let port = free_port();
            let mut command = Command::new(&driver);
            // A process group of its own, with the browsers it starts: all of them are stopped together
            // when the test ends, even one that failed before closing its sessions.
            #[cfg(unix)]
            std::os::unix::process::CommandExt::process_group(&mut command, 0);
            let mut child = command
                .arg(format!("--port={port}"))
                .arg(format!("--log-path={}", log.display()))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("{test}: start {}: {e}", driver.display()));
            let url = format!("http://127.0.0.1:{port}");
            let deadline = Instant::now() + Duration::from_secs(20);
            loop {
                if let Ok((200, body)) = http_get(&format!("{url}/status")).await {
                    let status: Value = serde_json::from_str(&body).unwrap_or_default();
                    if status["value"]["ready"] == json!(true) {
                        return Some(Browser {
                            driver: child,
                            url,
                            chromium,
                            log,
                            _dir: dir,
                        });
                    }
                }
                if matches!(child.try_wait(), Ok(Some(_))) || Instant::now() >= deadline {
                    last_error = std::fs::read_to_string(&log).unwrap_or_default();
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        panic!("{test}: chromedriver did not start:\n{last_error}");
    }

    /// Opens a new browser session (a window of its own, with its own cookies: another guest) of
    /// `width` x `height` CSS pixels.
    pub async fn open(&self, width: u32, height: u32) -> Page {
        self.open_with(width, height, false).await
    }

    /// Opens a session that emulates a phone held upright: `width` x `height` CSS pixels, a touch
    /// screen, the page's `viewport` meta tag honoured and overlay scroll bars, as on a phone.
    pub async fn open_phone(&self, width: u32, height: u32) -> Page {
        self.open_with(width, height, true).await
    }

    async fn open_with(&self, width: u32, height: u32, phone: bool) -> Page {
        let mut options = json!({
            "binary": self.chromium.display().to_string(),
            "args": [
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--lang=en-US",
                format!("--window-size={width},{height}"),
            ],
            "prefs": {"intl.accept_languages": "en-US,en"},
        });
        if phone {
            options["mobileEmulation"] = json!({
                "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0, "mobile": true, "touch": true},
                "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) \
                              Chrome/120.0 Mobile Safari/537.36",
            });
        }
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("browserName".into(), json!("chrome"));
        capabilities.insert("goog:chromeOptions".into(), options);
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(capabilities)
            .connect(&self.url)
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "a Chromium session: {e}\nchromedriver log:\n{}",
                    tail(&std::fs::read_to_string(&self.log).unwrap_or_default(), 30)
                )
            });
        if !phone {
            // The window's inner size is what the page gets (headless Chromium has no frame to speak of,
            // but set it as asked in case).
            let _ = client.set_window_size(width, height).await;
        }
        Page {
            client,
            base: String::new(),
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The driver's process group: chromedriver and the Chromium processes it started.
        #[cfg(unix)]
        if let Ok(group) = i32::try_from(self.driver.id()) {
            // SAFETY: kill(2) with a negative pid signals that process group; no memory is involved.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// The last `lines` lines of `text`.
pub fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// One browser session on the bot's pages.
pub struct Page {
    client: Client,
    base: String,
}

impl Page {
    /// The WebDriver client, for what the helpers below do not cover.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Opens `url` (absolute, or a path on the last base opened).
    pub async fn goto(&mut self, url: &str) {
        let url = if url.starts_with("http") {
            if let Some(rest) = url.strip_prefix("http://") {
                let host_end = rest.find('/').unwrap_or(rest.len());
                self.base = format!("http://{}", &rest[..host_end]);
            }
            url.to_string()
        } else {
            format!("{}{url}", self.base)
        };
        self.client
            .goto(&url)
            .await
            .unwrap_or_else(|e| panic!("open {url}: {e}"));
    }

    /// The page's current address.
    pub async fn url(&self) -> String {
        self.client
            .current_url()
            .await
            .map(|u| u.to_string())
            .unwrap_or_default()
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page: what it returns.
    pub async fn eval(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Runs `script` in the page until it returns something truthy (other than `false`, `null`, `0` or
    /// an empty string), up to `limit`: that value. A failure names `what` and shows the page's state.
    pub async fn wait_for(&self, what: &str, script: &str, limit: Duration) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            let value = self.client.execute(script, vec![]).await;
            if let Ok(value) = &value {
                let truthy = match value {
                    Value::Null => false,
                    Value::Bool(b) => *b,
                    Value::Number(n) => n.as_f64() != Some(0.0),
                    Value::String(s) => !s.is_empty(),
                    _ => true,
                };
                if truthy {
                    return value.clone();
                }
            }
            if Instant::now() >= deadline {
                panic!(
                    "waited {limit:?} for {what} (last: {value:?})\npage state: {}",
                    self.describe().await
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// A short account of the page for failure messages: address, status, message, version, hand.
    pub async fn describe(&self) -> String {
        let state = self
            .client
            .execute(
                "const t = s => { const e = document.querySelector(s); return e ? e.textContent.trim() : null; };
                 return JSON.stringify({
                   url: location.href,
                   ready: document.body && document.body.dataset.ready,
                   version: document.body && document.body.dataset.version,
                   status: t('#status'), message: t('#message'),
                   live: !!document.querySelector('#live.connected'),
                   hand: [...document.querySelectorAll('#hand [data-card]')].map(b => b.dataset.card + (b.classList.contains('dead') ? '(dead)' : '')),
                   targets: [...document.querySelectorAll('#board .target')].map(g => g.dataset.cell),
                   actions: [...document.querySelectorAll('[data-action]')].map(b => b.dataset.action),
                   body: (document.body ? document.body.innerText : '').slice(0, 400),
                 });",
                vec![],
            )
            .await;
        match state {
            Ok(Value::String(s)) => s,
            other => format!("{other:?}"),
        }
    }

    /// Waits until the page has drawn its first full view (`body[data-ready="1"]`).
    pub async fn wait_ready(&self) {
        self.wait_for(
            "the page to be drawn (body[data-ready=1])",
            "return document.body && document.body.dataset.ready === '1';",
            PAGE_STEP,
        )
        .await;
    }

    /// The version of the last view the page drew (`body[data-version]`; 0 before any).
    pub async fn version(&self) -> u64 {
        self.eval(
            "return Number((document.body && document.body.dataset.version) || 0);",
            vec![],
        )
        .await
        .as_u64()
        .unwrap_or(0)
    }

    /// Waits until the page has drawn a view newer than `version`: its version.
    pub async fn wait_version_above(&self, version: u64) -> u64 {
        self.wait_for(
            &format!("a view newer than version {version}"),
            &format!(
                "const v = Number((document.body && document.body.dataset.version) || 0); \
                 return v > {version} ? v : 0;"
            ),
            PAGE_STEP,
        )
        .await
        .as_u64()
        .unwrap_or(0)
    }

    /// Whether an element matches `css`.
    pub async fn exists(&self, css: &str) -> bool {
        self.eval(
            "return !!document.querySelector(arguments[0]);",
            vec![json!(css)],
        )
        .await
        .as_bool()
        .unwrap_or(false)
    }

    /// How many elements match `css`.
    pub async fn count(&self, css: &str) -> usize {
        self.eval(
            "return document.querySelectorAll(arguments[0]).length;",
            vec![json!(css)],
        )
        .await
        .as_u64()
        .unwrap_or(0) as usize
    }

    /// The text of the first element matching `css` (empty if none).
    pub async fn text(&self, css: &str) -> String {
        self.eval(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : '';",
            vec![json!(css)],
        )
        .await
        .as_str()
        .unwrap_or("")
        .to_string()
    }

    /// Clicks the first element matching `css` the way a person would (WebDriver's element click: the
    /// element is scrolled into view and must be the one under the pointer).
    /// A live frame may draw the element anew between finding and clicking it (a stale element):
    /// then it is found again, as a person's next tap would find the new button.
    pub async fn click(&self, css: &str) {
        let mut tries = 0;
        loop {
            let element = self.find(css).await;
            match element.click().await {
                Ok(_) => return,
                Err(e) if tries < 3 && e.to_string().contains("stale element") => tries += 1,
                Err(e) => panic!("click {css}: {e}\npage state: {}", self.describe().await),
            }
        }
    }

    /// The first element matching `css`, once there is one (up to [`PAGE_STEP`]).
    async fn find(&self, css: &str) -> fantoccini::elements::Element {
        self.client
            .wait()
            .at_most(PAGE_STEP)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("find {css}: {e}"))
    }

    /// Types `text` into the field matching `css` (emptied first).
    pub async fn type_into(&self, css: &str, text: &str) {
        let element = self.find(css).await;
        element
            .clear()
            .await
            .unwrap_or_else(|e| panic!("clear {css}: {e}"));
        element
            .send_keys(text)
            .await
            .unwrap_or_else(|e| panic!("type into {css}: {e}"));
    }

    /// Chooses the option `value` of the `<select>` matching `css`.
    pub async fn select(&self, css: &str, value: &str) {
        let element = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("find {css}: {e}"));
        element
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("select {value} in {css}: {e}"));
    }

    /// Clicks the card `code` of the hand (`#hand [data-card=..]`).
    pub async fn click_card(&self, code: &str) {
        self.click(&format!("#hand [data-card=\"{code}\"]")).await;
    }

    /// Clicks the cell `name` of the board (`#board [data-cell=..]`).
    pub async fn click_cell(&self, name: &str) {
        self.click(&format!("#board [data-cell=\"{name}\"]")).await;
    }

    /// Clicks `#confirm`.
    pub async fn confirm(&self) {
        self.click("#confirm").await;
    }

    /// Clicks the action button `action` (`[data-action=..]`).
    pub async fn action(&self, action: &str) {
        self.click(&format!("[data-action=\"{action}\"]")).await;
    }

    /// Taps the cards of `hand` in turn until one marks a cell, then its first marked cell: that card and
    /// cell (`None`, and the last card left chosen, when no card marks one). A page that asks for
    /// `#confirm` then waits for it.
    pub async fn tap_first_target(&self, hand: &[(String, bool)]) -> Option<(String, String)> {
        for (card, _) in hand {
            self.click_card(card).await;
            if let Some(cell) = self.targets().await.first().cloned() {
                self.click_cell(&cell).await;
                return Some((card.clone(), cell));
            }
        }
        None
    }

    /// The cards of the hand shown (`#hand [data-card]`), with whether each is marked dead.
    pub async fn hand(&self) -> Vec<(String, bool)> {
        let value = self
            .eval(
                "return [...document.querySelectorAll('#hand [data-card]')]
                   .map(b => [b.dataset.card, b.classList.contains('dead')]);",
                vec![],
            )
            .await;
        value
            .as_array()
            .map(|cards| {
                cards
                    .iter()
                    .map(|c| (c[0].as_str().unwrap_or("").to_string(), c[1] == json!(true)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The cells marked as targets (`#board .target[data-cell]`).
    pub async fn targets(&self) -> Vec<String> {
        self.eval(
            "return [...document.querySelectorAll('#board .target')]
               .map(g => g.dataset.cell || (g.closest('[data-cell]') || {dataset: {}}).dataset.cell)
               .filter(c => c);",
            vec![],
        )
        .await
        .as_array()
        .map(|cells| {
            cells
                .iter()
                .filter_map(|c| c.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
    }

    /// The chips on the board as a person sees them: `cell:team` for each chip
    /// (`#board circle.chip[data-team]`), its cell the `[data-cell]` whose box holds the chip's centre on
    /// the screen; sorted.
    pub async fn chips(&self) -> Vec<String> {
        let value = self
            .eval(
                "const cells = [...document.querySelectorAll('#board [data-cell]')]
                   .map(g => [g.dataset.cell, g.getBoundingClientRect()]);
                 return [...document.querySelectorAll('#board circle.chip')].map(c => {
                   const b = c.getBoundingClientRect();
                   const x = b.left + b.width / 2, y = b.top + b.height / 2;
                   const cell = cells.find(([, r]) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom);
                   return (cell ? cell[0] : '?') + ':' + c.dataset.team;
                 });",
                vec![],
            )
            .await;
        let mut chips: Vec<String> = value
            .as_array()
            .map(|chips| {
                chips
                    .iter()
                    .filter_map(|c| c.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        chips.sort();
        chips
    }

    /// GETs `path` of the page's site from inside the page (its cookies, its session): the JSON answer.
    pub async fn fetch_json(&self, path: &str) -> Value {
        let value = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 fetch(arguments[0], {credentials: 'same-origin'})
                   .then(r => r.json().then(j => done({status: r.status, body: j})))
                   .catch(e => done({status: 0, error: String(e)}));",
                vec![json!(path)],
            )
            .await
            .unwrap_or_else(|e| panic!("fetch {path}: {e}"));
        if value["status"] != json!(200) {
            panic!("GET {path} from the page: {value}");
        }
        value["body"].clone()
    }

    /// The page's game token, from its address (`/g/{token}`).
    pub async fn game_token(&self) -> Option<String> {
        let url = self.url().await;
        let start = url.find("/g/")? + 3;
        let token: String = url[start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        (!token.is_empty()).then_some(token)
    }

    /// A PNG of what the window shows.
    pub async fn screenshot_png(&self) -> Vec<u8> {
        self.client
            .screenshot()
            .await
            .unwrap_or_else(|e| panic!("screenshot: {e}"))
    }

    /// Saves the picture `name` of what the window shows (where [`shot`] says).
    pub async fn picture(&self, name: &str) {
        self.screenshot(&shot(name)).await;
    }

    /// Saves a PNG of what the window shows to `path` (its folder created).
    pub async fn screenshot(&self, path: &Path) {
        let png = self.screenshot_png().await;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("the screenshot's folder");
        }
        std::fs::write(path, png).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }

    /// Runs `source` in every document this session loads from now on, before the page's own scripts
    /// (Chromium's DevTools command `Page.addScriptToEvaluateOnNewDocument`, through chromedriver).
    pub async fn on_new_document(&self, source: &str) {
        self.client
            .issue_cmd(DevTools {
                cmd: "Page.addScriptToEvaluateOnNewDocument",
                params: json!({ "source": source }),
            })
            .await
            .unwrap_or_else(|e| panic!("Page.addScriptToEvaluateOnNewDocument: {e}"));
    }

    /// Makes every page this session loads note when it sets `body[data-ready="1"]` (its first full
    /// draw) and when the browser has painted it: read with [`Page::draw_figures`].
    pub async fn install_draw_timer(&self) {
        self.on_new_document(
            "(() => {
               const perf = window.__sbDraw = {ready: null, painted: null};
               new MutationObserver(() => {
                 if (perf.ready === null && document.body && document.body.dataset.ready === '1') {
                   perf.ready = performance.now();
                   requestAnimationFrame(() => setTimeout(() => { perf.painted = performance.now(); }, 0));
                 }
               }).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-ready']});
             })();",
        )
        .await;
    }

    /// The figures of the last page loaded with [`Page::install_draw_timer`] on: when its data had
    /// arrived (the last `/api/` answer before the first full draw, ms since the navigation began), when
    /// the first full draw was done and painted, the draw's time after the data (`first_draw_ms`,
    /// `to_paint_ms`), and the bytes of the page's own files (`page_bytes`: the document and every file
    /// of the bot's but its API answers, as decoded). `None` before the first draw.
    pub async fn draw_figures(&self) -> Option<Value> {
        let value = self
            .eval(
                "const p = window.__sbDraw;
                 if (!p || p.ready === null || p.painted === null) return null;
                 const all = performance.getEntriesByType('resource');
                 const api = all.filter(e => e.name.includes('/api/') && e.responseEnd <= p.ready);
                 const data = Math.max(0, ...api.map(e => e.responseEnd));
                 const nav = performance.getEntriesByType('navigation')[0];
                 const own = all.filter(e => e.name.startsWith(location.origin) && !e.name.includes('/api/'));
                 const bytes = (nav ? nav.decodedBodySize : 0) + own.reduce((s, e) => s + e.decodedBodySize, 0);
                 const r = x => Math.round(x * 10) / 10;
                 return {data_arrived_ms: r(data), ready_ms: r(p.ready), painted_ms: r(p.painted),
                         first_draw_ms: r(p.ready - data), to_paint_ms: r(p.painted - data),
                         page_bytes: bytes,
                         files: [[location.pathname, nav ? nav.decodedBodySize : 0],
                                 ...own.map(e => [new URL(e.name).pathname, e.decodedBodySize])],
                         api: api.map(e => new URL(e.name).pathname)};",
                vec![],
            )
            .await;
        (!value.is_null()).then_some(value)
    }

    /// Makes every document this session loads (frames too) keep what it receives: each answer of
    /// `fetch` (its address, status and body) and each WebSocket message, in `window.__sbReceived`
    /// (read with [`Page::received`]). The page's own scripts see the same answers. WebSocket messages
    /// can be held back from the page (`window.__sbHold.on = true`, as if the network were slow) and let
    /// through again ([`Page::hold_live`]).
    pub async fn install_collector(&self) {
        self.on_new_document(
            "(() => {
               if (window.__sbReceived) return;
               const got = window.__sbReceived = [];
               const hold = window.__sbHold = {on: false, queue: []};
               const realFetch = window.fetch.bind(window);
               window.fetch = async (...args) => {
                 const response = await realFetch(...args);
                 try {
                   const body = await response.clone().text();
                   got.push({kind: 'fetch', url: String(args[0] && args[0].url ? args[0].url : args[0]),
                             status: response.status, body});
                 } catch (_) {}
                 return response;
               };
               const Real = window.WebSocket;
               function Collected(url, protocols) {
                 const socket = protocols === undefined ? new Real(url) : new Real(url, protocols);
                 let handler = null;
                 Object.defineProperty(socket, 'onmessage', {get: () => handler, set: (h) => { handler = h; }});
                 socket.addEventListener('message', (event) => {
                   got.push({kind: 'ws', url: String(url), body: String(event.data)});
                   const deliver = () => { if (handler) handler.call(socket, event); };
                   if (hold.on) hold.queue.push(deliver); else deliver();
                 });
                 return socket;
               }
               Collected.prototype = Real.prototype;
               for (const key of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Collected[key] = Real[key];
               window.WebSocket = Collected;
             })();",
        )
        .await;
    }

    /// Everything the current document (or frame) received since it loaded, as
    /// [`Page::install_collector`] kept it: `{kind: "fetch"|"ws", url, status?, body}` each.
    pub async fn received(&self) -> Vec<Value> {
        self.eval("return window.__sbReceived || [];", vec![])
            .await
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// Holds the live channel's messages back from the page (`true`) or lets them through, the held
    /// ones first (`false`); they are collected either way.
    pub async fn hold_live(&self, on: bool) {
        self.eval(
            "const h = window.__sbHold; h.on = arguments[0];
             if (!h.on) { const q = h.queue.splice(0); for (const f of q) f(); }
             return true;",
            vec![json!(on)],
        )
        .await;
    }

    /// Turns this window into Discord's side of an Activity: a page on the bot's origin (`base` +
    /// `/api/geometry`, any document of the bot will do) is rewritten into the Activity's parent — a
    /// full-window `<iframe>` of `base` + `/?{launch query}` that answers the Embedded App SDK's
    /// handshake as Discord's client does (opcodes HANDSHAKE 0, FRAME 1; READY, then AUTHORIZE with the
    /// next of `codes`, AUTHENTICATE with `user`, every other command with an empty answer). Then the
    /// session's commands go to the frame (its `#board`, `#hand`…); [`Page::in_parent`] for the parent.
    pub async fn open_activity(&mut self, base: &str, launch: &ActivityLaunch) {
        self.goto(&format!("{base}/healthz")).await;
        let src = format!(
            "{base}/?frame_id={frame}&instance_id={instance}&channel_id={channel}{guild}&platform=desktop",
            frame = launch.frame_id,
            instance = launch.instance_id,
            channel = launch.channel_id,
            guild = launch
                .guild_id
                .map(|g| format!("&guild_id={g}"))
                .unwrap_or_default(),
        );
        self.eval(DISCORD_PARENT, vec![
            json!(src),
            json!(launch.codes),
            json!({"id": launch.user_id.to_string(), "username": launch.username, "global_name": launch.global_name}),
            json!({"id": launch.application_id.to_string(), "name": "Sequence"}),
        ])
        .await;
        self.enter_activity_frame().await;
    }

    /// Runs `what` on the parent of the Activity's frame (the stand-in for Discord's client, the whole
    /// window): what it returns. The session's commands go to the frame again afterwards.
    pub async fn in_parent<T>(&self, what: impl AsyncFnOnce(&Page) -> T) -> T {
        self.client
            .enter_parent_frame()
            .await
            .unwrap_or_else(|e| panic!("leave the frame: {e}"));
        let value = what(self).await;
        self.enter_activity_frame().await;
        value
    }

    /// Sends the session's commands to the Activity's frame (the parent's only `<iframe>`).
    async fn enter_activity_frame(&self) {
        self.client
            .enter_frame(0)
            .await
            .unwrap_or_else(|e| panic!("enter the Activity's frame: {e}"));
    }

    /// Ends the session (closes the browser window).
    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// What Discord's client tells an Activity it launches, and what it answers for the user.
#[derive(Clone, Debug)]
pub struct ActivityLaunch {
    /// The application's id (the SDK's `client_id`).
    pub application_id: u64,
    /// The frame's id (`frame_id`).
    pub frame_id: String,
    /// The instance's id (`instance_id`).
    pub instance_id: String,
    /// The channel it was launched in.
    pub channel_id: u64,
    /// Its server, if any.
    pub guild_id: Option<u64>,
    /// The user's id, username and display name (READY's and AUTHENTICATE's `user`).
    pub user_id: u64,
    /// The user's username.
    pub username: String,
    /// The user's display name.
    pub global_name: String,
    /// Authorization codes the stand-in issued for this user, given to AUTHORIZE one by one (a sign-in
    /// again takes the next); when none is left AUTHORIZE answers an error, as when a user refuses.
    pub codes: Vec<String>,
}

/// The script that turns a document of the bot's origin into the Activity's parent (see
/// [`Page::open_activity`]). Its arguments: the frame's address, the codes, the user, the application.
/// What it saw is kept in `window.__sbParent` (`seen`: the opcodes and commands, in order).
const DISCORD_PARENT: &str = r#"
const [src, codes, user, app] = arguments;
document.documentElement.innerHTML =
  '<head><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<style>html, body { margin: 0; height: 100%; background: #313338; overflow: hidden; }' +
  ' iframe { border: 0; width: 100%; height: 100%; display: block; }</style></head><body></body>';
const parent = window.__sbParent = { seen: [], codes: codes.slice(), handshake: null };
const frame = document.createElement('iframe');
frame.id = 'activity';
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, data] = event.data;
  const send = (payload) => frame.contentWindow.postMessage([1, payload], location.origin);
  if (opcode === 0) {
    parent.seen.push('HANDSHAKE');
    parent.handshake = data;
    send({ cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {
      v: 1,
      config: { cdn_host: 'cdn.discordapp.com', api_endpoint: '//discord.com/api', environment: 'production' },
      user: { id: user.id, username: user.username, discriminator: '0' },
    } });
    return;
  }
  if (opcode !== 1 || !data || typeof data.cmd !== 'string') return;
  parent.seen.push(data.cmd);
  const refuse = (code, message) => send({ cmd: data.cmd, evt: 'ERROR', nonce: data.nonce, data: { code, message } });
  let answer = null;
  if (data.cmd === 'AUTHORIZE') {
    const args = data.args || {};
    if (args.client_id !== app.id || !(args.scope || []).includes('identify')) return refuse(4000, 'bad authorize');
    const code = parent.codes.shift();
    if (!code) return refuse(5000, 'the user closed the authorization');
    answer = { code };
  } else if (data.cmd === 'AUTHENTICATE') {
    answer = {
      access_token: data.args.access_token,
      user: { username: user.username, discriminator: '0', id: user.id, avatar: null, public_flags: 0, global_name: user.global_name },
      scopes: ['identify'],
      expires: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString(),
      application: { id: app.id, name: app.name, description: '', icon: null },
    };
  }
  send({ cmd: data.cmd, evt: null, nonce: data.nonce, data: answer });
});
frame.src = src;
document.body.append(frame);
return true;
"#;

/// A command of Chromium's DevTools protocol sent through chromedriver (`goog/cdp/execute`).
#[derive(Debug)]
struct DevTools {
    cmd: &'static str,
    params: Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for DevTools {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({"cmd": self.cmd, "params": self.params});
        (http::Method::POST, Some(body.to_string()))
    }
}

/// Where the tests keep the screenshots they take along the way (not the committed ones):
/// `target/tmp/web/NAME.png`.
pub fn scratch_screenshot(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("web")
        .join(format!("{name}.png"))
}

/// Where the picture `name` goes: `assets/examples/NAME.png` when `SEQUENCE_WRITE_EXAMPLES` is set
/// (to renew the committed pictures README shows), else the tests' scratch folder.
pub fn shot(name: &str) -> PathBuf {
    if std::env::var_os("SEQUENCE_WRITE_EXAMPLES").is_some_and(|v| !v.is_empty()) {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("assets/examples")
            .join(format!("{name}.png"))
    } else {
        scratch_screenshot(name)
    }
}

/// Whether the game of this answer of `GET /api/g/{token}` is over (or has become its replay).
pub fn is_over(answer: &Value) -> bool {
    answer["replay"] == json!(true)
        || matches!(
            answer["view"]["phase"].as_str(),
            Some("finished" | "between_games")
        )
}

/// The chips of a view (`view` of `GET /api/g/{token}`) as the page shows them: `cell:team`, sorted.
pub fn chips_of(view: &Value) -> BTreeSet<String> {
    view["board"]["cells"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| {
            Some(format!(
                "{}:{}",
                c["name"].as_str()?,
                c.get("chip")?.as_u64()?
            ))
        })
        .collect()
}

/// A whole game's turns, counted until it is over.
#[derive(Debug)]
pub struct WholeGame {
    most: usize,
    /// The turns counted so far.
    pub turns: usize,
}

impl WholeGame {
    /// A game that may take `most` turns before the test gives up on it.
    pub fn new(most: usize) -> WholeGame {
        WholeGame { most, turns: 0 }
    }

    /// Whether the game of `answer` (of `GET /api/g/{token}`) is over; if not, one more turn is
    /// counted, and past `most` turns the test fails.
    pub fn over(&mut self, answer: &Value) -> bool {
        if is_over(answer) {
            return true;
        }
        assert!(
            self.turns < self.most,
            "the game took more than {} turns",
            self.most
        );
        self.turns += 1;
        false
    }
}

/// Checks that `page` says how the game of `over` (the answer of `GET /api/g/{token}` that found it
/// over) ended: its `#status` says something, and the page shows the result's sentence (in what a
/// person sees of it).
pub async fn shows_result(page: &Page, over: &Value) {
    page.wait_for(
        "the result on the page",
        "const s = document.querySelector('#status'); return !!(s && s.textContent.trim());",
        PAGE_STEP,
    )
    .await;
    let result = over["view"]["texts"]["result"].as_str().unwrap_or("");
    if result.is_empty() {
        return;
    }
    let body = page.eval("return document.body.innerText;", vec![]).await;
    assert!(
        body.as_str().unwrap_or("").contains(result),
        "the page does not say how the game ended ({result}): {}",
        page.describe().await
    );
}

/// Checks that the page of `page` (or the Activity's frame it is in) fits a phone `width` CSS pixels
/// wide: the window is that wide, nothing scrolls sideways and the whole board is across it, at
/// least 300 px wide. What was measured: `inner_width`, `inner_height`, `scroll_width`, and the
/// board's box (`left`, `top`, `right`, `bottom`, `width`, `height`).
pub async fn fits_width(page: &Page, width: u32) -> Value {
    let fit = page
        .eval(
            "const d = document.documentElement;
             const b = document.querySelector('#board').getBoundingClientRect();
             return {scroll_width: d.scrollWidth, inner_width: window.innerWidth,
                     inner_height: window.innerHeight,
                     board: {left: b.left, top: b.top, right: b.right, bottom: b.bottom,
                             width: b.width, height: b.height}};",
            vec![],
        )
        .await;
    assert_eq!(
        fit["inner_width"],
        json!(width),
        "the window is {width} px wide: {fit}"
    );
    let width = f64::from(width);
    assert!(
        fit["scroll_width"].as_f64().unwrap_or(f64::MAX) <= width,
        "the page scrolls sideways at {width} px: {fit}"
    );
    let board = |side: &str| fit["board"][side].as_f64().unwrap_or(f64::NAN);
    assert!(
        board("left") >= 0.0 && board("right") <= width && board("width") >= 300.0,
        "the board is not whole across the screen: {fit}"
    );
    fit
}

/// Settings of a bot started in local mode.
#[derive(Clone, Debug, Default)]
pub struct LocalOptions {
    /// Milliseconds before each computer move.
    pub bot_delay_ms: u64,
    /// More configuration, appended at the end (whole sections).
    pub extra_config: String,
}

/// The real `sequence-bot` binary started WITHOUT a Discord token (local mode: the web pages, games
/// against computer players and friends) on a port of its own; killed when dropped.
pub struct LocalBot {
    child: Option<Child>,
    dir: tempfile::TempDir,
    port: u16,
    options: LocalOptions,
}

impl LocalBot {
    /// Starts the bot in a new folder and waits until its pages answer.
    pub async fn start(options: LocalOptions) -> LocalBot {
        let dir = tempfile::tempdir().expect("a folder for the bot");
        let mut bot = LocalBot {
            child: None,
            dir,
            port: free_port(),
            options,
        };
        bot.spawn();
        bot.wait_serving().await;
        bot
    }

    /// The pages' address, such as `http://127.0.0.1:40123`.
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The bot's folder.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    fn log_path(&self) -> PathBuf {
        self.dir.path().join("bot.log")
    }

    /// What the bot has logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    /// The last `lines` lines of the log.
    pub fn log_tail(&self, lines: usize) -> String {
        tail(&self.log(), lines)
    }

    fn spawn(&mut self) {
        let config = format!(
            "database = {database:?}\n\n\
             [timers]\nturn_reminder_secs = 3000\nturn_timeout_secs = 6000\nlobby_timeout_secs = 6000\n\
             bot_delay_ms = {delay}\ntick_secs = 1\n\n\
             [web]\nlisten = \"127.0.0.1:{port}\"\n\n{extra}\n",
            database = self
                .dir
                .path()
                .join("sequence-bot.sqlite3")
                .display()
                .to_string(),
            delay = self.options.bot_delay_ms,
            port = self.port,
            extra = self.options.extra_config,
        );
        let config_path = self.dir.path().join("config.toml");
        std::fs::write(&config_path, config).expect("write config.toml");
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log_path())
            .expect("the bot's log");
        let mut command = Command::new(env!("CARGO_BIN_EXE_sequence-bot"));
        command
            .arg("run")
            .arg("--config")
            .arg(&config_path)
            .current_dir(self.dir.path())
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("the bot's log"))
            .stderr(log)
            .env("RUST_LOG", "info");
        for key in super::bot::BOT_ENV {
            command.env_remove(key);
        }
        self.child = Some(command.spawn().expect("start sequence-bot"));
    }

    /// Waits until `GET /api/me` answers 200.
    pub async fn wait_serving(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        let url = format!("{}/api/me", self.base());
        loop {
            if let Ok((200, _)) = http_get(&url).await {
                return;
            }
            if let Some(child) = self.child.as_mut() {
                if let Ok(Some(status)) = child.try_wait() {
                    panic!(
                        "the bot stopped ({status}) before serving its pages\nbot log:\n{}",
                        self.log_tail(40)
                    );
                }
            }
            if Instant::now() >= deadline {
                panic!(
                    "the bot's pages did not answer within a minute\nbot log:\n{}",
                    self.log_tail(40)
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Kills the process at once (SIGKILL, as a crash would).
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the bot again in the same folder, on the same port (same database, same address: an
    /// open page reconnects to it), and waits until it serves.
    pub async fn restart(&mut self) {
        self.kill();
        self.spawn();
        self.wait_serving().await;
    }
}

impl Drop for LocalBot {
    fn drop(&mut self) {
        self.kill();
    }
}
