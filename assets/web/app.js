// The Sequence page: the name form, the home page (local play), a game's live page and its replay.
// Every rule lives in the bot: the page shows what the view says and sends what the player chose.
//
// Inside Discord (the Activity: the address has `frame_id` and `instance_id`) the same page signs in
// through Discord's Embedded App SDK, shows its channel's table (or a form to open a lobby there) and
// takes a move in two taps: a card, then a marked cell.

import {
  t, get, post, postPlain, loadTexts, fillTexts, chosenLang, chooseLang, live, ApiError,
  useActivity, setSession, inActivity, path,
} from './api.js';
import { drawBoard, cardFace, dieSvg } from './board.js';
import { showServer } from './server.js';

const $ = (id) => document.getElementById(id);
const VIEWS = ['name-view', 'home-view', 'game-view', 'server-view', 'error-view'];

const state = {
  me: null,
  geometry: null,
  token: null,
  version: -1,
  view: null,
  replay: null,
  frame: 0,
  card: null,
  cell: null,
  socket: null,
  deadlines: [],
  level: 'medium',
  // Inside Discord: the SDK, the application, the instance, the channel (null on the plain page).
  activity: null,
  // A move on its way to the bot (a second tap meanwhile is not sent).
  sending: false,
};

/** A sign-in step inside Discord that failed: `key` names its sentence in the catalogue. */
class ActivityFailure extends Error {
  constructor(key) {
    super(key);
    this.key = key;
  }
}

function show(id) {
  $('loading').hidden = true;
  for (const view of VIEWS) $(view).hidden = view !== id;
}

function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function say(text, bad = false) {
  const m = $('message');
  m.textContent = text || '';
  m.classList.toggle('bad', !!bad);
}

function ready() {
  document.body.dataset.ready = '1';
}

// ---- start ----------------------------------------------------------------------------------------

async function start() {
  const params = new URLSearchParams(location.search);
  if (params.has('frame_id') && params.has('instance_id')) {
    await startActivity();
    return;
  }
  const lang = chosenLang();
  if (lang) $('lang-select').value = lang;
  onLanguageChosen(route);
  try {
    const [answered] = await Promise.all([loadTexts(), loadGeometry()]);
    if (!lang) $('lang-select').value = answered;
    fillTexts();
    state.me = await get('/api/me');
  } catch (err) {
    showError(err);
    return;
  }
  wire();
  route();
}

async function loadGeometry() {
  state.geometry = await get('/api/geometry');
}

/**
 * The language menu: a language chosen loads the page's texts in it, then the table's view again (its
 * live channel reopened in the new language) or, with no table shown, `elsewhere()`.
 */
function onLanguageChosen(elsewhere) {
  $('lang-select').addEventListener('change', async (e) => {
    chooseLang(e.target.value);
    await loadTexts();
    fillTexts();
    if (state.token) {
      await reload();
      if (state.socket) state.socket.reopen();
    } else {
      elsewhere();
    }
  });
}

function showError(err) {
  let text = t('web-error-network');
  if (err instanceof ApiError) text = err.message;
  else if (err instanceof ActivityFailure) text = t(err.key);
  $('error-text').textContent = text;
  show('error-view');
  ready();
}

// ---- inside Discord (the Activity) ---------------------------------------------------------------

/** How long Discord may take to answer the SDK's handshake or a sign-in step. */
const DISCORD_WAIT_MS = 20000;
/** How often the page asks which table its channel has, while it shows none live. */
const FOLLOW_EVERY_MS = 3000;

