// The tres dashboard: polls the REST API and draws with uPlot. Everything that comes from the
// web (titles, URLs, domains, error codes) is set with textContent or as an attribute value,
// never as HTML, so a hostile page title cannot run in this page.

(() => {
  const token = new URLSearchParams(location.search).get('token');
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 2000;
  const PAGE_SIZE = 50;
  let pageOffset = 0;
  let pageTotal = 0;
  /** False for the read-only view (tres ui DIR) and a crawl that ended: nothing can be changed. */
  let isLive = false;
  const charts = {};

  async function api(path, body) {
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    const init = { headers, method: body === undefined ? 'GET' : 'POST' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    const data = await res.json();
    if (!res.ok) throw new Error(data?.error ? data.error : `${res.status}`);
    return data;
  }

  function showError(error) {
    const p = $('error');
    p.hidden = !error;
    p.textContent = error ? String(error.message || error) : '';
  }

  function el(tag, text, className) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = String(text);
    if (className) e.className = className;
    return e;
  }

  function num(x, digits) {
    if (x === null || x === undefined || Number.isNaN(x)) return '–';
    return digits === undefined ? String(x) : Number(x).toFixed(digits);
  }

  /** A link only for http(s) URLs: a `javascript:` URL from a page never becomes clickable. */
  function link(url) {
    const isWeb = /^https?:\/\//i.test(url);
    const a = el(isWeb ? 'a' : 'span', url);
    if (isWeb) {
      a.href = url;
      a.rel = 'noopener noreferrer';
      a.target = '_blank';
    }
    return a;
  }

  function fillTable(id, rows) {
    const body = $(id).tBodies[0];
    body.replaceChildren(...rows);
  }

  function row(cells, className) {
    const tr = el('tr', undefined, className);
    for (const c of cells) {
      if (c instanceof Node) tr.append(c);
      else tr.append(el('td', c));
    }
    return tr;
  }

  function td(child, className) {
    const cell = el('td', undefined, className);
    if (child instanceof Node) cell.append(child);
    else cell.textContent = String(child);
    return cell;
  }

  /** 12 -> "12", 10000 -> "10k", 2500000 -> "2.5M": axis labels that fit their gutter. */
  function compact(x) {
    if (x === null || x === undefined) return '';
    const a = Math.abs(x);
    if (a >= 1e6) return `${+(x / 1e6).toFixed(1)}M`;
    if (a >= 1e4) return `${+(x / 1e3).toFixed(0)}k`;
    if (a >= 1e3) return `${+(x / 1e3).toFixed(1)}k`;
    return String(+x.toFixed(3));
  }
  const compactValues = (_u, values) => values.map(compact);

  /** 0.626 -> "62.6%". */
  function percent(x) {
    return x === null || x === undefined || Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)}%`;
  }

  /** Seconds as "9 s", "4:09" or "1:05:09". */
  function duration(seconds) {
    const t = Math.max(0, Math.round(seconds));
    if (t < 60) return `${t} s`;
    const h = Math.floor(t / 3600);
    const m = Math.floor((t % 3600) / 60);
    const s = String(t % 60).padStart(2, '0');
    return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
  }

  /** "1040 / 2000 fetched (52%), ETA 0:29" while running; plain counts otherwise. */
  function budgetText(status, p) {
    const max = status.maxPages;
    if (typeof max !== 'number') return `${p.steps} fetched`;
    const share = Math.min(1, p.steps / max);
    const isRunning = status.state === 'running' && p.pagesPerSec > 0 && p.steps < max;
    const eta = isRunning ? `, ETA ${duration((max - p.steps) / p.pagesPerSec)}` : '';
    return `${p.steps} / ${max} fetched (${(share * 100).toFixed(0)}%${eta})`;
  }

  function chart(id, seriesDefs, data, scales) {
    const box = $(id);
    const key = seriesDefs.map((s) => s.label).join('|');
    const width = Math.max(360, box.clientWidth - 10);
    if (!charts[id] || charts[id].key !== key) {
      if (charts[id]) charts[id].plot.destroy();
      const opts = {
        width,
        height: 220,
        scales: Object.assign({ x: { time: false } }, scales || {}),
        // size: room for labels such as "10k" (uPlot's default gutter clipped "10,000" to "0,000").
        axes: [
          { label: 'pages fetched', values: compactValues },
          { scale: seriesDefs[0].scale || 'y', values: compactValues, size: 56 },
        ],
        series: [{ label: 'pages' }, ...seriesDefs],
      };
      if (seriesDefs.some((s) => s.scale === 'y2'))
        opts.axes.push({ scale: 'y2', side: 1, grid: { show: false }, values: compactValues, size: 56 });
      charts[id] = { key, plot: new uPlot(opts, data, box) };
    } else {
      charts[id].plot.setData(data);
    }
  }

  const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];

  function drawCharts(samples) {
    const x = samples.map((s) => s.step);
    chart(
      'chart-harvest',
      [
        { label: 'harvest rate', stroke: COLORS[0], scale: 'y' },
        { label: 'relevant domains', stroke: COLORS[1], scale: 'y2' },
      ],
      [x, samples.map((s) => s.harvestRate), samples.map((s) => s.relevantDomains)],
      { y: { range: [0, 1] } },
    );
    chart('chart-speed', [{ label: 'pages/s', stroke: COLORS[2] }], [x, samples.map((s) => s.pagesPerSec)]);
    chart(
      'chart-frontier',
      [
        { label: 'frontier size', stroke: COLORS[3], scale: 'y' },
        { label: 'leaves', stroke: COLORS[4], scale: 'y2' },
      ],
      [x, samples.map((s) => s.frontierSize), samples.map((s) => s.leaves)],
    );
    const reasons = [];
    for (const s of samples)
      for (const r of Object.keys(s.failures)) if (!reasons.includes(r)) reasons.push(r);
    const defs = reasons.length
      ? reasons.map((r, i) => ({ label: r, stroke: COLORS[i % COLORS.length] }))
      : [{ label: 'failures', stroke: COLORS[7] }];
    const series = reasons.length
      ? reasons.map((r) => samples.map((s) => s.failures[r] || 0))
      : [samples.map(() => 0)];
    chart('chart-failures', defs, [x, ...series]);
  }

  async function label(pageId, isRelevant) {
    try {
      await api('/api/labels', { pageId, isRelevant });
      await refreshPages();
      await refreshFeedback();
    } catch (error) {
      showError(error);
    }
  }

  function labelButtons(page) {
    const cell = el('td');
    if (!page.isPage) return cell;
    const yes = el('button', '✓ relevant');
    const no = el('button', '✗ not');
    yes.type = no.type = 'button';
    if (!isLive) {
      // The read-only view cannot store labels (the server answers 409): say so instead.
      yes.disabled = no.disabled = true;
      yes.title = no.title = 'read-only: label pages in the live dashboard (tres crawl --ui)';
    }
    yes.dataset.pageId = no.dataset.pageId = String(page.id);
    yes.className = `label-yes${page.label === true ? ' on' : ''}`;
    no.className = `label-no${page.label === false ? ' on' : ''}`;
    yes.addEventListener('click', () => label(page.id, true));
    no.addEventListener('click', () => label(page.id, false));
    cell.append(yes, ' ', no);
    return cell;
  }

  async function refreshPages() {
    const p = new URLSearchParams();
    p.set('relevance', $('f-relevance').value);
    if ($('f-domain').value) p.set('domain', $('f-domain').value);
    if ($('f-status').value) p.set('status', $('f-status').value);
    if ($('f-q').value) p.set('q', $('f-q').value);
    p.set('offset', String(pageOffset));
    p.set('limit', String(PAGE_SIZE));
    const data = await api(`/api/pages?${p}`);
    pageTotal = data.total;
    $('page-range').textContent =
      ` ${data.total ? pageOffset + 1 : 0}–${pageOffset + data.pages.length} of ${data.total} `;
    fillTable(
      'pages',
      data.pages.map((page) => {
        const cell = el('td', undefined, 'page');
        cell.append(link(page.url), el('div', page.title || page.errorCode || '', 'title'));
        return row(
          [
            td(page.id, 'num'),
            cell,
            td(page.domain),
            td(page.status, 'num'),
            td(num(page.probability, 3), 'num prob'),
            td(page.judgeVersion === undefined ? '–' : `v${page.judgeVersion}`, 'num'),
            labelButtons(page),
          ],
          page.reward > 0 ? 'relevant' : '',
        );
      }),
    );
  }

  async function answer(id, relevant) {
    try {
      await api(`/api/questions/${id}`, { relevant });
      await refreshQuestions();
      await refreshFeedback();
    } catch (error) {
      showError(error);
    }
  }

  /** One open question: the page (title, URL, excerpt), why it was asked, one click per answer. */
  function questionCard(q) {
    const card = el('article', undefined, 'question');
    card.dataset.questionId = String(q.id);
    const url = link(q.url);
    url.classList.add('url');
    const buttons = el('p');
    for (const [text, value, className] of [
      ['✓ relevant', true, 'q-yes'],
      ['✗ not relevant', false, 'q-no'],
      ['skip', null, 'q-skip'],
    ]) {
      const b = el('button', text, className);
      b.type = 'button';
      b.addEventListener('click', () => answer(q.id, value));
      buttons.append(b, ' ');
    }
    card.append(
      el('h3', q.title || '(no title)'),
      url,
      el('p', q.excerpt, 'excerpt'),
      el('p', `P(relevant) ${num(q.probability, 2)} — asked because ${q.why}`, 'why'),
      buttons,
    );
    return card;
  }

  async function refreshQuestions() {
    const q = await api('/api/questions');
    $('questions-panel').hidden = !q.isAsking && q.asked === 0;
    const budget = q.maxQuestions === false ? '' : ` of at most ${q.maxQuestions}`;
    $('questions-summary').textContent =
      `The crawl asks whether a page is relevant when your answer would teach its judge most. ` +
      `${q.asked} asked${budget}, ${q.answered} answered; answers retrain the judge like labels. ` +
      (q.open.length ? '' : q.isAsking ? 'No open question right now.' : 'Not asking now.');
    $('questions').replaceChildren(...q.open.map(questionCard));
  }

  async function refreshFeedback() {
    const f = await api('/api/feedback');
    const box = $('feedback-summary');
    if (!f) {
      box.textContent = 'Not available for this crawl.';
      $('retrain').disabled = true;
      return;
    }
    const every =
      f.retrainAfterLabels === false ? 'on demand only' : `after ${f.retrainAfterLabels} new labels`;
    box.textContent =
      `${f.labels} pages labelled (${f.relevantLabels} relevant), ${f.newLabels} new; retrains ${every}. ` +
      `Judge: ${f.model} v${f.judgeVersion}${f.isTraining ? ' — retraining…' : ''}`;
    const history = f.history.slice().reverse();
    fillTable(
      'feedback',
      history.map((h) =>
        h.error
          ? row([
              td(new Date(h.finishedAt).toLocaleTimeString()),
              td(h.error),
              td(''),
              td(''),
              td(''),
              td('failed'),
            ])
          : row([
              td(
                `${new Date(h.finishedAt).toLocaleTimeString()} (${h.userLabels} labels, ${h.folds} folds; ` +
                  `${h.checkedOn === 'random' ? 'checked on the answers about random pages' : 'checked on every label'})`,
              ),
              td(num(h.before.macroF1, 3), 'num'),
              td(num(h.after.macroF1, 3), 'num'),
              td(num(h.before.precision, 3), 'num'),
              td(num(h.after.precision, 3), 'num'),
              td(
                h.isAccepted
                  ? `swapped in: v${h.version}`
                  : `kept the current judge${h.refusedBecause ? `: ${h.refusedBecause}` : ''}`,
                'result',
              ),
            ]),
      ),
    );
    const last = history.find((h) => !h.error);
    fillTable(
      'feedback-pages',
      (last ? last.pages : []).map((p) =>
        row([
          td(link(p.url), 'page'),
          td(p.label ? 'relevant' : 'not'),
          td(num(p.before, 3), 'num'),
          td(num(p.after, 3), 'num'),
        ]),
      ),
    );
  }

  async function refresh() {
    try {
      const [status, metrics] = await Promise.all([api('/api/status'), api('/api/metrics')]);
      const state = $('state');
      state.textContent = status.state;
      state.className = `badge ${status.state}`;
      const p = status.progress;
      isLive = status.isLive;
      $('summary').textContent = p
        ? `${status.strategy} · ${budgetText(status, p)} · ${p.relevant} relevant (harvest ${percent(p.harvestRate)}) · ` +
          `${p.relevantDomains} relevant domains · ${num(p.pagesPerSec, 1)} pages/s · judge ${status.judge} v${status.judgeVersion}`
        : `${status.strategy} · starting`;
      for (const id of ['pause', 'resume', 'stop', 'retrain']) $(id).disabled = !status.isLive;
      for (const id of ['seeds', 'seeds-submit']) $(id).disabled = !status.isLive;
      if (!status.isLive)
        $('seeds-result').textContent = 'Read-only: seeds are added to a running crawl (tres crawl --ui).';
      // A stored crawl keeps no frontier: the read-only view draws the URLs discovered and not fetched.
      $('frontier-caption').textContent =
        status.state === 'read-only'
          ? 'Frontier: URLs discovered, not fetched (read-only view)'
          : 'Frontier size and Tree-Frontier leaves';
      $('pause').hidden = status.state === 'paused';
      $('resume').hidden = status.state !== 'paused';
      drawCharts(metrics.samples);
      fillTable(
        'domains',
        metrics.topDomains.map((d) =>
          row([td(d.domain), td(d.pages, 'num'), td(num(d.pages ? d.relevant / d.pages : 0, 2), 'num')]),
        ),
      );
      const stats = Object.entries(metrics.strategyStats);
      fillTable(
        'strategy',
        stats.length
          ? stats.map(([k, v]) => row([td(k), td(num(v, Number.isInteger(v) ? undefined : 4), 'num')]))
          : [
              row([
                td(status.isLive ? 'none yet' : 'not recorded: a crawl keeps no strategy statistics'),
                td(''),
              ]),
            ],
      );
      await refreshQuestions();
      await refreshPages();
      await refreshFeedback();
      showError(undefined);
    } catch (error) {
      showError(error);
    }
  }

  async function post(path, body) {
    try {
      await api(path, body || {});
      await refresh();
    } catch (error) {
      showError(error);
    }
  }

  $('pause').addEventListener('click', () => post('/api/pause'));
  $('resume').addEventListener('click', () => post('/api/resume'));
  $('stop').addEventListener('click', () => post('/api/stop'));
  $('retrain').addEventListener('click', () => post('/api/retrain'));
  $('seeds-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const urls = $('seeds')
      .value.split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!urls.length) return;
    try {
      const r = await api('/api/seeds', { urls });
      $('seeds-result').textContent = `${r.added.length} new seed(s) added`;
      $('seeds').value = '';
    } catch (error) {
      showError(error);
    }
  });
  $('filter').addEventListener('submit', (e) => {
    e.preventDefault();
    pageOffset = 0;
    refreshPages().catch(showError);
  });
  $('prev').addEventListener('click', () => {
    pageOffset = Math.max(0, pageOffset - PAGE_SIZE);
    refreshPages().catch(showError);
  });
  $('next').addEventListener('click', () => {
    if (pageOffset + PAGE_SIZE < pageTotal) pageOffset += PAGE_SIZE;
    refreshPages().catch(showError);
  });
  refresh();
  setInterval(refresh, POLL_MS);
})();
