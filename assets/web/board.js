// The board as SVG, drawn from the bot's geometry (/api/geometry: the PNG renderer's own sizes and
// colours) and a view's `board`. It draws what the view says; what is legal comes from the view too.

const NS = 'http://www.w3.org/2000/svg';

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function capital(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** Where cells are: the page uses the images' pixels, the SVG scales them. */
export function layoutOf(geometry, variant, board) {
  const v = geometry.variants[variant] || geometry.variants.classic;
  const margin = geometry.pad + geometry.gutter;
  const pitch = v.pitch;
  const cols = board.width;
  const rows = board.height;
  return {
    v,
    pitch,
    cols,
    rows,
    margin,
    width: 2 * margin + cols * pitch,
    height: 2 * margin + rows * pitch,
    rect(index) {
      const col = index % cols;
      const row = Math.floor(index / cols);
      const gap = geometry.gap;
      return {
        x: margin + col * pitch + gap / 2,
        y: margin + row * pitch + gap / 2,
        w: pitch - gap,
        h: pitch - gap,
      };
    },
  };
}

const PIPS = {
  1: [[0.5, 0.5]],
  6: [[0.26, 0.26], [0.74, 0.26], [0.26, 0.5], [0.74, 0.5], [0.26, 0.74], [0.74, 0.74]],
};

/** A die face as SVG (value 1 to 6) with its top-left at x, y. */
export function dieSvg(x, y, size, value) {
  const pips = {
    1: [[0.5, 0.5]],
    2: [[0.26, 0.26], [0.74, 0.74]],
    3: [[0.26, 0.26], [0.5, 0.5], [0.74, 0.74]],
    4: [[0.26, 0.26], [0.74, 0.26], [0.26, 0.74], [0.74, 0.74]],
    5: [[0.26, 0.26], [0.74, 0.26], [0.5, 0.5], [0.26, 0.74], [0.74, 0.74]],
    6: PIPS[6],
  }[value] || [];
  let out = `<rect class="die" x="${x}" y="${y}" width="${size}" height="${size}" rx="${size * 0.18}"/>`;
  for (const [px, py] of pips) {
    out += `<circle class="pip${value === 1 ? ' one' : ''}" cx="${x + px * size}" cy="${y + py * size}" r="${size * 0.095}"/>`;
  }
  return out;
}

function chipSvg(geometry, variant, team, cx, cy, r) {
  const v = geometry.variants[variant] || geometry.variants.classic;
  const style = v.teams[team] || v.teams[0];
  let out = `<g class="chip-g" pointer-events="none"><circle class="chip" data-team="${team}" cx="${cx}" cy="${cy}" r="${r}" fill="${style.rim}"/>`;
  out += `<circle cx="${cx}" cy="${cy}" r="${r * 0.86}" fill="${style.body}"/>`;
  out += `<circle cx="${cx - r * 0.28}" cy="${cy - r * 0.32}" r="${r * 0.4}" fill="#fff" fill-opacity="0.16"/>`;
  const mark = style.mark;
  if (team === 0) {
    out += `<circle cx="${cx}" cy="${cy}" r="${r * 0.3}" fill="${mark}"/>`;
  } else if (team === 1) {
    const a = r * 0.3;
    out += `<path d="M${cx - a} ${cy - a}L${cx + a} ${cy + a}M${cx - a} ${cy + a}L${cx + a} ${cy - a}" stroke="${mark}" stroke-width="${r * 0.19}" stroke-linecap="round"/>`;
  } else if (team === 2) {
    out += `<circle cx="${cx}" cy="${cy}" r="${r * 0.27}" fill="none" stroke="${mark}" stroke-width="${r * 0.12}"/>`;
  } else {
    const h = r * 0.27;
    out += `<rect x="${cx - h}" y="${cy - h}" width="${2 * h}" height="${2 * h}" rx="${r * 0.05}" fill="${mark}"/>`;
  }
  return out + '</g>';
}

/** The suit letter of a card code (`7H` → `H`), or null for a kids card. */
function suitOf(code) {
  const last = code.slice(-1);
  return /^[SHDC]$/.test(last) && code.length <= 3 ? last : null;
}

/** A card's face text and colour for the hand and the discards: rank+suit glyph in the suit's colour. */
export function cardFace(geometry, card) {
  const suit = suitOf(card.code);
  if (!suit) return { text: capital(card.label), colour: null, kids: true };
  const style = geometry.cards.suits[suit];
  return { text: card.label, colour: style ? style.colour : null, kids: false };
}

function cellSvg(geometry, lay, index, cell, opts) {
  const { x, y, w, h } = lay.rect(index);
  const r = w * geometry.cell_radius;
  const cx = x + w / 2;
  const label = cell.label;
  const chip = cell.chip !== undefined && cell.chip !== null;
  const removed = opts.lastRemoved === cell.name;
  const compact = chip || removed;
  const classes = ['cell'];
  if (opts.targets.has(cell.name)) classes.push('target');
  if (opts.last === cell.name) classes.push('last');
  if (opts.chosen === cell.name) classes.push('chosen');
  let out = `<g class="${classes.join(' ')}" data-cell="${esc(cell.name)}">`;
  out += `<rect class="shade" x="${x + 1}" y="${y + 2}" width="${w}" height="${h}" rx="${r}"/>`;
  if (label.kind === 'corner') {
    const c = geometry.corner;
    out += `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="${c.background}"/>`;
    out += `<rect x="${x + 3}" y="${y + 3}" width="${w - 6}" height="${h - 6}" rx="${r}" fill="none" stroke="${c.gold}" stroke-width="2"/>`;
    out += `<text x="${cx}" y="${y + h * 0.58}" font-size="${w * 0.5}" fill="${c.gold}" text-anchor="middle">${esc(c.star)}</text>`;
    out += `<text x="${cx}" y="${y + h * 0.86}" font-size="${w * 0.15}" font-weight="700" fill="${c.gold}" text-anchor="middle">${esc(opts.free)}</text>`;
  } else if (label.kind === 'number') {
    const n = label.number;
    const tint = geometry.dice.tints[n] || geometry.cards.face;
    out += `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="${tint}" stroke="${geometry.dice.edge}"/>`;
    const double = geometry.dice.doubles[n];
    const ink = geometry.dice.text;
    if (double) {
      const s = compact ? w * 0.22 : w * 0.36;
      const top = compact ? y + h * 0.05 : y + h * 0.14;
      out += dieSvg(cx - s - (compact ? 3 : 4), top, s, double) + dieSvg(cx + (compact ? 3 : 4), top, s, double);
      if (!compact) {
        out += `<text x="${cx}" y="${y + h * 0.86}" font-size="${w * 0.26}" font-weight="700" fill="${ink}" text-anchor="middle">${n}</text>`;
      }
    } else if (compact) {
      out += `<text x="${cx}" y="${y + h * 0.25}" font-size="${w * 0.26}" font-weight="700" fill="${ink}" text-anchor="middle">${n}</text>`;
    } else {
      out += `<text x="${cx}" y="${y + h * 0.72}" font-size="${w * 0.55}" font-weight="700" fill="${ink}" text-anchor="middle">${n}</text>`;
    }
  } else {
    const suit = suitOf(label.code);
    if (!suit) {
      const name = capital(label.label);
      out += `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="${geometry.cards.kids_face}"/>`;
      const size = Math.min(w * (compact ? 0.17 : 0.2), (w * 0.9) / Math.max(1, name.length * 0.64));
      const ty = compact ? y + h * 0.2 : y + h * 0.55;
      out += `<text x="${cx}" y="${ty}" font-size="${size}" font-weight="700" fill="${geometry.dice.text}" text-anchor="middle">${esc(name)}</text>`;
    } else {
      const style = geometry.cards.suits[suit];
      out += `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="${geometry.cards.face}" stroke="${geometry.cards.edge}"/>`;
      const text = label.label;
      const glyph = text.slice(-1);
      const rank = text.slice(0, -1);
      if (compact) {
        out += `<text x="${cx}" y="${y + h * 0.27}" font-size="${w * 0.26}" font-weight="700" fill="${style.colour}" text-anchor="middle">${esc(text)}</text>`;
      } else {
        const size = rank.length > 1 ? w * 0.4 : w * 0.46;
        out += `<text x="${cx}" y="${y + h * 0.47}" font-size="${size}" font-weight="700" fill="${style.colour}" text-anchor="middle">${esc(rank)}</text>`;
        out += `<text x="${cx}" y="${y + h * 0.9}" font-size="${w * 0.46}" fill="${style.colour}" text-anchor="middle">${esc(glyph)}</text>`;
      }
    }
  }
  out += `<rect class="hit" x="${x - geometry.gap / 2}" y="${y - geometry.gap / 2}" width="${w + geometry.gap}" height="${h + geometry.gap}"/>`;
  return out + '</g>';
}

/**
 * Draws `board` (a view's BoardView) of `variant` into the `<svg>` `svg`. `opts`: `targets` (cell names a
 * move may go to), `chosen` (the cell picked), `free` (the corner's word).
 */
export function drawBoard(svg, geometry, variant, board, opts = {}) {
  const lay = layoutOf(geometry, variant, board);
  const targets = new Set(opts.targets || []);
  const last = board.last_move ? board.last_move.cell : null;
  const lastRemoved = board.last_move && board.last_move.removed ? board.last_move.cell : null;
  const drawOpts = { targets, last, lastRemoved, chosen: opts.chosen || null, free: opts.free || '' };
  const index = new Map(board.cells.map((c, i) => [c.name, i]));
  const centre = (name) => {
    const { x, y, w, h } = lay.rect(index.get(name) ?? 0);
    return [x + w / 2, y + h / 2 + lay.v.chip_dy];
  };
  let out = `<rect class="felt" x="0" y="0" width="${lay.width}" height="${lay.height}" rx="18" fill="${lay.v.felt}"/>`;
  // Column letters and row numbers, as in the command notation (A1 top-left).
  out += `<g class="edges" fill="${geometry.edge_text}" font-size="24" font-weight="700" text-anchor="middle">`;
  const half = geometry.gutter / 2;
  for (let c = 0; c < lay.cols; c++) {
    const letter = String.fromCharCode(65 + (c % 26));
    const x = lay.margin + (c + 0.5) * lay.pitch;
    out += `<text x="${x}" y="${lay.margin - half + 9}">${letter}</text><text x="${x}" y="${lay.height - lay.margin + half + 9}">${letter}</text>`;
  }
  for (let r = 0; r < lay.rows; r++) {
    const y = lay.margin + (r + 0.5) * lay.pitch + 9;
    out += `<text x="${lay.margin - half}" y="${y}">${r + 1}</text><text x="${lay.width - lay.margin + half}" y="${y}">${r + 1}</text>`;
  }
  out += '</g>';
  board.cells.forEach((cell, i) => {
    out += cellSvg(geometry, lay, i, cell, drawOpts);
  });
  // The cells the dice on the table can take (the same cells the board image outlines).
  if (board.roll && !opts.over) {
    const sum = board.roll[0] + board.roll[1];
    board.cells.forEach((cell, i) => {
      if (cell.label.kind === 'number' && cell.label.number === sum) {
        const { x, y, w, h } = lay.rect(i);
        out += `<rect class="roll-cell" pointer-events="none" x="${x - 2}" y="${y - 2}" width="${w + 4}" height="${h + 4}" rx="${w * 0.1}" fill="none" stroke="${geometry.dice.roll_cell}" stroke-width="4"/>`;
      }
    });
  }
  if (board.zone && board.zone.cells.length) {
    const rects = board.zone.cells.map((n) => lay.rect(index.get(n) ?? 0));
    const x0 = Math.min(...rects.map((r) => r.x)) - 5;
    const y0 = Math.min(...rects.map((r) => r.y)) - 5;
    const x1 = Math.max(...rects.map((r) => r.x + r.w)) + 5;
    const y1 = Math.max(...rects.map((r) => r.y + r.h)) + 5;
    const z = geometry.marks.zone;
    out += `<rect class="zone" pointer-events="none" x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" rx="${lay.pitch * 0.15}" fill="${z}" fill-opacity="0.27" stroke="${z}" stroke-width="6"/>`;
  }
  const r = lay.v.chip_r;
  board.cells.forEach((cell) => {
    if (cell.chip !== undefined && cell.chip !== null) {
      const [cx, cy] = centre(cell.name);
      out += chipSvg(geometry, variant, cell.chip, cx, cy, r);
    }
  });
  for (const seq of board.sequences || []) {
    if (!seq.cells.length) continue;
    const dark = (lay.v.teams[seq.team] || lay.v.teams[0]).rim;
    const [ax, ay] = centre(seq.cells[0]);
    const [bx, by] = centre(seq.cells[seq.cells.length - 1]);
    const width = r * 0.3;
    out += `<g class="sequence" data-team="${seq.team}" pointer-events="none"><line x1="${ax}" y1="${ay}" x2="${bx}" y2="${by}" stroke="${geometry.marks.sequence_light}" stroke-opacity="0.9" stroke-width="${width + 6}" stroke-linecap="round"/>`;
    out += `<line x1="${ax}" y1="${ay}" x2="${bx}" y2="${by}" stroke="${dark}" stroke-width="${width}" stroke-linecap="round"/>`;
    for (const name of seq.cells) {
      const [cx, cy] = centre(name);
      out += `<circle cx="${cx}" cy="${cy}" r="${width * 0.9}" fill="${geometry.marks.sequence_light}"/><circle cx="${cx}" cy="${cy}" r="${width * 0.55}" fill="${dark}"/>`;
    }
    out += '</g>';
  }
  if (board.last_move && index.has(board.last_move.cell)) {
    const { x, y, w, h } = lay.rect(index.get(board.last_move.cell));
    const colour = board.last_move.removed ? geometry.marks.removed : geometry.marks.last;
    out += `<rect class="last-mark" x="${x - 4}" y="${y - 4}" width="${w + 8}" height="${h + 8}" rx="${w * 0.12}" fill="none" stroke="#000" stroke-width="8"/>`;
    out += `<rect class="last-mark" x="${x - 3}" y="${y - 3}" width="${w + 6}" height="${h + 6}" rx="${w * 0.12}" fill="none" stroke="${colour}" stroke-width="6"/>`;
    if (board.last_move.removed) {
      const [cx, cy] = centre(board.last_move.cell);
      const a = r * 0.35;
      out += `<circle cx="${cx}" cy="${cy}" r="${r * 0.92}" fill="none" stroke="${colour}" stroke-width="4" stroke-dasharray="${(r * 0.92 * Math.PI) / 12}"/>`;
      out += `<path d="M${cx - a} ${cy - a}L${cx + a} ${cy + a}M${cx - a} ${cy + a}L${cx + a} ${cy - a}" stroke="${colour}" stroke-width="6" stroke-linecap="round"/>`;
    }
  }
  // The cells the chosen card may go to: outlined in the picker's colour, with their names.
  if (targets.size) {
    const t = geometry.marks.target;
    board.cells.forEach((cell, i) => {
      if (!targets.has(cell.name)) return;
      const { x, y, w, h } = lay.rect(i);
      const chosen = opts.chosen === cell.name;
      out += `<g class="target-mark" pointer-events="none"><rect x="${x - 4}" y="${y - 4}" width="${w + 8}" height="${h + 8}" rx="${w * 0.12}" fill="${chosen ? t : 'none'}" fill-opacity="${chosen ? 0.35 : 0}" stroke="${t}" stroke-width="${chosen ? 10 : 7}"/>`;
      const size = Math.max(14, Math.min(30, w * 0.26));
      const lw = size * 0.7 * cell.name.length + size * 0.7;
      const lh = size * 1.25;
      out += `<rect x="${x + (w - lw) / 2}" y="${y + h - lh * 0.45}" width="${lw}" height="${lh}" rx="${lh * 0.4}" fill="${t}"/>`;
      out += `<text x="${x + w / 2}" y="${y + h - lh * 0.45 + lh * 0.72}" font-size="${size}" font-weight="700" fill="${geometry.marks.target_text}" text-anchor="middle">${esc(cell.name)}</text></g>`;
    });
  }
  svg.setAttribute('viewBox', `0 0 ${lay.width} ${lay.height}`);
  svg.classList.toggle('choosing', targets.size > 0);
  svg.innerHTML = out;
}

export { NS };