function within(promise, ms, key) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new ActivityFailure(key)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function startActivity() {
  useActivity('/.proxy', signIn);
  state.activity = { sdk: null, clientId: null, channel: null, signedIn: false };
  document.body.classList.add('activity');
  // Nothing leads out of Discord's frame.
  $('brand').removeAttribute('href');
  try {
    // The texts first in the frame's language, then in the user's Discord language once signed in.
    await Promise.all([loadTexts(), loadGeometry()]);
    fillTexts();
    $('lang-select').value = document.documentElement.lang || 'en';
  } catch (err) {
    showError(err);
    return;
  }
  $('loading').textContent = t('web-activity-signing-in');
  let token;
  try {
    token = await signIn();
  } catch (err) {
    showError(err);
    return;
  }
  onLanguageChosen(showActivityHome);
  wire();
  setInterval(followIfIdle, FOLLOW_EVERY_MS);
  if (token) openGame(token);
  else showActivityHome();
}

/**
 * Signs in through Discord: the SDK's handshake (`ready`), `authorize` (scope `identify`: a code),
 * the code exchanged by the bot for an access token, `authenticate`, then the bot's session for this
 * instance. Again after a 401 (`prompt: none` is silent then). The channel's table token, or null.
 */
async function signIn() {
  const a = state.activity;
  if (!a.sdk) {
    let config;
    try {
      config = await get('/api/activity');
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) throw new ActivityFailure('web-activity-not-set-up');
      throw err;
    }
    a.clientId = String(config.client_id);
    let DiscordSDK;
    try {
      ({ DiscordSDK } = await import('./vendor/discord-embedded-app-sdk.js'));
      a.sdk = new DiscordSDK(a.clientId);
    } catch (_) {
      throw new ActivityFailure('web-activity-no-discord');
    }
    await within(a.sdk.ready(), DISCORD_WAIT_MS, 'web-activity-no-discord');
  }
  let code;
  try {
    ({ code } = await within(
      a.sdk.commands.authorize({
        client_id: a.clientId,
        response_type: 'code',
        state: '',
        prompt: 'none',
        scope: ['identify'],
      }),
      // The first time Discord asks the user: give them time to read.
      a.signedIn ? DISCORD_WAIT_MS : 5 * 60 * 1000,
      'web-activity-no-discord',
    ));
  } catch (err) {
    if (err instanceof ActivityFailure) throw err;
    throw new ActivityFailure('web-activity-denied');
  }
  const { access_token: accessToken } = await postPlain('/api/activity/token', { code });
  try {
    await within(a.sdk.commands.authenticate({ access_token: accessToken }), DISCORD_WAIT_MS, 'web-activity-no-discord');
  } catch (err) {
    if (err instanceof ActivityFailure) throw err;
    throw new ActivityFailure('web-activity-sign-in-failed');
  }
  const session = await postPlain('/api/activity/session', { access_token: accessToken, instance_id: a.sdk.instanceId });
  const first = !a.signedIn;
  // The user's Discord language, unless they chose another here.
  setSession(session.session, first ? session.lang : null);
  a.signedIn = true;
  a.channel = session.channel;
  state.me = { name: session.name, local: false, activity: true };
  if (first && session.lang && session.lang !== document.documentElement.lang) {
    await loadTexts();
    fillTexts();
    $('lang-select').value = document.documentElement.lang || 'en';
  }
  return session.token ?? null;
}

/** The lobby form, for a channel without a table: it opens one there. */
function showActivityHome() {
  closeGame();
  show('home-view');
  $('new-game').hidden = false;
  document.querySelector('#home-view h1').textContent = t('web-activity-lobby-title');
  $('home-intro').textContent = t('web-activity-lobby-intro');
  $('new-game-submit').textContent = t('web-activity-lobby-submit');
  ready();
}

/**
 * Goes to the channel's table if it is another than the one shown (a rematch, a lobby opened in the
 * chat), or to the lobby form when the channel has none.
 */
async function followTable() {
  let answer;
  try {
    answer = await get('/api/activity/table');
  } catch (err) {
    if (!state.token) showError(err);
    return;
  }
  const token = answer.token ?? null;
  if (token && token !== state.token) {
    openGame(token);
  } else if (!token && (!state.token || !state.replay)) {
    // A table that is gone without a replay (a cancelled lobby): the form again.
    if ($('home-view').hidden) showActivityHome();
  }
}

