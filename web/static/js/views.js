// The other views: grants, audit log, sessions, rules and devices.

import { api, q } from './api.js';
import { h, clear, v, visible, fmtTime, toast, confirmButton } from './dom.js';

const $ = (id) => document.getElementById(id);

function formValues(form) {
  const out = {};
  for (const [k, val] of new FormData(form)) out[k] = String(val).trim();
  return out;
}

function showError(statusEl, err, what) {
  statusEl.className = 'status bad';
  statusEl.textContent = err.status === 403 ? `${what} needs an admin token: ${err.message}` : err.message;
}

function ok(statusEl, text) {
  statusEl.className = 'status';
  statusEl.textContent = text;
}

/**
 * replaceRows shows rows in list, but keeps an existing row whose
 * confirmation button is armed, so a live refresh does not undo a
 * half-made confirmation.
 */
function replaceRows(list, rows) {
  const armed = new Map();
  for (const el of list.querySelectorAll('.row')) {
    if (el.querySelector('.armed')) armed.set(el.dataset.id, el);
  }
  clear(list).append(...rows.map((r) => armed.get(r.dataset.id) || r));
}

// ---- grants ----

export const grants = {
  init() {
    $('grants-filter').addEventListener('submit', (e) => { e.preventDefault(); this.load(); });
  },
  async load() {
    const st = $('grants-status');
    const list = $('grants-list');
    const f = formValues($('grants-filter'));
    let data;
    try {
      data = await api('GET', 'v1/grants' + q(f));
    } catch (err) {
      showError(st, err, 'Listing grants');
      return;
    }
    const gs = data.grants || [];
    ok(st, gs.length ? `${gs.length} grant${gs.length > 1 ? 's' : ''}` : 'No grants match.');
    replaceRows(list, gs.map((g) => h('div', { class: 'row grant', dataset: { id: g.id } },
      h('span', { class: 'badge scope-' + g.scope }, g.scope),
      v(g.tool, 'tool'),
      h('code', { class: 'pattern' }, visible(g.kind === 'tool' ? '* (whole tool)' : g.pattern)),
      g.kind === 'prefix' ? h('span', { class: 'badge' }, 'prefix') : null,
      h('span', { class: 'meta' },
        g.session ? ['session ', v(g.session), ' \u00B7 '] : null,
        g.workspace ? ['workspace ', v(g.workspace), ' \u00B7 '] : null,
        'by ', v(g.created_by || '?'), ' \u00B7 ', fmtTime(g.created_at)),
      confirmButton('Revoke', 'Really revoke?', async () => {
        try {
          await api('DELETE', 'v1/grants/' + encodeURIComponent(g.id));
          toast('Grant revoked');
          await this.load();
        } catch (err) {
          showError(st, err, 'Revoking a grant');
        }
      }, 'small danger revoke'))));
  },
};

// ---- audit ----

