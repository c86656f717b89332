// The ops console's script: plain browser JavaScript, no framework, no build step. It listens to
// GET /events (server-sent events: `series` once per connection, then `snapshot` every second),
// renders the snapshot, and sends the operator's actions to POST /actions/<action> with the token
// the operator typed in. Invariants kept:
// - every value from the daemon reaches the page as text (textContent), never as markup, so a
//   market's question cannot inject anything;
// - the token lives in this page's memory, and in sessionStorage (this tab only, gone when it
//   closes) only when "keep for this tab" is ticked; never in localStorage, a cookie or a URL;
// - the page never decides whether an action is allowed: the daemon does (401/403 shown as sent);
// - the chart keeps at most the server's window of samples (two hours at one a second).
'use strict';

(function main() {
  const TOKEN_KEY = 'oddsmaker.operatorToken';
  const MAX_POINTS = 7200;
  const $ = (id) => document.getElementById(id);

  // ------------------------------------------------------------------------------ DOM helpers

  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v;
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function dl(target, rows) {
    target.replaceChildren(...rows.flatMap(([k, v, cls]) => [el('dt', {}, k), el('dd', { class: cls }, v)]));
  }

  const sign = (s) => (s === null || s === undefined ? '' : Number(s) > 0 ? 'pos' : Number(s) < 0 ? 'neg' : '');
  const money = (s) =>
    s === null || s === undefined
      ? '—'
      : Number(s).toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 4 });
  const shares = (s) =>
    s === null || s === undefined ? '—' : Number(s).toLocaleString(undefined, { maximumFractionDigits: 2 });
  const price = (s) =>
    s === null || s === undefined ? '—' : Number(s).toFixed(Math.max(2, (s.split('.')[1] || '').length));
  const clock = (iso) => new Date(iso).toLocaleTimeString(undefined, { hour12: false });

  // ------------------------------------------------------------------------------ header and cards

  function renderHeader(s, time) {
    $('mode').textContent = `${s.mode} · ${s.strategy}`;
    const state = $('state');
    state.textContent = s.state;
    state.className = `badge ${s.state === 'running' ? 'ok' : s.state === 'failed' ? 'bad' : 'warn'}`;
    const q = $('quoting');
    const halted = s.killSwitch.tripped
      ? 'halted (kill switch)'
      : s.halted !== null
        ? 'halted (strategy error)'
        : s.paused
          ? 'paused'
          : s.quoting
            ? 'quoting'
            : 'not quoting';
    q.textContent = halted;
    q.className = `badge ${s.quoting ? 'ok' : s.killSwitch.tripped ? 'bad' : 'warn'}`;
    $('updated').textContent = `updated ${clock(time)}`;
  }

  function renderHealth(s) {
    const h = $('health');
    const badge = el(
      'span',
      { class: `badge ${s.health.healthy ? 'ok' : 'bad'}` },
      s.health.healthy ? 'healthy' : 'unhealthy',
    );
    const reasons =
      s.health.reasons.length === 0
        ? null
        : el(
            'ul',
            { class: 'reasons' },
            s.health.reasons.map((r) => el('li', {}, r)),
          );
    h.replaceChildren(badge, reasons || '');
    const ks = s.killSwitch;
    const cb = s.circuitBreaker;
    dl($('safety'), [
      ['kill switch', ks.tripped ? `tripped: ${ks.reason || 'no reason'}` : 'armed', ks.tripped ? 'neg' : 'pos'],
      ['order entry breaker', cb.orderEntry, cb.orderEntry === 'open' ? 'neg' : ''],
      [
        'market data breaker',
        `${cb.marketData}${cb.consecutivePollFailures > 0 ? ` (${cb.consecutivePollFailures} failed polls)` : ''}`,
        cb.marketData === 'open' ? 'neg' : '',
      ],
      ['operator pause', s.paused ? 'paused' : 'no', s.paused ? 'neg' : ''],
      ['cycles', String(s.cycles), ''],
      ['open orders', String(s.openOrders), ''],
    ]);
  }

  function renderPnl(s) {
    const p = s.pnl;
    dl($('pnl'), [
      ['total', money(p.total), sign(p.total)],
      ['realized (net of fees)', money(p.realized), sign(p.realized)],
      ['unrealized (at mids)', money(p.unrealized), sign(p.unrealized)],
      ['fees paid', money(p.fees), ''],
      ['today', money(p.daily), sign(p.daily)],
      ['free collateral', money(p.freeCollateral), ''],
    ]);
  }

  // ------------------------------------------------------------------------------ markets

  function ladder(t) {
    const rows = [];
    const level = (l, cls) =>
      el(
        'tr',
        { class: `${cls}${Number(l.ours) > 0 ? ' ours' : ''}` },
        el('td', { class: 'num ours' }, Number(l.ours) > 0 ? shares(l.ours) : ''),
        el('td', { class: 'num price' }, price(l.price)),
        el('td', { class: 'num' }, shares(l.size)),
      );
    for (const l of [...t.asks].reverse()) rows.push(level(l, 'ask'));
    rows.push(
      el('tr', { class: 'spread' }, el('td', { colspan: 3 }, t.mid === null ? 'no mid' : `mid ${price(t.mid)}`)),
    );
    for (const l of t.bids) rows.push(level(l, 'bid'));
    return el(
      'table',
      { class: 'ladder' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { class: 'num' }, 'ours'),
          el('th', { class: 'num' }, 'price'),
          el('th', { class: 'num' }, 'size'),
        ),
      ),
      el('tbody', {}, rows),
    );
  }

  function tokenCard(t) {
    const orders =
      t.orders.length === 0
        ? 'no order of ours'
        : t.orders
            .map(
              (o) =>
                `${o.side === 'BUY' ? 'bid' : 'ask'} ${shares(o.size)} @ ${price(o.price)}${o.state !== 'live' ? ` (${o.state})` : ''}`,
            )
            .join(' · ');
    return el(
      'div',
      { class: 'token', 'data-testid': 'token' },
      el(
        'h4',
        {},
        el('span', { 'data-testid': 'outcome' }, t.outcome),
        el('span', { class: 'muted' }, t.mid === null ? '' : price(t.mid)),
      ),
      el(
        'div',
        { class: 'figures' },
        el('span', { 'data-testid': 'position' }, `position ${shares(t.position)}`),
        el('span', {}, t.avgPrice === null ? '' : `avg ${price(t.avgPrice)}`),
        el('span', { class: sign(t.unrealized) }, t.unrealized === null ? '' : `uPnL ${money(t.unrealized)}`),
      ),
      ladder(t),
      el('div', { class: 'orders' }, orders),
    );
  }

  function renderMarkets(markets) {
    const box = $('markets');
    if (markets.length === 0) {
      box.replaceChildren(el('p', { class: 'muted' }, 'No market in the universe yet.'));
      return;
    }
    box.replaceChildren(
      ...markets.map((m) => {
        const pnl = m.pnl === null ? '' : `PnL ${money(String(Number(m.pnl.realized) + Number(m.pnl.unrealized)))}`;
        return el(
          'article',
          { class: 'card market', 'data-testid': 'market', 'data-condition-id': m.conditionId },
          el('h3', { 'data-testid': 'market-question', title: m.conditionId }, m.question || m.conditionId),
          el(
            'div',
            { class: 'meta' },
            m.stale ? el('span', { class: 'badge bad' }, 'stale') : el('span', { class: 'badge ok' }, 'fresh'),
            el('span', {}, `${m.quotes} quotes · ${m.openOrders} open orders`),
            el(
              'span',
              {
                class: m.pnl === null ? '' : sign(Number(m.pnl.realized) + Number(m.pnl.unrealized)),
                'data-testid': 'market-pnl',
              },
              pnl,
            ),
            m.pnl === null ? '' : el('span', {}, `fees ${money(m.pnl.fees)}`),
          ),
          el('div', { class: 'tokens' }, m.tokens.map(tokenCard)),
        );
      }),
    );
  }

  // ------------------------------------------------------------------------------ fills and limiter

  let newestFill = 0;
  function renderFills(fills) {
    const body = $('fills').tBodies[0];
    const before = newestFill;
    body.replaceChildren(
      ...fills.map((f) =>
        el(
          'tr',
          { class: before > 0 && f.seq > before ? 'new' : '', 'data-seq': f.seq },
          el('td', {}, clock(f.time)),
          el('td', { class: 'question', title: f.question || f.conditionId }, f.question || f.conditionId),
          el('td', {}, f.outcome || f.tokenId),
          el('td', { class: f.side === 'BUY' ? 'buy' : 'sell' }, f.side),
          el('td', { class: 'num' }, price(f.price)),
          el('td', { class: 'num' }, shares(f.size)),
          el('td', { class: 'num' }, money(f.fee)),
          el('td', {}, f.liquidity),
        ),
      ),
    );
    if (fills.length > 0) newestFill = Math.max(newestFill, fills[0].seq);
    $('no-fills').hidden = fills.length > 0;
  }

  function renderLimiter(l) {
    const state = $('limiter-state');
    const body = $('limiter').tBodies[0];
    if (l === null) {
      state.textContent = 'No rate limiter.';
      body.replaceChildren();
      return;
    }
    state.replaceChildren(
      el('span', { class: `badge ${l.up ? 'ok' : 'bad'}` }, l.up ? 'backend up' : `backend down: ${l.reason}`),
    );
    const routes = [...l.routes].sort((a, b) => b.utilisation - a.utilisation);
    body.replaceChildren(
      ...routes.map((r) => {
        const busiest = r.windows.reduce((a, w) => (a === null || w.utilisation > a.utilisation ? w : a), null);
        return el(
          'tr',
          { 'data-testid': 'limiter-route' },
          el('td', {}, r.route),
          el('td', {}, r.api),
          el(
            'td',
            {},
            el('meter', { min: 0, max: 1, low: 0.5, high: 0.8, optimum: 0, value: r.utilisation }),
            ` ${(r.utilisation * 100).toFixed(1)}%`,
          ),
          el(
            'td',
            { class: 'num' },
            busiest === null ? '' : `${busiest.used}/${busiest.limit} per ${busiest.windowMs / 1000}s`,
          ),
          el('td', { class: 'num' }, String(r.queued)),
          el('td', { class: 'num' }, r.pausedForMs > 0 ? `${(r.pausedForMs / 1000).toFixed(1)}s` : ''),
        );
      }),
    );
  }

  // ------------------------------------------------------------------------------ chart

  let data = [[], [], []];
  let chart = null;

  function chartWidth() {
    return Math.max(300, $('chart').clientWidth);
  }

  function makeChart() {
    if (typeof window.uPlot !== 'function') {
      $('chart').textContent = 'chart library not loaded';
      return;
    }
    const grid = { stroke: '#262c35', width: 1 };
    const axis = { stroke: '#8792a2', grid, ticks: grid };
    const opts = {
      width: chartWidth(),
      height: 240,
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true }, eq: { auto: true }, inv: { auto: true } },
      series: [
        {},
        {
          label: 'equity (PnL)',
          scale: 'eq',
          stroke: '#2f81f7',
          width: 2,
          value: (u, v) => (v === null ? '—' : v.toFixed(4)),
        },
        {
          label: 'inventory (shares)',
          scale: 'inv',
          stroke: '#d29922',
          width: 1.5,
          value: (u, v) => (v === null ? '—' : v.toFixed(2)),
        },
      ],
      axes: [
        axis,
        { ...axis, scale: 'eq', size: 60 },
        { ...axis, scale: 'inv', side: 1, size: 60, grid: { show: false } },
      ],
    };
    chart = new window.uPlot(opts, data, $('chart'));
    new ResizeObserver(() => chart.setSize({ width: chartWidth(), height: 240 })).observe($('chart'));
  }

  function setSeries(cols) {
    data = [cols.t, cols.equity, cols.inventory];
    if (chart === null) makeChart();
    else chart.setData(data);
  }

  function addPoint(p) {
    if (p === null) return;
    const t = data[0];
    if (t.length > 0 && p.t <= t[t.length - 1]) return;
    data[0].push(p.t);
    data[1].push(p.equity);
    data[2].push(p.inventory);
    if (t.length > MAX_POINTS) for (const col of data) col.splice(0, col.length - MAX_POINTS);
    if (chart !== null) chart.setData(data);
  }

  // ------------------------------------------------------------------------------ live data

  let snapshots = 0;
  function render(v) {
    snapshots++;
    document.body.dataset.snapshots = String(snapshots);
    renderHeader(v.status, v.time);
    renderHealth(v.status);
    renderPnl(v.status);
    renderMarkets(v.markets);
    renderFills(v.fills);
    renderLimiter(v.limiter);
    addPoint(v.point);
  }

  function connect() {
    const conn = $('conn');
    const es = new EventSource('/events');
    es.addEventListener('open', () => {
      conn.textContent = 'live';
      conn.className = 'badge ok';
    });
    es.addEventListener('error', () => {
      conn.textContent = 'reconnecting';
      conn.className = 'badge bad';
    });
    es.addEventListener('series', (e) => setSeries(JSON.parse(e.data)));
    es.addEventListener('snapshot', (e) => render(JSON.parse(e.data)));
  }

  // ------------------------------------------------------------------------------ operator actions

  let token = '';
  const tokenInput = $('token');
  const keep = $('keep');
  try {
    const kept = sessionStorage.getItem(TOKEN_KEY);
    if (kept !== null) {
      token = kept;
      tokenInput.value = kept;
      keep.checked = true;
    }
  } catch {
    /* storage off: memory only */
  }

  function saveToken() {
    token = tokenInput.value.trim();
    try {
      if (keep.checked && token !== '') sessionStorage.setItem(TOKEN_KEY, token);
      else sessionStorage.removeItem(TOKEN_KEY);
    } catch {
      /* storage off: memory only */
    }
  }
  tokenInput.addEventListener('input', saveToken);
  keep.addEventListener('change', saveToken);
  $('forget').addEventListener('click', () => {
    tokenInput.value = '';
    keep.checked = false;
    saveToken();
  });
  $('token-form').addEventListener('submit', (e) => e.preventDefault());

  const result = $('action-result');
  function say(text, ok) {
    result.textContent = text;
    result.className = ok ? 'ok' : 'bad';
  }

  async function act(action, button) {
    saveToken();
    const headers = { 'content-type': 'application/json' };
    if (token !== '') headers.authorization = `Bearer ${token}`;
    const reason = $('reason').value.trim();
    const body = action === 'trip-kill-switch' && reason !== '' ? { reason } : {};
    button.disabled = true;
    say(`${action}…`, true);
    try {
      const res = await fetch(`/actions/${action}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
      });
      const answer = await res.json().catch(() => ({}));
      if (res.ok) {
        const extra = answer.cancelAll
          ? `, ${answer.cancelAll.cancelled} cancelled, ${answer.cancelAll.remaining} remaining`
          : '';
        say(
          `${action}: done (${answer.paused ? 'paused' : 'not paused'}, ${answer.quoting ? 'quoting' : 'not quoting'}, kill switch ${answer.killSwitch && answer.killSwitch.tripped ? 'tripped' : 'armed'}${extra})`,
          true,
        );
      } else {
        say(`${action} refused (${res.status}): ${answer.error || res.statusText}`, false);
      }
    } catch (err) {
      say(`${action} failed: ${err && err.message ? err.message : String(err)}`, false);
    } finally {
      button.disabled = false;
    }
  }
  for (const b of document.querySelectorAll('button[data-action]')) {
    b.addEventListener('click', () => {
      void act(b.dataset.action, b);
    });
  }

  connect();
})();