/** While no live table is shown (the form, a finished game's replay, an error), looks for one. */
function followIfIdle() {
  if (!state.activity || !state.activity.signedIn) return;
  if (!state.token || state.replay || !$('error-view').hidden) followTable();
}

function route() {
  // A server's page needs no name: it only shows.
  const server = location.pathname.match(/^\/s\/([0-9a-f]+)\/?$/);
  if (server) {
    openServer(server[1]);
    return;
  }
  const match = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)\/?$/);
  if (!state.me.name && (!match || state.me.local)) {
    show('name-view');
    $('name-input').focus();
    ready();
    return;
  }
  if (match) {
    openGame(match[1]);
  } else {
    showHome();
  }
}

async function openServer(token) {
  try {
    await showServer(token);
  } catch (err) {
    showError(err);
    return;
  }
  show('server-view');
  ready();
}

function showHome() {
  show('home-view');
  const local = !!state.me.local;
  $('new-game').hidden = !local;
  $('home-intro').textContent = local ? t('web-home-intro') : t('web-local-off');
  ready();
}

// ---- forms ----------------------------------------------------------------------------------------

function wire() {
  $('name-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = $('name-input').value.trim();
    if (!name || [...name].length > 32) {
      $('name-input').setCustomValidity(t('web-name-bad'));
      $('name-input').reportValidity();
      return;
    }
    try {
      state.me = await post('/api/me', { name });
      route();
    } catch (err) {
      $('name-input').setCustomValidity(err.message);
      $('name-input').reportValidity();
    }
  });
  $('name-input').addEventListener('input', () => $('name-input').setCustomValidity(''));

  $('new-game').addEventListener('submit', async (e) => {
    e.preventDefault();
    const form = new FormData($('new-game'));
    const number = (key) => (form.get(key) ? Number(form.get(key)) : null);
    const body = {
      variant: form.get('variant'),
      king_of_the_board: form.get('king_of_the_board') === 'on',
      teams: number('teams'),
      series: number('series'),
      turn_time: number('turn_time'),
      options: {},
    };
    $('new-game-submit').disabled = true;
    try {
      if (inActivity()) {
        // The lobby opens in this channel, hosted by this user, as `/sequence start` would.
        const made = await post('/api/activity/start', body);
        openGame(made.token);
      } else {
        const made = await post('/api/games', body);
        history.pushState({}, '', made.url);
        route();
      }
    } catch (err) {
      if (inActivity()) {
        $('home-intro').textContent = err instanceof ApiError ? err.message : t('web-error-network');
        $('home-intro').classList.add('bad');
      } else {
        alert(err.message);
      }
    } finally {
      $('new-game-submit').disabled = false;
    }
  });

  $('board').addEventListener('click', (e) => {
    const cell = e.target.closest('[data-cell]');
    if (cell) chooseCell(cell.dataset.cell);
  });
  $('confirm').addEventListener('click', confirmMove);
  $('copy-link').addEventListener('click', async () => {
    $('watch-link').select();
    try {
      await navigator.clipboard.writeText($('watch-link').value);
    } catch (_) {
      document.execCommand('copy');
    }
    $('copy-link').textContent = t('web-copied');
    setTimeout(() => ($('copy-link').textContent = t('web-copy')), 1500);
  });
  $('replay-slider').addEventListener('input', (e) => showFrame(Number(e.target.value)));
  $('replay-prev').addEventListener('click', () => showFrame(state.frame - 1));
  $('replay-next').addEventListener('click', () => showFrame(state.frame + 1));
  window.addEventListener('popstate', () => {
    if (inActivity()) return;
    closeGame();
    route();
  });
  setInterval(tickClock, 250);
}

// ---- a game ---------------------------------------------------------------------------------------

function closeGame() {
  if (state.socket) state.socket.close();
  state.socket = null;
  state.token = null;
  state.view = null;
  state.replay = null;
  state.version = -1;
  $('live').hidden = true;
}

