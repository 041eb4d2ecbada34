// Talking to the bot: JSON requests to this page's own host only, and the page's texts. Inside
// Discord's Activity frame every path takes the `/.proxy` prefix (Discord's proxy forwards it to the
// bot) and requests carry the Activity session's header instead of cookies.

let texts = {};

/** The Activity's session: its path prefix, its session id, its language, and how to sign in again. */
const activity = { prefix: '', session: null, lang: null, signIn: null, signingIn: null };

/** Switches to Activity mode: every path is prefixed with `prefix` (`/.proxy`). */
export function useActivity(prefix, signIn) {
  activity.prefix = prefix;
  activity.signIn = signIn;
}

/** The Activity session to send from now on (and its language), or `null`. */
export function setSession(session, lang) {
  activity.session = session;
  if (lang) activity.lang = lang;
}

/** Whether the page runs as the Activity. */
export function inActivity() {
  return activity.signIn !== null;
}

/** A path of the bot as this page must ask for it (`/.proxy` inside Discord). */
export function path(p) {
  return activity.prefix + p;
}

/** The page string `key`, its `{name}` holes filled from `vars`. */
export function t(key, vars = {}) {
  const text = texts[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (hole, name) => (name in vars ? String(vars[name]) : hole));
}

/** The language the page asks in (`en`, `de`, `no`), from the `sb_lang` cookie. */
export function chosenLang() {
  if (activity.lang) return activity.lang;
  const m = document.cookie.match(/(?:^|;\s*)sb_lang=(en|de|no)\b/);
  return m ? m[1] : null;
}

/** Remembers the chosen language for a year (the server reads the same cookie). */
export function chooseLang(lang) {
  // Inside Discord's frame cookies may not be kept: the choice holds for this page.
  if (inActivity()) activity.lang = lang;
  document.cookie = `sb_lang=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

function withLang(path) {
  const lang = chosenLang();
  if (!lang) return path;
  return path + (path.includes('?') ? '&' : '?') + 'lang=' + lang;
}

/** An error the server answered, with its sentence. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, (body && body.error) || `${response.status}`);
  }
  return body;
}

function headers(extra = {}) {
  const all = { ...extra };
  if (activity.session) all['X-Sequence-Activity'] = activity.session;
  return all;
}

/**
 * Signs in through Discord again (the bot forgot the session: restarted, or 12 hours passed), once
 * for all requests that found it gone at the same time.
 */
async function signInAgain() {
  if (!activity.signingIn) {
    activity.signingIn = activity.signIn().finally(() => {
      activity.signingIn = null;
    });
  }
  await activity.signingIn;
}

/** Sends a request; inside Discord, a 401 signs in again and sends it once more. */
async function send(make) {
  const sent = activity.session;
  const response = await fetch(...make());
  if (response.status === 401 && sent && activity.signIn) {
    // Another request may have signed in meanwhile: then only send again.
    if (activity.session === sent) await signInAgain();
    return answer(await fetch(...make()));
  }
  return answer(response);
}

/** GET a JSON path. */
export async function get(p) {
  return send(() => [
    withLang(path(p)),
    { credentials: 'same-origin', cache: 'no-cache', headers: headers() },
  ]);
}

/** POST a JSON body (with the header the server's forgery check asks for). */
export async function post(p, body) {
  return send(() => [
    withLang(path(p)),
    {
      method: 'POST',
      credentials: 'same-origin',
      headers: headers({ 'Content-Type': 'application/json', 'X-Sequence': '1' }),
      body: JSON.stringify(body ?? {}),
    },
  ]);
}

/** POST without the session and without signing in again (the Activity's sign-in steps). */
export async function postPlain(p, body) {
  const response = await fetch(withLang(path(p)), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-Sequence': '1' },
    body: JSON.stringify(body ?? {}),
  });
  return answer(response);
}

/** Loads the page strings in the chosen language; returns the language the server answered in. */
export async function loadTexts() {
  const body = await get('/api/texts');
  texts = body.texts || {};
  document.documentElement.lang = body.lang || 'en';
  return body.lang || 'en';
}

/** Puts the texts into every element marked `data-t` (with `data-n` for a `{n}` hole). */
export function fillTexts(root = document) {
  for (const el of root.querySelectorAll('[data-t]')) {
    el.textContent = t(el.dataset.t, { n: el.dataset.n ?? '' });
  }
}

/**
 * The live channel of a game: calls `onView(message)` for each frame, `onState(open)` when it opens
 * or closes, and reconnects with a growing pause. `close()` ends it.
 */
export function live(token, onMessage, onState) {
  let socket = null;
  let pause = 500;
  let stopped = false;
  let timer = null;
  let opened = false;
  const connect = async () => {
    if (stopped) return;
    // Inside Discord a socket that closed may have lost its session (a restart): a request first signs
    // in again if it must (browsers cannot read why an upgrade was refused).
    if (opened && activity.session) {
      try {
        await get('/api/activity/table');
      } catch (_) {
        // Offline: the socket's own retries go on.
      }
    }
    open();
  };
  const open = () => {
    if (stopped) return;
    opened = true;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let url = withLang(`${scheme}//${location.host}${path(`/api/g/${encodeURIComponent(token)}/live`)}`);
    // Browsers cannot set a WebSocket's headers: the session goes in its address (never logged).
    if (activity.session) url += (url.includes('?') ? '&' : '?') + 'activity=' + encodeURIComponent(activity.session);
    socket = new WebSocket(url);
    socket.onopen = () => {
      pause = 500;
      onState(true);
    };
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      onMessage(message);
    };
    socket.onclose = () => {
      onState(false);
      if (stopped) return;
      timer = setTimeout(connect, pause);
      pause = Math.min(pause * 2, 15000);
    };
    socket.onerror = () => socket.close();
  };
  open();
  return {
    close() {
      stopped = true;
      clearTimeout(timer);
      if (socket) socket.close();
    },
    reopen() {
      if (socket) socket.close();
    },
  };
}