/** localToRFC3339 turns a datetime-local value into an RFC 3339 time. */
function localToRFC3339(val) {
  if (!val) return '';
  const d = new Date(val);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/**
 * auditSubject shows what an entry decided: the call's command, path or
 * other argument, or what a resolution granted or answered.
 */
function auditSubject(e, calls) {
  const d = e.data && typeof e.data === 'object' ? e.data : {};
  const args = d.args || null;
  let text = '';
  const argText = (x) => {
    const k = ['command', 'cmd', 'script', 'file_path', 'path', 'url', 'pattern', 'query', 'name'].find((y) => typeof x[y] === 'string');
    return k ? x[k] : JSON.stringify(x);
  };
  const parts = [];
  if (args) parts.push(argText(args));
  else if (calls.has(e.approval_id)) parts.push(argText(calls.get(e.approval_id))); // an entry from before resolutions named the call
  if (e.kind === 'approval.resolved') {
    if (d.pattern) parts.push(`granted ${d.grant === 'prefix' ? 'prefix ' : ''}${d.pattern}`);
    else if (d.grant === 'tool') parts.push(`granted every ${e.tool} call`);
    if (d.answer) parts.push('answer ' + JSON.stringify(d.answer));
    if (d.modifications) parts.push('edited ' + JSON.stringify(d.modifications));
    if (d.feedback) parts.push(`feedback \u201C${d.feedback}\u201D`);
  }
  text = parts.join(' \u00B7 ');
  if (!text) return null;
  if (text.length > 300) text = text.slice(0, 300) + '\u2026';
  return h('code', { class: 'subject' }, visible(text));
}

export const audit = {
  entries: [],
  calls: new Map(), // approval id -> the call's args, from approval.requested entries
  init() {
    $('audit-filter').addEventListener('submit', (e) => { e.preventDefault(); this.load(false); });
    $('audit-more').addEventListener('click', () => this.load(true));
    $('verify').addEventListener('click', () => this.verify());
  },
  /** load searches the log; more pages on after the last entry shown. */
  async load(more) {
    const st = $('audit-status');
    const f = formValues($('audit-filter'));
    f.since = localToRFC3339(f.since);
    f.until = localToRFC3339(f.until);
    f.limit = '100';
    if (more && this.entries.length) f.after = String(this.entries[this.entries.length - 1].seq);
    let data;
    try {
      data = await api('GET', 'v1/audit' + q(f));
    } catch (err) {
      showError(st, err, 'The audit log');
      return;
    }
    const es = data.entries || [];
    this.entries = more ? this.entries.concat(es) : es;
    ok(st, this.entries.length ? `${this.entries.length} entr${this.entries.length > 1 ? 'ies' : 'y'}` : 'No entries match.');
    $('audit-more').hidden = es.length < 100;
    const list = $('audit-list');
    if (!more) {
      clear(list);
      this.calls.clear();
    }
    for (const e of es) if (e.kind === 'approval.requested' && e.approval_id && e.data && e.data.args) this.calls.set(e.approval_id, e.data.args);
    list.append(...es.map((e) => h('div', { class: 'row entry o-' + (e.outcome || '') },
      h('span', { class: 'seq' }, '#' + e.seq),
      h('span', { class: 'when' }, fmtTime(e.time)),
      h('span', { class: 'badge' }, e.kind),
      e.outcome ? h('span', { class: 'badge outcome' }, e.outcome) : null,
      e.tool ? v(e.tool, 'tool') : null,
      h('span', { class: 'meta' },
        e.session ? ['session ', v(e.session), ' '] : null,
        e.who ? ['\u00B7 ', v(e.who), e.via ? ' via ' + e.via : ''] : null),
      e.reason ? h('span', { class: 'reason' }, visible(e.reason)) : null,
      auditSubject(e, this.calls))));
  },
  /** verify asks the server to check the whole log's hash chain. */
  async verify() {
    const el = $('chain-status');
    el.className = '';
    el.textContent = 'checking\u2026';
    try {
      const r = await api('GET', 'ui/audit/verify');
      if (r.ok) {
        el.className = 'good';
        el.textContent = `\u2713 Hash chain intact: ${r.entries} entries${r.head ? ', head ' + r.head.slice(0, 12) + '\u2026' : ''}`;
      } else {
        el.className = 'bad';
        el.textContent = `\u2717 Hash chain broken after ${r.entries} good entries: ${r.error}`;
      }
    } catch (err) {
      el.className = 'bad';
      el.textContent = err.status === 403 ? 'Verifying the chain needs an admin token.' : 'Could not verify: ' + err.message;
    }
  },
};

// ---- sessions ----

const MODES = ['default', 'read-only', 'auto-edit', 'yolo', 'auto-deny', 'dont-ask'];

export const sessions = {
  init() {
    $('sessions-refresh').addEventListener('click', () => this.load());
  },
  async load() {
    const st = $('sessions-status');
    let data;
    try {
      data = await api('GET', 'v1/sessions');
    } catch (err) {
      showError(st, err, 'Listing sessions');
      return;
    }
    const ss = (data.sessions || []).slice().sort((a, b) => (b.updated_at || '').localeCompare(a.updated_at || ''));
    ok(st, ss.length ? `${ss.length} session${ss.length > 1 ? 's' : ''}` : 'No sessions yet.');
    const dl = $('workspaces');
    clear(dl).append(...[...new Set(ss.map((s) => s.workspace).concat('default'))].map((w) => h('option', { value: w })));
    replaceRows($('sessions-list'), ss.map((s) => this.row(s)));
  },
  row(s) {
    const st = $('sessions-status');
    const id = encodeURIComponent(s.id);
    const mode = h('select', { 'aria-label': 'Mode', class: 'mode' },
      MODES.map((m) => h('option', { value: m, selected: m === s.mode }, m)));
    mode.addEventListener('change', async () => {
      try {
        await api('PUT', `v1/sessions/${id}/mode`, { mode: mode.value });
        toast(`Mode of ${s.id}: ${mode.value}`);
      } catch (err) {
        showError(st, err, 'Changing the mode');
        mode.value = s.mode;
      }
    });
    return h('div', { class: 'row session' + (s.aborted ? ' aborted' : ''), dataset: { id: s.id } },
      v(s.id, 'id'),
      h('span', { class: 'meta' }, 'workspace ', v(s.workspace || 'default'), ` \u00B7 turn ${s.turn} \u00B7 `, fmtTime(s.updated_at)),
      s.stopped ? h('span', { class: 'badge bad', title: 'a hard deny stopped the agent loop until the user speaks' }, 'stopped') : null,
      s.aborted ? h('span', { class: 'badge bad' }, 'aborted') : null,
      h('label', { class: 'inline' }, 'mode ', mode),
      h('span', { class: 'btns' }, s.stopped ? h('button', {
        type: 'button', class: 'small', title: 'End the turn: clears the stop flag and the turn\u2019s grants',
        onclick: async () => {
          try { await api('POST', `v1/sessions/${id}/turn-end`); toast('Stop flag cleared'); this.load(); } catch (err) { showError(st, err, 'Ending the turn'); }
        },
      }, 'Clear stop') : null,
      s.aborted ? null : confirmButton('Abort', 'Really abort?', async () => {
        try { await api('POST', `v1/sessions/${id}/abort`); toast(`Session ${s.id} aborted`); await this.load(); } catch (err) { showError(st, err, 'Aborting'); }
      }, 'small danger')));
  },
};

// ---- rules ----

/** errorLine finds "file:LINE:COL: message" in a loader's error. */
export function errorLine(msg) {
  const m = /:(\d+)(?::(\d+))?:\s*/.exec(msg);
  return m ? { line: Number(m[1]), col: m[2] ? Number(m[2]) : 0 } : null;
}

export const rules = {
  workspace: 'default',
  errLine: 0,
  init() {
    const ta = $('rules-text');
    $('rules-load').addEventListener('submit', (e) => { e.preventDefault(); this.load(); });
    $('rules-save').addEventListener('click', () => this.save());
    ta.addEventListener('input', () => this.gutter());
    ta.addEventListener('scroll', () => { $('gutter').scrollTop = ta.scrollTop; });
  },
  loaded: null, // the text as loaded or saved, to tell unsaved edits
  /** show loads the document unless it has unsaved edits. */
  show() {
    if (this.loaded === null || $('rules-text').value === this.loaded) this.load();
  },
  async load() {
    const ws = formValues($('rules-load')).workspace || 'default';
    const errEl = $('rules-error');
    errEl.hidden = true;
    this.errLine = 0;
    try {
      const text = await api('GET', `v1/workspaces/${encodeURIComponent(ws)}/rules`, undefined, { text: true });
      this.workspace = ws;
      this.loaded = text;
      $('rules-text').value = text;
      ok($('rules-status'), `Workspace ${ws}`);
    } catch (err) {
      errEl.textContent = err.status === 403 ? `Reading rules needs an admin token: ${err.message}` : err.message;
      errEl.hidden = false;
    }
    this.gutter();
  },
  async save() {
    const ta = $('rules-text');
    const errEl = $('rules-error');
    const st = $('rules-status');
    errEl.hidden = true;
    this.errLine = 0;
    try {
      const text = ta.value;
      await api('PUT', `v1/workspaces/${encodeURIComponent(this.workspace)}/rules`, text);
      this.loaded = text;
      ok(st, `Saved workspace ${this.workspace}; the new rules are in force.`);
    } catch (err) {
      const at = errorLine(err.message);
      errEl.textContent = at ? `Line ${at.line}${at.col ? ', column ' + at.col : ''}: ${err.message}` : err.message;
      errEl.hidden = false;
      st.textContent = '';
      if (at) {
        this.errLine = at.line;
        // Put the caret on the line.
        const lines = ta.value.split('\n');
        const start = lines.slice(0, at.line - 1).reduce((n, l) => n + l.length + 1, 0);
        ta.focus();
        ta.setSelectionRange(start, start + (lines[at.line - 1] || '').length);
      }
    }
    this.gutter();
  },
  /** gutter numbers the lines and marks the one the error is on. */
  gutter() {
    const ta = $('rules-text');
    const g = $('gutter');
    const n = ta.value.split('\n').length;
    clear(g);
    for (let i = 1; i <= n; i++) {
      const el = h('div', { class: i === this.errLine ? 'ln err' : 'ln' }, String(i));
      if (i === this.errLine) el.title = $('rules-error').textContent;
      g.append(el);
    }
    g.scrollTop = ta.scrollTop;
  },
};

// ---- devices ----

export const devices = {
  init() {
    $('devices-refresh').addEventListener('click', () => this.load());
    $('pair-form').addEventListener('submit', (e) => { e.preventDefault(); this.pair(); });
  },
  async pair() {
    const st = $('devices-status');
    const f = formValues($('pair-form'));
    let p;
    try {
      p = await api('POST', 'ui/pair', { label: f.label, ttl: f.ttl });
    } catch (err) {
      showError(st, err, 'Pairing');
      return;
    }
    $('pair-qr').src = p.qr;
    $('pair-link').textContent = p.url;
    $('pair-result').hidden = false;
    ok(st, `Pairing link made; the device stays signed in for ${p.device_ttl}.`);
    this.load();
  },
  async load() {
    const st = $('devices-status');
    let data;
    try {
      data = await api('GET', 'ui/devices');
    } catch (err) {
      showError(st, err, 'Listing devices');
      return;
    }
    const ds = data.devices || [];
    replaceRows($('devices-list'), ds.map((d) => this.row(d)));
  },
  row(d) {
    const st = $('devices-status');
    const kind = d.pending ? 'pairing link, not used yet' : d.paired ? 'paired device' : 'browser';
    return h('div', { class: 'row device', dataset: { id: d.id } },
      v(d.label || kind, 'id'),
      h('span', { class: 'meta' }, `${kind} \u00B7 ${d.token} \u00B7 last seen `, fmtTime(d.last_seen), ' \u00B7 until ', fmtTime(d.expires_at)),
      d.current ? h('span', { class: 'badge' }, 'this browser') : null,
      h('span', { class: 'btns' }, confirmButton(d.pending ? 'Cancel' : 'Sign out', 'Really?', async () => {
        try {
          await api('DELETE', `ui/devices/${encodeURIComponent(d.id)}`);
          toast(`${d.label || kind} signed out`);
          await this.load();
        } catch (err) { showError(st, err, 'Signing out a device'); }
      }, 'small danger')));
  },
};