async function openGame(token) {
  closeGame();
  state.token = token;
  $('watch-link').value = location.origin + '/g/' + token;
  // Inside Discord the frame's address is no link for others: the chat has the game.
  document.querySelector('.share').hidden = inActivity();
  $('home-intro').classList.remove('bad');
  show('game-view');
  await reload();
}

/** Reads the game again (at the start, after a language change or when the table closed). */
async function reload() {
  const token = state.token;
  let answer;
  try {
    answer = await get(`/api/g/${encodeURIComponent(token)}`);
  } catch (err) {
    if (token !== state.token) return;
    if (inActivity() && err instanceof ApiError && err.status === 404) {
      // The channel's table is gone (a cancelled lobby): whatever the channel has now.
      closeGame();
      followTable();
      return;
    }
    showError(err);
    return;
  }
  if (token !== state.token) return;
  if (answer.next && (!answer.replay || (state.view && !state.replay))) {
    // An earlier game of a series still played: a page that showed it live goes on to the game
    // played now, as does one that has no replay of it to show.
    followGame(answer.next);
    return;
  }
  if (answer.replay) {
    if (state.socket) state.socket.close();
    state.socket = null;
    $('live').hidden = true;
    state.view = answer.view;
    await openReplay(answer);
    return;
  }
  state.version = -1;
  accept(answer.version, answer.view);
  if (!state.socket) {
    $('live').hidden = false;
    state.socket = live(
      token,
      (message) => {
        if (message.gone) {
          reload();
        } else if (message.view) {
          accept(message.version, message.view);
        }
      },
      (open) => {
        // A new socket (after a restart too, where versions count from 1 again) starts with the
        // current view: whatever it sends first is newer than what was drawn.
        if (open) state.version = -1;
        $('live').classList.toggle('connected', open);
        $('live').querySelector('.live-text').textContent = open ? t('web-live') : t('web-offline');
      },
    );
  }
}

/** Reads the game once more and draws it if it is newer (after the player's own action). */
async function refresh() {
  const token = state.token;
  try {
    const answer = await get(`/api/g/${encodeURIComponent(token)}`);
    if (token !== state.token || state.replay) return;
    if (answer.replay) {
      reload();
    } else {
      accept(answer.version, answer.view);
    }
  } catch (_) {
    // The live channel or the next action will bring it.
  }
}

/** The next game of a series has a page of its own: the page goes on to it (with its address). */
function followGame(token) {
  if (!inActivity()) history.replaceState({}, '', `/g/${token}`);
  openGame(token);
}

function accept(version, view) {
  if (typeof version === 'number' && version < state.version) return;
  if (view.token && state.token && view.token !== state.token) {
    followGame(view.token);
    return;
  }
  const turnBefore = state.view && state.view.board ? state.view.board.turn : null;
  state.version = typeof version === 'number' ? version : state.version;
  state.view = view;
  const turnNow = view.board ? view.board.turn : null;
  if (turnNow !== turnBefore || !view.you || !view.you.your_turn) {
    state.card = null;
    state.cell = null;
  }
  if (state.card && view.you && !view.you.hand.some((c) => c.code === state.card)) {
    state.card = null;
    state.cell = null;
  }
  draw();
}

/** Am I in this table's seats? (The view says where I sit, in a lobby too.) */
function seated(view) {
  return typeof view.seat === 'number';
}

function isHost(view) {
  return typeof view.host === 'number' && view.seat === view.host;
}

/** The cells the current choice may go to, as the view says (nothing when it says nothing). */
function targetsNow(view) {
  const you = view.you;
  if (!you || !you.your_turn || view.phase !== 'playing') return [];
  if (view.game.variant === 'dice') {
    if (you.roll_needed) return [];
    return [...(you.targets || []), ...(you.removals || [])];
  }
  if (!state.card) return [];
  const card = you.hand.find((c) => c.code === state.card);
  return (card && card.targets) || [];
}

