// A server's own page (opt-in by its admins): the leaderboard, a player's figures on a tap, and the
// latest games with links to their replays. Names are text only (textContent), never HTML.

import { t, get, chosenLang } from './api.js';

function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

const $ = (id) => document.getElementById(id);

/** Reads `/api/s/{token}` and draws the page (throws the API's error for the caller to show). */
export async function showServer(token) {
  const page = await get(`/api/s/${encodeURIComponent(token)}`);
  if (page.name) $('server-view').querySelector('h1').textContent = page.name;
  drawLeaderboard(page.leaderboard || []);
  drawGames(page.games || []);
  // `#p2`: the figures of the player ranked 2 open (the address of a tap, to share).
  const asked = location.hash.match(/^#p(\d+)$/);
  const row = asked && document.querySelector(`#server-leaderboard tr[data-rank="${asked[1]}"]`);
  if (row) row.click();
}

function drawLeaderboard(players) {
  const table = $('server-leaderboard');
  const box = $('server-player');
  box.hidden = true;
  table.after(box);
  table.replaceChildren();
  if (!players.length) {
    table.append(el('tr', {}, [el('td', { class: 'sub', text: t('web-server-no-players') })]));
    return;
  }
  table.append(el('tr', {}, [
    el('th', { class: 'num', text: '#' }),
    el('th', { text: t('web-server-player') }),
    el('th', { class: 'num', text: t('web-server-rating') }),
    el('th', { class: 'num', text: t('web-server-wins') }),
    el('th', { class: 'num', text: t('web-server-games-played') }),
  ]));
  for (const p of players) {
    const name = el('td', { class: 'name', text: p.name });
    if (p.provisional) name.append(el('span', { class: 'prov', text: t('web-server-provisional') }));
    const row = el('tr', { class: 'player', tabindex: '0', 'data-rank': String(p.rank) }, [
      el('td', { class: 'num', text: String(p.rank) }),
      name,
      el('td', { class: 'num', text: String(p.rating) }),
      el('td', { class: 'num', text: String(p.wins) }),
      el('td', { class: 'num', text: String(p.games) }),
    ]);
    const open = () => drawPlayer(p, row);
    row.addEventListener('click', open);
    row.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); open(); } });
    table.append(row);
  }
}

function drawPlayer(p, row) {
  const box = $('server-player');
  const was = row.classList.contains('open');
  for (const r of document.querySelectorAll('#server-leaderboard tr.open')) r.classList.remove('open');
  for (const r of document.querySelectorAll('#server-leaderboard tr.detail')) r.remove();
  if (was) {
    box.hidden = true;
    history.replaceState(null, '', location.pathname + location.search);
    return;
  }
  row.classList.add('open');
  history.replaceState(null, '', `${location.pathname}${location.search}#p${p.rank}`);
  const figures = [
    ['web-server-rating', p.provisional ? `${p.rating} (${t('web-server-provisional')})` : String(p.rating)],
    ['web-server-games-played', String(p.games)],
    ['web-server-wins', `${p.wins}${p.games ? ` (${Math.round((100 * p.wins) / p.games)} %)` : ''}`],
    ['web-server-sequences', String(p.sequences)],
    ['web-server-streak', `${p.current_streak} / ${p.best_streak}`],
    ['web-server-jacks', `${p.two_eyed_jacks} / ${p.one_eyed_jacks}`],
    ['web-server-broken', String(p.lines_broken)],
    ['web-server-dead', String(p.dead_cards)],
    ['web-server-series', `${p.series_won} / ${p.series_played}`],
    ['web-server-achievements', String(p.achievements)],
  ];
  if (p.agreement_percent != null) figures.push(['web-server-agreement', `${p.agreement_percent} %`]);
  const list = el('dl');
  for (const [key, value] of figures) list.append(el('dt', { text: t(key) }), el('dd', { text: value }));
  box.replaceChildren(el('h3', { text: p.name }), list);
  box.hidden = false;
  // Right under the player's row.
  const cell = el('td', { colspan: '5' });
  cell.append(box);
  row.after(el('tr', { class: 'detail' }, [cell]));
}

function drawGames(games) {
  const list = $('server-games');
  list.replaceChildren();
  if (!games.length) {
    list.append(el('li', { class: 'sub', text: t('web-server-no-games') }));
    return;
  }
  const lang = chosenLang() || document.documentElement.lang || undefined;
  for (const g of games) {
    const when = new Date(g.finished_at * 1000).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
    const who = el('span', { class: 'who' });
    g.players.forEach((p, i) => {
      if (i) who.append(', ');
      who.append(el('span', { class: p.won ? 'won' : '', text: p.name }));
    });
    const winners = g.players.filter((p) => p.won).map((p) => p.name);
    const result = g.aborted ? t('web-server-aborted') : winners.length ? `${t('web-server-winner')}: ${winners.join(', ')}` : '';
    list.append(el('li', { 'data-game': String(g.id) }, [
      el('strong', { text: `#${g.id} ${t(`choice-game-${g.variant}`)}` }),
      el('span', { class: 'when', text: when }),
      g.replay ? el('a', { href: g.replay, class: 'replay', text: t('web-server-replay') }) : null,
      who,
      result ? el('span', { class: 'sub', text: result }) : null,
    ]));
  }
}
