// The kcrawler status page: polls /api/status every second and draws SVG line charts of /api/history plus the new
// points. No library and nothing loaded from elsewhere; every value from the server is written with textContent or
// as an SVG attribute, never as HTML.
'use strict';
(function () {
  const SVG = 'http://www.w3.org/2000/svg';
  const MAX_POINTS = 600;
  const POLL_MS = 1000;
  const W = 560, H = 190, LEFT = 56, RIGHT = 10, TOP = 10, BOTTOM = 22;
  const COLOURS = ['#2f6fde', '#e4572e', '#17a673', '#a05cd6', '#f2a541', '#4bb3c8', '#c2185b', '#6d7b8a'];
  const pct = v => v == null ? null : v * 100;

  // key: chart id; series: label -> function of a Rates point
  const CHARTS = [
    {id: 'pages', title: 'Pages per second', series: [['pages/s', r => r.pagesPerSecond], ['errors/s', r => r.errorsPerSecond]]},
    {id: 'bytes', title: 'Bytes received per second', format: 'bytes', series: [['bytes/s', r => r.bytesPerSecond]]},
    {id: 'latency', title: 'Fetch latency (ms, over each second)', series: [['p50', r => r.latencyP50Ms],
      ['p90', r => r.latencyP90Ms], ['p99', r => r.latencyP99Ms]]},
    {id: 'frontier', title: 'Frontier (URLs waiting in the scheduler)', series: [['frontier', r => r.frontierSize]]},
    {id: 'queues', title: 'In flight and active IPs', series: [['fetches in flight', r => r.inFlight],
      ['IPs with URLs waiting', r => r.activeIps], ['released/s', r => r.releasedPerSecond]]},
    {id: 'urlseen', title: 'URL-seen test: share answered by each tier (%)', series: [['LRU hits', r => pct(r.lruHitRate)],
      ['SBFL positives', r => pct(r.sbflHitRate)], ['store hits', r => pct(r.storageHitRate)], ['new', r => pct(r.newUrlRate)]]},
    {id: 'politeness', title: 'Politeness wait at the per-IP guard (ms)', series: [['p50', r => r.politenessWaitP50Ms],
      ['p99', r => r.politenessWaitP99Ms], ['waits/s', r => r.politenessWaitsPerSecond]]},
    {id: 'errors', title: 'Fetch errors per second by reason', dynamic: r => r.errorsPerSecondByReason || {}},
  ];

  let history = [];
  const els = {};

  function el(tag, attrs, text) {
    const e = tag.startsWith('svg:') ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text != null) e.textContent = String(text);
    return e;
  }

  function num(v, digits) {
    if (v == null || !isFinite(v)) return '–';
    const d = digits == null ? (Math.abs(v) >= 100 || Number.isInteger(v) ? 0 : 1) : digits;
    return Number(v).toLocaleString('en', {maximumFractionDigits: d, minimumFractionDigits: 0});
  }

  function bytes(v) {
    if (v == null || !isFinite(v)) return '–';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    while (Math.abs(v) >= 1024 && i < units.length - 1) { v /= 1024; i++; }
    return num(v, v >= 100 ? 0 : 1) + ' ' + units[i];
  }

  function duration(s) {
    s = Math.floor(s || 0);
    const h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), sec = s % 60;
    return (h ? h + 'h ' : '') + (h || m ? m + 'm ' : '') + sec + 's';
  }

  function niceMax(v) {
    if (!(v > 0)) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
    return 10 * p;
  }

  function buildCharts() {
    const root = document.getElementById('charts');
    for (const c of CHARTS) {
      const fig = el('figure', {class: 'chart', id: 'chart-' + c.id});
      fig.appendChild(el('figcaption', {}, c.title));
      const svg = el('svg:svg', {viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': c.title, 'data-points': 0});
      fig.appendChild(svg);
      const legend = el('div', {class: 'legend'});
      fig.appendChild(legend);
      root.appendChild(fig);
      els[c.id] = {svg, legend};
    }
  }

  function seriesOf(c) {
    if (!c.dynamic) return c.series;
    const names = new Set();
    for (const r of history) for (const k of Object.keys(c.dynamic(r))) names.add(k);
    return [...names].sort().map(k => [k, r => (c.dynamic(r) || {})[k]]);
  }

  function drawChart(c) {
    const {svg, legend} = els[c.id];
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    while (legend.firstChild) legend.removeChild(legend.firstChild);
    const series = seriesOf(c);
    const fmt = c.format === 'bytes' ? bytes : v => num(v);
    let max = 0;
    for (const [, f] of series) for (const r of history) { const v = f(r); if (v != null && isFinite(v)) max = Math.max(max, v); }
    const top = niceMax(max);
    const plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
    for (let i = 0; i <= 4; i++) {
      const y = TOP + plotH - plotH * i / 4;
      svg.appendChild(el('svg:line', {class: 'grid', x1: LEFT, x2: W - RIGHT, y1: y, y2: y}));
      svg.appendChild(el('svg:text', {class: 'axis', x: LEFT - 4, y: y + 3, 'text-anchor': 'end'}, fmt(top * i / 4)));
    }
    const n = history.length;
    svg.setAttribute('data-points', n);
    if (n < 2) {
      svg.appendChild(el('svg:text', {class: 'empty', x: LEFT + plotW / 2, y: TOP + plotH / 2, 'text-anchor': 'middle'},
        'waiting for data'));
    }
    const t0 = n ? history[0].t : 0, t1 = n ? history[n - 1].t : 1, span = Math.max(1, t1 - t0);
    svg.appendChild(el('svg:text', {class: 'axis', x: LEFT, y: H - 6}, n ? '−' + duration(span / 1000) : ''));
    svg.appendChild(el('svg:text', {class: 'axis', x: W - RIGHT, y: H - 6, 'text-anchor': 'end'}, 'now'));
    series.forEach(([label, f], i) => {
      const colour = COLOURS[i % COLOURS.length];
      let segment = [];
      const segments = [segment];
      for (const r of history) {
        const v = f(r);
        if (v == null || !isFinite(v)) { if (segment.length) segments.push(segment = []); continue; }
        const x = LEFT + plotW * (r.t - t0) / span;
        const y = TOP + plotH - plotH * Math.min(v, top) / top;
        segment.push(x.toFixed(1) + ',' + y.toFixed(1));
      }
      for (const s of segments) {
        if (s.length) svg.appendChild(el('svg:polyline', {class: 'series', stroke: colour, points: s.join(' '),
          'data-series': label}));
      }
      const last = n ? f(history[n - 1]) : null;
      const item = el('span', {'data-series': label});
      const sw = el('span', {class: 'swatch'});
      sw.style.background = colour;
      item.appendChild(sw);
      item.appendChild(document.createTextNode(label));
      item.appendChild(el('span', {class: 'val'}, fmt(last)));
      legend.appendChild(item);
      svg.setAttribute('data-last-' + i, last == null ? '' : last);
    });
  }

  function table(id, rows) {
    const t = document.getElementById(id);
    while (t.firstChild) t.removeChild(t.firstChild);
    for (const [k, v, text] of rows) {
      const tr = el('tr', v === 0 ? {class: 'zero'} : {});
      tr.appendChild(el('td', {}, k));
      tr.appendChild(el('td', {class: 'num'}, text != null ? text : num(v)));
      t.appendChild(tr);
    }
    if (!rows.length) t.appendChild(el('tr', {class: 'zero'})).appendChild(el('td', {}, 'none'));
  }

  function grid(id, headers, rows) {
    const t = document.getElementById(id);
    while (t.firstChild) t.removeChild(t.firstChild);
    const head = el('tr');
    headers.forEach(([h, num]) => head.appendChild(el('th', num ? {class: 'num'} : {}, h)));
    t.appendChild(head);
    for (const row of rows) {
      const tr = el('tr');
      row.forEach((v, i) => tr.appendChild(el('td', headers[i][1] ? {class: 'num'} : {}, v)));
      t.appendChild(tr);
    }
    if (!rows.length) t.appendChild(el('tr', {class: 'zero'})).appendChild(el('td', {colspan: headers.length}, 'none'));
  }

  function renderActivity(a) {
    const section = document.getElementById('activity');
    section.hidden = !a;
    if (!a) return;
    document.getElementById('activityWindow').textContent =
      '(last ' + num(a.windowSeconds) + ' s, ' + num(a.results) + ' results)' + (a.problem ? ' — ' + a.problem : '');
    const busiest = list => (list || []).map(b => [b.name, num(b.fetches), num(b.errors), bytes(b.bytes)]);
    grid('busiestHosts', [['host'], ['fetches', 1], ['errors', 1], ['bytes', 1]], busiest(a.busiestHosts));
    grid('busiestIps', [['IP'], ['fetches', 1], ['errors', 1], ['bytes', 1]], busiest(a.busiestIps));
    grid('recentErrors', [['time'], ['reason'], ['status', 1], ['URL'], ['detail']],
      (a.recentErrors || []).map(e => [new Date(e.time).toLocaleTimeString('en-GB'), e.outcome,
        e.status > 0 ? String(e.status) : '', e.url || '', e.error || '']));
  }

  const entries = m => Object.entries(m || {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const share = (part, whole) => whole > 0 ? num(100 * part / whole, 1) + ' %' : '–';

  function render(s) {
    const set = (id, text) => { document.getElementById(id).textContent = text; };
    set('source', s.source);
    set('uptime', duration(s.uptimeSeconds));
    set('updated', new Date(s.time).toLocaleTimeString('en-GB'));
    set('pagesFetched', num(s.pagesFetched));
    set('pagesPerSecond', num(s.pagesPerSecond));
    set('bytesPerSecond', bytes(s.bytesPerSecond));
    set('frontierSize', num(s.frontierSize));
    set('inFlight', num(s.inFlight));
    set('fetchErrors', num(s.fetchErrors));
    set('warcRecords', num(s.warcRecords));
    set('badRecords', num(s.badRecords));
    set('deadLetters', num(s.deadLetters));
    const errs = document.getElementById('sourceErrors');
    errs.hidden = !(s.sourceErrors && s.sourceErrors.length);
    errs.textContent = errs.hidden ? '' : 'Not read at the last poll: ' + s.sourceErrors.join('; ');
    table('errorsByReason', entries(s.errorsByReason));
    table('fetchesByStatus', entries(s.fetchesByStatus));
    table('declinedByReason', entries(s.declinedByReason));
    table('droppedByReason', entries(s.droppedByReason));
    table('deadLettersBySource', entries(s.deadLettersBySource));
    table('linksRejectedByReason', entries(s.linksRejectedByReason));
    table('dnsFailuresByReason', entries(s.dnsFailuresByReason));
    renderActivity(s.activity);
    const u = s.urlSeen || {};
    table('urlSeen', [['tests', u.tests], ['new URLs', u.newUrls, share(u.newUrls, u.tests)],
      ['LRU hits', u.lruHits, share(u.lruHits, u.tests)], ['SBFL positives', u.sbflPositives, share(u.sbflPositives, u.tests)],
      ['store lookups', u.storageLookups, share(u.storageLookups, u.tests)],
      ['store hits', u.storageHits, share(u.storageHits, u.tests)], ['forgotten', u.forgotten]]);
    table('pipeline', [['outlinks discovered', s.linksDiscovered], ['fetch requests released', s.released],
      ['IPs with URLs waiting', s.activeIps], ['rank updates', s.rankUpdates], ['WARC records', s.warcRecords],
      ['bytes received', s.bytesFetched, bytes(s.bytesFetched)]]);
  }

  function add(point) {
    if (!point) return;
    if (history.length && history[history.length - 1].t >= point.t) return;
    history.push(point);
    if (history.length > MAX_POINTS) history.splice(0, history.length - MAX_POINTS);
  }

  function connection(ok) {
    const b = document.getElementById('connection');
    b.textContent = ok ? 'live' : 'disconnected';
    b.className = 'badge ' + (ok ? 'ok' : 'down');
  }

  async function getJson(path) {
    const r = await fetch(path, {cache: 'no-store'});
    if (!r.ok) throw new Error(path + ': HTTP ' + r.status);
    return r.json();
  }

  async function tick() {
    try {
      const s = await getJson('api/status');
      add(s.rates);
      render(s);
      CHARTS.forEach(drawChart);
      connection(true);
    } catch (e) {
      connection(false);
    } finally {
      setTimeout(tick, POLL_MS);
    }
  }

  async function start() {
    buildCharts();
    try {
      const h = await getJson('api/history');
      if (Array.isArray(h)) h.forEach(add);
    } catch (e) {
      connection(false);
    }
    CHARTS.forEach(drawChart);
    tick();
  }

  start();
})();