function draw() {
  const view = state.view;
  if (!view) return;
  const playing = view.phase === 'playing';
  // The player to move reads "Your turn." rather than their own name.
  const mine = view.you && view.you.your_turn && playing ? t('web-your-turn') : null;
  $('status').textContent = view.texts.result || mine || view.texts.turn || (view.phase === 'lobby' ? t('web-lobby') : view.game.title);
  $('last-line').textContent = view.texts.last_move || describe(view.game);
  $('board-wrap').hidden = !view.board;
  $('game-view').classList.toggle('no-board', !view.board);
  if (view.board) {
    $('board').hidden = false;
    drawBoard($('board'), state.geometry, view.game.variant, view.board, {
      targets: targetsNow(view),
      chosen: state.cell,
      free: t('image-free'),
      over: !playing,
    });
  } else {
    $('board').hidden = true;
  }
  drawHand(view);
  drawActions(view);
  drawSeats(view.seats, view.teams, view);
  drawInfo(view.board, view);
  $('replay-box').hidden = true;
  $('play-box').hidden = false;
  document.body.dataset.version = String(state.version);
  ready();
}

/** The game and its options in a line: `Sequence for Kids · 2 teams · Best of 3`. */
function describe(game) {
  const parts = [game.title];
  if (game.king_of_the_board) parts.push(t('choice-mode-king_of_the_board'));
  if (game.teams) parts.push(t('web-teams-n', { n: game.teams }));
  if (game.series) parts.push(t('web-series-best', { n: game.series.best_of }));
  return parts.join(' · ');
}

function drawHand(view) {
  const you = view.you;
  const hand = $('hand');
  hand.replaceChildren();
  const cards = you && view.phase === 'playing' ? you.hand : [];
  $('hand-box').hidden = cards.length === 0;
  for (const card of cards) {
    const face = cardFace(state.geometry, card);
    const button = el('button', {
      type: 'button',
      class: 'card-button' + (card.dead ? ' dead' : '') + (state.card === card.code ? ' selected' : '') + (face.kids ? ' kids' : ''),
      dataset: { card: card.code },
      onclick: () => chooseCard(card.code),
    });
    const label = el('span', { class: 'face', text: face.text });
    if (face.colour) label.style.color = face.colour;
    button.append(label);
    if (card.dead) button.append(el('span', { class: 'tag', text: t('web-dead') }));
    hand.append(button);
  }
  let hint = '';
  if (you && you.your_turn && playing(view)) {
    if (view.game.variant === 'dice') {
      if (!you.roll_needed) hint = (you.removals || []).length && !(you.targets || []).length ? t('web-pick-remove') : t('web-pick-dice');
    } else if (!state.card) {
      hint = t('web-pick-card');
    } else if (!targetsNow(view).length) {
      hint = t('web-no-target');
    } else if (!state.cell) {
      hint = t('web-pick-cell');
    }
  } else if (!you && view.phase === 'playing') {
    hint = t('web-watching');
  }
  $('hint-line').textContent = hint;
  const confirm = $('confirm');
  if (state.cell && you && you.your_turn) {
    const card = you.hand.find((c) => c.code === state.card);
    const removal = (you.removals || []).includes(state.cell) && !(you.targets || []).includes(state.cell);
    confirm.textContent = card
      ? t('web-confirm', { card: cardFace(state.geometry, card).text, cell: state.cell })
      : t(removal ? 'web-confirm-remove' : 'web-confirm-cell', { cell: state.cell });
    confirm.hidden = false;
  } else {
    confirm.hidden = true;
  }
}

function playing(view) {
  return view.phase === 'playing';
}

function chooseCard(code) {
  state.card = state.card === code ? null : code;
  state.cell = null;
  say('');
  draw();
}

function chooseCell(name) {
  const view = state.view;
  if (!view || state.replay) return;
  if (!targetsNow(view).includes(name)) return;
  if (inActivity()) {
    // Inside Discord a move is two taps: the card, then the marked cell (no confirm step).
    state.cell = name;
    confirmMove();
    return;
  }
  state.cell = state.cell === name ? null : name;
  draw();
}

