// Talking to the bot: JSON requests to this page's own host only, and the page's texts.

let texts = {};

/** The page string `key`, its `{name}` holes filled from `vars`. */
export function t(key, vars = {}) {
  const text = texts[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (hole, name) => (name in vars ? String(vars[name]) : hole));
}

/** The language the page asks in (`en`, `de`, `no`), from the `sb_lang` cookie. */
export function chosenLang() {
  const m = document.cookie.match(/(?:^|;\s*)sb_lang=(en|de|no)\b/);
  return m ? m[1] : null;
}

/** Remembers the chosen language for a year (the server reads the same cookie). */
export function chooseLang(lang) {
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

/** GET a JSON path. */
export async function get(path) {
  const response = await fetch(withLang(path), { credentials: 'same-origin', cache: 'no-cache' });
  return answer(response);
}

/** POST a JSON body (with the header the server's forgery check asks for). */
export async function post(path, body) {
  const response = await fetch(withLang(path), {
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
  const open = () => {
    if (stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(withLang(`${scheme}//${location.host}/api/g/${encodeURIComponent(token)}/live`));
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
      timer = setTimeout(open, pause);
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
