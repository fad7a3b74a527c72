// The page of `bao serve`: it shows the game the server keeps, and sends what the person does.
'use strict';

const $ = (id) => document.getElementById(id);
let S = null;          // the last state from the server
let paused = false;    // players do not move while paused
let busy = false;      // a request or an animation is under way

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  };
  const r = await fetch(path, opts);
  const j = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

function say(text, error) {
  $('message').textContent = text || '';
  $('message').classList.toggle('error', !!error);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The pit elements by name.
const pitEl = (name) => $('board').querySelector(`[data-pit="${name}"]`);

function render(s) {
  S = s;
  $('board').innerHTML = s.svg;
  for (const m of s.legal) {
    const el = pitEl(m.pit);
    if (el && s.human_to_move) el.classList.add('legal');
  }
  $('seats').textContent = `${s.variant}: South ${s.seats.south} · North ${s.seats.north}`;
  $('ply').textContent = `ply ${s.cursor} / ${s.moves.length}`;
  const ol = $('moves');
  ol.innerHTML = '';
  s.moves.forEach((m) => {
    const li = document.createElement('li');
    li.textContent = `${m.ply}. ${m.text}`;
    li.title = `${m.side}, ply ${m.ply}`;
    li.dataset.ply = m.ply;
    if (m.ply === s.cursor) li.classList.add('current');
    li.onclick = () => act(() => api('/api/goto', { ply: m.ply }));
    ol.appendChild(li);
  });
  $('record').textContent = s.record;
  $('position').textContent = s.position;
  $('choices').innerHTML = '';
  if (s.thinking) say('the player is thinking…');
  else if (s.message) say(s.message);
  $('pause').textContent = paused ? 'Resume' : 'Pause';
  // The run trains on: its network plays its last iteration at each new game.
  if (s.run) $('run-iteration').textContent = s.run.iteration ?? '?';
  fillForm(s);
}

let formFilled = false;
function fillForm(s) {
  if (formFilled) return;
  formFilled = true;
  $('variant').innerHTML = s.variants.map((v) => `<option>${v}</option>`).join('');
  $('variant').value = s.variant;
  $('specs').innerHTML = ['human', ...s.offered].map((o) => `<option value="${o}">`).join('');
  $('south').value = s.seats.south;
  $('north').value = s.seats.north;
  $('time').value = s.time_ms;
  if (s.run) {
    $('run').hidden = false;
    $('run-opponent').innerHTML = s.run.opponents.map((o) => `<option>${o}</option>`).join('');
    listRunGames();
  }
}

// The training run's recorded evaluation games, newest iteration first.
async function listRunGames() {
  try {
    const { games } = await api('/api/run/games');
    const sel = $('run-games');
    sel.innerHTML = '';
    for (const g of games) {
      const o = document.createElement('option');
      o.value = JSON.stringify({ file: g.file, game: g.game });
      o.textContent = `iteration ${g.iteration}, game ${g.game + 1}: ${g.south} – ${g.north} (${g.result})`;
      sel.appendChild(o);
    }
    if (!games.length) sel.innerHTML = '<option disabled>none recorded yet</option>';
  } catch (e) {
    say(e.message, true);
  }
}

// Shows a move's sowing step by step, from the frames the server computed from the trace.
async function animate(last) {
  const delay = Number($('speed').value);
  if (!last || !delay) return;
  for (const f of last.frames) {
    for (const [name, n] of Object.entries(f.counts)) {
      const el = pitEl(name);
      if (!el) continue;
      el.querySelector('text').textContent = n;
      el.classList.toggle('active', f.active.includes(name));
    }
    ['south', 'north'].forEach((side, k) => {
      const store = $('board').querySelector(`[data-store="${side}"] text`);
      if (store) store.textContent = f.stores[k];
    });
    $('caption').textContent = `${last.text}: ${f.caption}`;
    await sleep(delay);
  }
}

// Runs a request that returns a new state, shows the move it made, then lets players move.
async function act(request, animateMove) {
  if (busy) return;
  busy = true;
  try {
    const s = await request();
    if (animateMove && s.last) {
      // Draw the position before the move, then its steps.
      await animate(s.last);
    }
    render(s);
    if (s.last) $('caption').textContent = `${s.last.text} (ply ${s.last.ply})`;
  } catch (e) {
    say(e.message, true);
  } finally {
    busy = false;
  }
  setTimeout(players, 30);
}

// Lets the player on move think and move, while the game is at its last ply and not paused.
function players() {
  if (!S || busy || paused || S.over || S.human_to_move || S.cursor !== S.moves.length) return;
  say('the player is thinking…');
  act(() => api('/api/reply', {}), true);
}

function describe(text) {
  const dir = text.includes('<') ? 'to your left' : text.includes('>') ? 'to your right' : '';
  return `${text} ${dir}${text.endsWith('+') ? ', playing the house' : ''}`;
}

$('board').addEventListener('click', (ev) => {
  const el = ev.target.closest('[data-pit]');
  if (!el || !S || busy) return;
  const name = el.dataset.pit;
  if (S.over) return say('the game is over', true);
  if (!S.human_to_move) return say(`${S.to_move} is played by ${S.to_move === 'South' ? S.seats.south : S.seats.north}`, true);
  const moves = S.legal.filter((m) => m.pit === name);
  if (moves.length === 0) {
    // The server says why (whose pit, empty, takasia, a compulsory capture...).
    act(() => api('/api/move', { text: name }));
    return;
  }
  if (moves.length === 1) {
    act(() => api('/api/move', { text: moves[0].text }), true);
    return;
  }
  $('board').querySelectorAll('.chosen').forEach((p) => p.classList.remove('chosen'));
  el.classList.add('chosen');
  say(`${name}: choose a direction`);
  const box = $('choices');
  box.innerHTML = '';
  for (const m of moves) {
    const b = document.createElement('button');
    b.textContent = describe(m.text);
    b.dataset.move = m.text;
    b.onclick = () => act(() => api('/api/move', { text: m.text }), true);
    box.appendChild(b);
  }
});

const goto = (ply) => act(() => api('/api/goto', { ply: Math.max(0, Math.min(ply, S.moves.length)) }));
$('first').onclick = () => goto(0);
$('back').onclick = () => goto(S.cursor - 1);
$('forward').onclick = () => goto(S.cursor + 1);
$('last').onclick = () => goto(S.moves.length);
$('undo').onclick = () => act(() => api('/api/undo', {}));
$('pause').onclick = () => { paused = !paused; render(S); setTimeout(players, 30); };

function newGame(south, north) {
  paused = false;
  act(() => api('/api/new', {
    variant: $('variant').value, south, north, time_ms: Number($('time').value),
  }));
}
$('new').onclick = () => newGame($('south').value.trim(), $('north').value.trim());
$('watch').onclick = () => {
  const [s, n] = [$('south').value.trim(), $('north').value.trim()];
  newGame(s === 'human' ? S.default_player : s, n === 'human' ? S.default_player : n);
};
$('watch-eval').onclick = () => {
  $('variant').value = S.run.variant;
  newGame(S.run.net, $('run-opponent').value);
};
$('watch-self').onclick = () => { $('variant').value = S.run.variant; newGame(S.run.net, S.run.net); };
$('run-load').onclick = () => {
  const v = $('run-games').value;
  if (!v || v.startsWith('none')) return say('no recorded game chosen', true);
  paused = true;
  act(() => api('/api/run/load', JSON.parse(v)));
};
$('load').onclick = () => act(() => api('/api/load', { text: $('load-text').value, variant: $('variant').value }));

$('analyse').onclick = async () => {
  if (busy) return;
  const body = $('analysis').querySelector('tbody');
  body.innerHTML = '<tr><td colspan="4">thinking…</td></tr>';
  try {
    const a = await api('/api/analyse', { time_ms: Number($('time').value) });
    body.innerHTML = '';
    for (const c of a.candidates) {
      const tr = document.createElement('tr');
      const value = c.value === null ? '' : (c.value >= 0 ? '+' : '') + c.value.toFixed(2);
      tr.innerHTML = `<td>${c.move}</td><td>${(100 * c.share).toFixed(0)}% (${c.visits})</td><td>${value}</td><td>${c.pv.join(' ')}</td>`;
      body.appendChild(tr);
    }
    const best = a.candidates[0];
    const pit = best && pitEl(best.move.slice(0, 2));
    if (pit) pit.classList.add('hint');
    say(`${a.player}: ${a.nodes} nodes`);
  } catch (e) {
    body.innerHTML = '';
    say(e.message, true);
  }
};

// A reload (or a thinking player) picks the game up where the server has it.
async function refresh() {
  try {
    render(await api('/api/state'));
  } catch (e) {
    say(e.message, true);
  }
  if (S && S.thinking) setTimeout(refresh, 500);
  else setTimeout(players, 30);
}
refresh();