async function act(body) {
  say('');
  try {
    const answer = await post(`/api/g/${encodeURIComponent(state.token)}/act`, body);
    say(answer.message || '');
    // The live channel brings the change too; reading it at once keeps the asker's page current
    // even when the socket is reconnecting.
    refresh();
    return answer;
  } catch (err) {
    say(err instanceof ApiError ? err.message : t('web-error-network'), true);
    // Refused (a stale move: the game moved on meanwhile): show the game as it is now.
    if (err instanceof ApiError) refresh();
    return null;
  }
}

async function confirmMove() {
  const view = state.view;
  if (!view || !view.board || !state.cell || state.sending) return;
  const body = { action: 'play', turn: view.board.turn, cell: state.cell };
  if (state.card) body.card = state.card;
  $('confirm').disabled = true;
  state.sending = true;
  if (inActivity()) draw();
  const answer = await act(body);
  state.sending = false;
  $('confirm').disabled = false;
  // Done or refused, the choice is over: the board shows what the bot has.
  if (answer || inActivity()) {
    state.card = null;
    state.cell = null;
    draw();
  }
}

function actionButton(action, label, handler, primary = false) {
  return el('button', {
    type: 'button',
    class: primary ? 'primary' : '',
    dataset: { action },
    text: label,
    onclick: handler || (() => act({ action })),
  });
}

function drawActions(view) {
  const box = $('actions');
  box.replaceChildren();
  const mine = seated(view);
  const host = isHost(view);
  const you = view.you;
  if (view.phase === 'lobby') {
    if (!mine && state.me.name) box.append(actionButton('join', t('button-join'), null, true));
    if (host) {
      const level = el('select', { class: 'level', 'aria-label': 'level' });
      for (const l of ['easy', 'medium', 'hard']) level.append(el('option', { value: l, text: t('level-' + l) }));
      level.value = state.level;
      level.addEventListener('change', () => (state.level = level.value));
      box.append(el('span', { class: 'group' }, [
        actionButton('add_bot', t('button-addbot'), () => act({ action: 'add_bot', level: level.value })),
        level,
      ]));
      if (view.seats.some((s) => s.kind === 'computer')) box.append(actionButton('remove_bot', t('web-remove-bot')));
      box.append(actionButton('begin', t('button-begin'), null, true));
      box.append(actionButton('cancel', t('button-cancel')));
    }
    if (mine) box.append(actionButton('leave', t('button-leave')));
  } else if (view.phase === 'playing' && you) {
    if (you.your_turn) {
      if (view.game.variant === 'dice' && you.roll_needed) {
        box.append(actionButton('roll', t('button-roll'), () => act({ action: 'roll', turn: view.board.turn }), true));
      }
      const card = state.card && you.hand.find((c) => c.code === state.card);
      if (card && card.dead) {
        box.append(actionButton('exchange', t('web-exchange', { card: cardFace(state.geometry, card).text }),
          () => act({ action: 'exchange', turn: view.board.turn, card: card.code }), true));
      }
      if (view.game.hints_allowed) box.append(actionButton('hint', t('picker-hint'), askHint));
    }
    if (host) box.append(stopButton());
    // Leaving a running game gives it up: asked once here, then sent as a forfeit.
    box.append(actionButton('leave', t('button-leave'), () => {
      askFirst(t('confirm-leave'), t('button-leave-confirm'), () => act({ action: 'forfeit' }));
    }));
  } else if (view.phase === 'between_games' && mine) {
    box.append(actionButton('next_game', t('web-next-game'), null, true));
    if (host) box.append(stopButton());
  }
}

function stopButton() {
  return actionButton('stop', t('web-stop'), () => {
    askFirst(t('web-stop-confirm'), t('button-stop-confirm'), () => act({ action: 'stop' }));
  });
}

/**
 * Asks `question` before `then`: the browser's dialog on the plain page; inside Discord (whose frame
 * may not show dialogs) the question and its two buttons in place of the actions.
 */
function askFirst(question, yes, then) {
  if (!inActivity()) {
    if (window.confirm(question)) then();
    return;
  }
  const box = $('actions');
  box.replaceChildren(
    el('p', { class: 'question', text: question }),
    actionButton('yes', yes, () => {
      then();
      draw();
    }, true),
    actionButton('no', t('button-leave-keep'), () => draw()),
  );
}

async function askHint() {
  const answer = await act({ action: 'hint' });
  if (answer && answer.hint) {
    state.card = answer.hint.card || null;
    state.cell = answer.hint.cell || null;
    draw();
    say(answer.message || '');
  }
}

function teamColour(teams, team) {
  const found = teams.find((x) => x.team === team);
  return found ? found.rgb : '#888';
}

function drawSeats(seats, teams, view) {
  const list = $('seats');
  list.replaceChildren();
  state.deadlines = [];
  const now = Date.now();
  seats.forEach((seat, i) => {
    const li = el('li', { class: 'seat' + (seat.to_move ? ' to-move' : '') });
    const dot = el('span', { class: 'swatch' });
    if (seat.team !== null && seat.team !== undefined) dot.style.background = teamColour(teams, seat.team);
    li.append(dot, el('span', { class: 'name', text: seat.name }));
    const tags = [];
    if (view && view.you && view.you.seat === i) tags.push(t('web-you'));
    if (view && view.host === i) tags.push(t('web-host'));
    if (seat.kind === 'computer') tags.push(t('web-computer'));
    if (tags.length) li.append(el('span', { class: 'tags', text: tags.join(' · ') }));
    if (seat.cards !== undefined && seat.cards !== null) li.append(el('span', { class: 'count', text: t('web-cards', { n: seat.cards }) }));
    if (typeof seat.seconds_left === 'number') {
      const clock = el('span', { class: 'clock' });
      li.append(clock);
      state.deadlines.push({ clock, at: now + seat.seconds_left * 1000 });
    }
    list.append(li);
  });
  tickClock();
}

function tickClock() {
  const now = Date.now();
  for (const { clock, at } of state.deadlines) {
    const left = Math.max(0, Math.ceil((at - now) / 1000));
    clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    clock.classList.toggle('low', left <= 10);
  }
}

function drawInfo(board, view) {
  // Teams and scores.
  const need = view.game.to_win;
  const parts = view.teams
    .filter((team) => team.sequences !== undefined || team.points !== undefined)
    .map((team) => {
      const have = team.points !== undefined ? team.points : team.sequences;
      const key = team.points !== undefined ? 'web-points' : 'web-sequences';
      return { team, text: t(key, { have, need: need ?? '?' }) };
    });
  const series = view.game.series;
  const line = $('series-line');
  line.replaceChildren();
  for (const { team, text } of parts) {
    const chip = el('span', { class: 'score' }, [el('span', { class: 'swatch' }), el('span', { text: `${team.name}: ${text}` })]);
    chip.firstChild.style.background = team.rgb;
    line.append(chip);
  }
  if (series && series.wins && series.wins.length) {
    line.append(el('span', { class: 'score', text: t('web-series-score', { best: series.best_of, score: series.wins.join(' – ') }) }));
  }
  if (view.game.king_of_the_board) {
    const tag = el('span', { class: 'zone-tag', text: t('image-zone') });
    tag.style.background = state.geometry.marks.zone;
    line.append(tag);
  }
  const roll = $('roll-box');
  if (board && board.roll) {
    const [a, b] = board.roll;
    roll.hidden = false;
    roll.innerHTML = `<svg viewBox="0 0 120 54" width="88" height="40" aria-hidden="true">${dieSvg(2, 2, 50, a)}${dieSvg(66, 2, 50, b)}</svg>`;
    roll.append(el('span', { text: t('web-roll', { a, b, sum: a + b }) }));
  } else {
    roll.hidden = true;
  }
  $('pile-line').textContent = board && typeof board.draw_pile === 'number' ? t('web-draw-pile', { n: board.draw_pile }) : '';
  const discards = $('discards');
  discards.replaceChildren();
  const shown = board ? board.discards || [] : [];
  $('discards-box').hidden = shown.length === 0;
  for (const card of shown) {
    const face = cardFace(state.geometry, card);
    const span = el('span', { class: 'mini-card' + (face.kids ? ' kids' : ''), text: face.text });
    if (face.colour) span.style.color = face.colour;
    discards.append(span);
  }
}

// ---- replay ---------------------------------------------------------------------------------------

async function openReplay(answer) {
  let replay;
  try {
    replay = await get(`/api/g/${encodeURIComponent(state.token)}/replay`);
  } catch (err) {
    showError(err);
    return;
  }
  state.replay = replay;
  const frames = replay.frames || [];
  const slider = $('replay-slider');
  slider.max = String(Math.max(0, frames.length - 1));
  // Inside Discord the replay offers no download: a plain link carries no session, and Discord does not
  // say that a file can be saved from an Activity's frame (the chat's final message has the record).
  const download = $('record-download');
  download.hidden = inActivity();
  download.href = inActivity() ? '' : path(`/api/g/${encodeURIComponent(state.token)}/record`);
  // Its players may open the rematch from here, as from the final message's button: the page then
  // goes to the new lobby's own page.
  const actions = $('replay-actions');
  actions.replaceChildren();
  if (answer.rematch) {
    actions.append(actionButton('rematch', t('button-rematch'), async () => {
      const done = await act({ action: 'rematch' });
      if (done && inActivity()) {
        // The rematch's lobby is the channel's table now.
        followTable();
      } else if (done && done.url) {
        history.pushState({}, '', done.url);
        route();
      }
    }, true));
  }
  drawSummary(replay.summary);
  state.version = typeof answer.version === 'number' ? answer.version : 0;
  showFrame(frames.length - 1);
}

function showFrame(index) {
  const replay = state.replay;
  if (!replay) return;
  const frames = replay.frames || [];
  if (!frames.length) return;
  const i = Math.max(0, Math.min(frames.length - 1, index));
  state.frame = i;
  const frame = frames[i];
  const variant = (state.view && state.view.game.variant) || replay.variant || 'classic';
  $('board-wrap').hidden = false;
  $('game-view').classList.remove('no-board');
  drawBoard($('board'), state.geometry, variant, frame.board, { free: t('image-free'), over: true });
  $('replay-slider').value = String(i);
  $('replay-turn').textContent = t('web-replay-step', { n: i, total: frames.length - 1 });
  $('replay-prev').disabled = i === 0;
  $('replay-next').disabled = i === frames.length - 1;
  const texts = frame.texts || {};
  // The game's result heads every step of its replay.
  const result = (frames[frames.length - 1].texts || {}).result;
  $('status').textContent = texts.result || result || (state.view ? state.view.texts.result || '' : '');
  $('last-line').textContent = texts.last_move || '';
  $('play-box').hidden = true;
  $('replay-box').hidden = false;
  const teams = replay.teams || (state.view ? state.view.teams : []);
  drawSeats(replay.seats || (state.view ? state.view.seats : []), teams, null);
  // The teams' scores as they stood after this step (the service counts them per frame).
  const scored = teams.map((team, i) => {
    const score = (frame.scores || [])[i];
    if (score === undefined) return team;
    return team.points !== undefined ? { ...team, points: score } : { ...team, sequences: score };
  });
  const view = state.view || { teams, game: {}, you: null };
  const game = { ...(view.game || {}), to_win: replay.to_win ?? (view.game || {}).to_win };
  drawInfo(frame.board, { ...view, teams: scored, game });
  document.body.dataset.version = String(state.version);
  ready();
}

function drawSummary(summary) {
  const box = $('summary');
  box.replaceChildren();
  // The service words the summary (the final message's sentences, in the page's language).
  const lines = summary && Array.isArray(summary.lines) ? summary.lines : [];
  if (!lines.length) return;
  box.append(el('h3', { text: t('web-summary') }));
  for (const line of lines) box.append(el('p', { text: String(line) }));
}

start();
