// The inbox: one card per pending approval, live from the event stream,
// with countdowns, the answers and keyboard shortcuts.

import { api } from './api.js';
import { h, clear, visible, v, suspectCount, toast } from './dom.js';
import { split, assign, deciding, strictest } from './shell.js';
import { fileChange, renderDiff, questions, questionForm, modifications } from './answers.js';

const SHELL_KEYS = ['command', 'cmd', 'script'];
// How long a resolved card stays with its note before it leaves.
const LEAVE_AFTER_MS = 5000;

export class Inbox {
  /**
   * @param {object} o
   * @param {HTMLElement} o.list  the <ol> of cards
   * @param {HTMLElement} o.empty  shown when nothing is pending
   * @param {() => number} o.now  the server's clock, in ms
   * @param {(n: number) => void} o.onCount  pending count changed
   */
  constructor({ list, empty, now, onCount }) {
    this.list = list;
    this.empty = empty;
    this.now = now;
    this.onCount = onCount;
    this.items = new Map(); // id -> item
    this.seen = new Set(); // ids ever shown, so a replay does not notify
    this.selected = '';
    this.timer = setInterval(() => this.tick(), 250);
  }

  /** pending returns the items still waiting, in order. */
  order() {
    return [...this.list.children].map((li) => this.items.get(li.dataset.id)).filter(Boolean);
  }

  count() {
    let n = 0;
    for (const it of this.items.values()) if (it.state === 'pending') n++;
    return n;
  }

  changed() {
    this.waiting();
    const n = this.count();
    this.empty.hidden = this.items.size > 0;
    this.onCount(n);
  }

  /**
   * event applies one event of the stream. It returns the approval when a
   * call is new to this page (for a notification).
   */
  event(ev) {
    const a = ev.approval;
    if (!a || !a.id) return null;
    if (ev.type === 'approval.requested') {
      if (a.status && a.status !== 'pending') return this.resolved(a), null;
      return this.upsert(a);
    }
    if (ev.type === 'approval.resolved') this.resolved(a);
    return null;
  }

  /**
   * waiting shows on every pending card the other calls of its session
   * still waiting: batch context for calls that arrive one at a time
   * (hooks, the API without a batch), from this page's live list, so it
   * follows every call that arrives or is answered.
   */
  waiting() {
    const bySession = new Map();
    for (const it of this.order()) {
      if (it.state !== 'pending') continue;
      const s = (it.a.call || {}).session || '';
      if (!bySession.has(s)) bySession.set(s, []);
      bySession.get(s).push(it);
    }
    for (const it of this.items.values()) {
      const slot = it.refs && it.refs.waiting;
      if (!slot) continue;
      const others = it.state === 'pending' ? (bySession.get((it.a.call || {}).session || '') || []).filter((x) => x !== it) : [];
      const key = others.map((x) => x.a.id).join(' ');
      if (slot.dataset.ids === key) continue;
      slot.dataset.ids = key;
      clear(slot);
      slot.hidden = others.length === 0;
      if (!others.length) continue;
      const n = others.length;
      slot.append(h('details', { class: 'batch waiting', open: n <= 3 },
        h('summary', null, n === 1 ? '1 more call from this session is waiting' : `${n} more calls from this session are waiting`),
        h('ol', null, others.map((x) => h('li', { dataset: { id: x.a.id } },
          h('a', { href: '#inbox', onclick: (e) => { e.preventDefault(); this.select(x.a.id); x.el.scrollIntoView({ block: 'nearest' }); } },
            v((x.a.call || {}).tool, 'tool'), ' ', h('code', null, visible(summary(x.a.call || {})))))))));
    }
  }

  /** waitingCount is how many other calls of a's session are pending here. */
  waitingCount(a) {
    const s = (a.call || {}).session || '';
    let n = 0;
    for (const it of this.items.values()) if (it.state === 'pending' && it.a.id !== a.id && ((it.a.call || {}).session || '') === s) n++;
    return n;
  }

  /** upsert adds or refreshes a pending approval; returns it if new. */
  upsert(a) {
    const it = this.items.get(a.id);
    if (it) {
      if (it.state === 'pending') it.a = a;
      return null;
    }
    if (this.seen.has(a.id)) return null; // already answered here
    this.seen.add(a.id);
    const item = { a, state: 'pending', received: Date.now() };
    item.el = this.card(item);
    this.items.set(a.id, item);
    // Keep arrival order by creation time.
    const created = Date.parse(a.created_at) || 0;
    const after = this.order().find((x) => (Date.parse(x.a.created_at) || 0) > created);
    this.list.insertBefore(item.el, after ? after.el : null);
    const cur = this.items.get(this.selected);
    if (a.id === this.wanted || !cur || cur.state !== 'pending') this.select(a.id);
    if (a.id === this.wanted) item.el.scrollIntoView({ block: 'nearest' });
    this.tick();
    this.changed();
    return a;
  }

  /** resolved shows how an approval ended, then lets the card leave. */
  resolved(a) {
    this.seen.add(a.id);
    const it = this.items.get(a.id);
    if (!it || it.state === 'resolved') return;
    it.state = 'resolved';
    it.a = a;
    const el = it.el;
    el.classList.add('resolved', 'st-' + (a.status || 'done'));
    if (a.status === 'expired') el.classList.add('expired');
    for (const c of el.querySelectorAll('button, input, select, textarea')) c.disabled = true;
    const note = el.querySelector('.note');
    clear(note).append(describe(a));
    note.hidden = false;
    el.querySelector('.left').textContent = a.status || 'resolved';
    if (this.selected === a.id) {
      const next = this.order().find((x) => x.state === 'pending');
      if (next) this.select(next.a.id);
    }
    this.changed();
    setTimeout(() => this.remove(a.id), LEAVE_AFTER_MS);
  }

  remove(id) {
    const it = this.items.get(id);
    if (!it) return;
    const order = this.order();
    const i = order.indexOf(it);
    it.el.classList.add('leaving');
    setTimeout(() => it.el.remove(), 300);
    this.items.delete(id);
    if (this.selected === id) {
      const next = order[i + 1] || order[i - 1];
      this.selected = '';
      if (next && next !== it) this.select(next.a.id);
    }
    this.changed();
  }

  /**
   * sync drops cards the server no longer holds pending: after a
   * reconnect, answers given elsewhere while the stream was down.
   */
  async sync() {
    const started = Date.now();
    this.stamping();
    let list;
    try {
      list = (await api('GET', 'v1/approvals?status=pending')).approvals || [];
    } catch {
      return;
    }
    const ids = new Set(list.map((a) => a.id));
    for (const a of list) this.upsert(a);
    for (const it of [...this.items.values()]) {
      if (it.state === 'pending' && !ids.has(it.a.id) && it.received < started) {
        this.resolved({ ...it.a, status: 'resolved', resolution: { status: 'resolved', reason: 'answered elsewhere' } });
      }
    }
  }

  /** stamping shows a line when approvals come faster than anyone reads (GET v1/insights). */
  async stamping() {
    const el = document.getElementById('stamping');
    let r;
    try { r = (await api('GET', 'v1/insights')).rubber_stamping || []; } catch { return; }
    el.textContent = r.map((s) => `${s.approver} approved ${s.fast} of their last ${s.of} calls within a second of the request: read each call before approving.`).join(' ');
    el.hidden = r.length === 0;
  }

  /** tick updates every countdown and expires cards that reach zero. */
  tick() {
    const now = this.now();
    for (const it of this.items.values()) {
      if (it.state !== 'pending') continue;
      const exp = Date.parse(it.a.expires_at);
      if (!exp) continue;
      const total = Math.max(1, exp - (Date.parse(it.a.created_at) || exp - 1));
      const left = exp - now;
      const bar = it.el.querySelector('progress');
      const label = it.el.querySelector('.left');
      if (left <= 0) {
        this.expire(it);
        continue;
      }
      bar.max = total;
      bar.value = left;
      label.textContent = clock(left);
      it.el.classList.toggle('soon', left < 30000);
    }
  }

  /** expire turns a card whose countdown reached zero into "expired". */
  expire(it) {
    it.state = 'expired';
    const el = it.el;
    el.classList.add('expired');
    el.classList.remove('soon');
    el.querySelector('progress').value = 0;
    el.querySelector('.left').textContent = 'expired';
    for (const c of el.querySelectorAll('.actions button, .actions input, .actions select, .actions textarea')) c.disabled = true;
    const note = el.querySelector('.note');
    clear(note).append('Expired: no answer in time, so the call is denied.');
    note.hidden = false;
    this.changed();
  }

  /** want selects approval id now, or when it arrives (a notification's link). */
  want(id) {
    this.wanted = id;
    const it = this.items.get(id);
    if (it) {
      this.select(id);
      it.el.scrollIntoView({ block: 'nearest' });
    }
  }

  select(id) {
    const prev = this.items.get(this.selected);
    if (prev) prev.el.classList.remove('sel');
    this.selected = id;
    const it = this.items.get(id);
    if (it) {
      it.el.classList.add('sel');
      it.el.setAttribute('aria-current', 'true');
    }
    if (prev && prev !== it) prev.el.removeAttribute('aria-current');
  }

  /** move selects the next (+1) or previous (-1) card. */
  move(d) {
    const order = this.order().filter((x) => x.state !== 'resolved');
    if (!order.length) return;
    let i = order.findIndex((x) => x.a.id === this.selected);
    i = i < 0 ? 0 : Math.max(0, Math.min(order.length - 1, i + d));
    this.select(order[i].a.id);
    order[i].el.scrollIntoView({ block: 'nearest' });
  }

  /** keyup finishes a shortcut that moves the focus. */
  keyup() {
    const el = this.focusOnKeyUp;
    this.focusOnKeyUp = null;
    if (el && !el.disabled) el.focus();
  }

  /** key handles a shortcut; it returns true if it used the key. */
  key(k) {
    if (k === 'j') return this.move(1), true;
    if (k === 'k') return this.move(-1), true;
    const it = this.items.get(this.selected);
    if (!it || it.state !== 'pending') return false;
    const r = it.refs;
    if (k === 'y') return r.once.click(), true;
    if (k === 's') return r.session.disabled || !r.session.isConnected || r.session.click(), true;
    if (k === 'a') return r.always.disabled || r.always.closest('[hidden]') || r.always.click(), true;
    if (k === 'n') {
      // Focus the feedback field when the key is released, so the key
      // itself is not typed into it.
      this.focusOnKeyUp = r.feedback;
      return true;
    }
    return false;
  }

  /** answer sends an approve or deny and shows the outcome. */
  async answer(it, verb, body) {
    if (it.state !== 'pending') return;
    const errEl = it.refs.err;
    errEl.hidden = true;
    for (const c of it.el.querySelectorAll('.actions button')) c.disabled = true;
    try {
      const a = await api('POST', `v1/approvals/${encodeURIComponent(it.a.id)}/${verb}`, body);
      if (a && a.status && a.status !== 'pending') this.resolved(a);
      if (verb === 'approve') this.stamping();
    } catch (err) {
      if (err.status === 404 || err.status === 409) {
        // Answered or expired meanwhile: the stream brings the outcome.
        errEl.textContent = err.message;
      } else {
        errEl.textContent = 'Not sent: ' + err.message;
      }
      errEl.hidden = false;
      if (it.state === 'pending') for (const c of it.el.querySelectorAll('.actions button:not([data-locked])')) c.disabled = false;
    }
  }

  /**
   * grantBody is the approve body for a scope beyond once: exactly the
   * pattern the buttons show (the exact call unless the person widened
   * it), as a glob or a literal prefix; empty grants the whole tool.
   */
  grantBody(it, scope) {
    const pattern = it.refs.pattern.value.trim();
    const body = pattern ? { scope, grant: it.refs.kind.value, pattern } : { scope, grant: 'tool' };
    // A time box: the grant stops counting then, on every node.
    if (it.refs.for.value) body.for = it.refs.for.value;
    return body;
  }

  /** showGrant writes on every grant button what it will grant. */
  showGrant(it) {
    const r = it.refs;
    const pattern = r.pattern.value.trim();
    const tool = (it.a.call || {}).tool;
    let what = !pattern ? `every ${tool} call` : r.kind.value === 'prefix' ? pattern + '\u2026 (prefix)' : pattern;
    if ('locked' in r.pattern.dataset) what = 'no safe pattern';
    for (const el of [r.turnWhat, r.sessionWhat, r.alwaysWhat]) clear(el).append(visible(what));
    for (const b of r.alts) b.classList.toggle('on', b.dataset.pattern === pattern);
  }

  /**
   * before asks the gateway for the file a write or edit changes, as it
   * is now (GET v1/approvals/{id}/before), and shows old against new in
   * place of el; or the gateway's reason why it cannot.
   */
  async before(id, fc, el) {
    let b;
    try {
      b = await api('GET', `v1/approvals/${encodeURIComponent(id)}/before`);
    } catch (err) {
      b = { shown: false, note: 'the gateway did not answer: ' + err.message };
    }
    const it = this.items.get(id);
    if (!it || !el.isConnected) return;
    const fresh = renderDiff(fc, b);
    fresh.dataset.before = b.shown ? 'shown' : 'note';
    el.replaceWith(fresh);
  }

  /** card builds the element of one approval. */
  card(it) {
    const a = it.a;
    const call = a.call || {};
    const d = a.decision || {};
    const refs = {};
    it.refs = refs;

    const meta = [];
    const pair = (k, val) => val && meta.push(h('span', { class: 'kv' }, h('span', { class: 'k' }, k), ' ', v(val, 'val')));
    pair('session', call.session);
    pair('workspace', call.workspace || 'default');
    pair('agent', call.agent);
    // Seed 003: "Origin: MCP server tool" for mcp__server__tool calls.
    if (call.origin === 'mcp' || (call.origin || '').startsWith('mcp:')) {
      const server = call.origin.slice(4);
      meta.push(h('span', { class: 'kv origin-mcp' }, h('span', { class: 'k' }, 'origin'), ' ',
        v('MCP server tool' + (server ? ' \u00B7 ' + server : ''), 'val')));
    } else {
      pair('origin', call.origin);
    }
    pair('cwd', call.cwd);
    if (call.batch && call.batch.total > 1) pair('batch', `call ${call.batch.index + 1} of ${call.batch.total}`);

    // Warnings: reason, risks, invisible characters.
    const warns = h('ul', { class: 'warnings' });
    const suspects = countSuspects(call);
    if (suspects > 0) {
      warns.append(h('li', { class: 'warn invisible' }, '\u26A0 ',
        `${suspects} invisible, zero-width or direction-changing character${suspects > 1 ? 's' : ''}: shown as \u27E6U+\u2026\u27E7. The text may not be what it looks like.`));
    }
    // Secrets the gateway masked where the call entered: what and where.
    const masked = [...new Set((d.redactions || []).map((r) => `${r.what} in ${r.arg}`))];
    if (masked.length > 0) {
      warns.append(h('li', { class: 'warn secret' }, '\u26A0 ',
        h('strong', null, 'Secrets masked'), ': ', v(masked.join(', ')),
        '. The call carries them as sent; they are never stored or shown.'));
    }
    for (const r of d.risks || []) {
      warns.append(h('li', { class: 'warn risk ' + (r.severity || '') }, '\u26A0 ',
        h('strong', null, r.severity === 'unprefixable' ? 'Cannot be pre-approved' : 'Critical risk'), ': ', v(r.reason),
        r.subject ? [' \u2014 ', h('code', null, visible(r.subject))] : null));
    }

    const body = h('div', { class: 'body' });
    const shellKey = shellArg(call, d);
    if (shellKey) body.append(renderShell(call.args[shellKey], d));
    const rest = { ...(call.args || {}) };
    if (shellKey) delete rest[shellKey];
    // A file write or edit shows as a diff; the other args stay JSON.
    const fc = shellKey ? null : fileChange(call.args);
    if (fc) {
      // The new content at once; old against new when the gateway can
      // read the file as it is now.
      const diff = renderDiff(fc, null);
      body.append(diff);
      this.before(a.id, fc, diff);
      for (const k of ['file_path', 'path', 'filename', ...fc.keys]) delete rest[k];
    }
    const qs = shellKey || fc ? null : questions(call.args);
    if (qs) delete rest.questions;
    if (Object.keys(rest).length) body.append(h('pre', { class: 'args' }, visible(JSON.stringify(rest, null, 2))));
    if (!shellKey) body.append(renderSubjects(d, null));

    // The rest of the batch.
    let batch = null;
    const more = a.batch_remaining || [];
    if (more.length) {
      batch = h('details', { class: 'batch', open: more.length <= 3 },
        h('summary', null, `${more.length} more call${more.length > 1 ? 's' : ''} in this batch after this one`),
        h('ol', null, more.map((c) => h('li', null, v(c.tool, 'tool'), ' ', h('code', null, visible(summary(c)))))));
    }

    // The other calls of the session that wait (filled by waiting()).
    refs.waiting = h('div', { class: 'waiting-slot', hidden: true });

    // Answers. Every grant button says what it grants: the call exactly
    // as made unless the person picks a wider pattern or types one.
    const sugg = d.suggestions || [];
    const exact = sugg.length ? (sugg[0].exact || sugg[0].pattern) : '';
    const grantWhat = (cls) => h('code', { class: 'what ' + cls });
    refs.turnWhat = grantWhat('w-turn');
    refs.sessionWhat = grantWhat('w-session');
    refs.alwaysWhat = grantWhat('w-always');
    refs.once = h('button', { type: 'button', class: 'approve once', onclick: () => this.answer(it, 'approve', { scope: 'once' }) },
      'Approve once', h('kbd', null, 'y'));
    refs.session = h('button', { type: 'button', class: 'approve session', onclick: () => this.answer(it, 'approve', this.grantBody(it, 'session')) },
      'For this session: ', refs.sessionWhat, h('kbd', null, 's'));
    refs.turn = h('button', { type: 'button', class: 'approve turn', onclick: () => this.answer(it, 'approve', this.grantBody(it, 'turn')) },
      'For this turn: ', refs.turnWhat);
    refs.pattern = h('input', {
      class: 'pattern', type: 'text', value: exact,
      placeholder: `empty: every ${call.tool} call`, spellcheck: 'false', autocapitalize: 'off', 'aria-label': 'Pattern to allow',
    });
    refs.kind = h('select', { class: 'kind', 'aria-label': 'How the pattern matches' },
      h('option', { value: 'pattern' }, 'glob pattern'),
      h('option', { value: 'prefix' }, 'literal prefix'));
    // The patterns on offer: the exact call, then each wider suggestion.
    const offers = [...new Set([exact, ...sugg.map((s) => s.pattern)].filter(Boolean))];
    refs.alts = offers.map((p, i) => h('button', {
      type: 'button', class: 'small alt', dataset: { pattern: p },
      title: i === 0 ? 'only this call, as made' : 'wider: every call this pattern matches',
      onclick: () => { refs.pattern.value = p; refs.kind.value = 'pattern'; this.showGrant(it); },
    }, i === 0 ? 'exact: ' : 'wider: ', h('code', null, visible(p))));
    refs.for = h('select', { class: 'for', 'aria-label': 'For how long' },
      h('option', { value: '' }, 'until the scope ends'),
      h('option', { value: '30m' }, 'for 30 minutes'),
      h('option', { value: '1h' }, 'for 1 hour'),
      h('option', { value: '8h' }, 'for 8 hours'));
    refs.pattern.addEventListener('input', () => this.showGrant(it));
    refs.kind.addEventListener('change', () => this.showGrant(it));
    refs.scope = h('select', { class: 'scope', 'aria-label': 'Where to remember' },
      h('option', { value: 'workspace' }, `in workspace ${call.workspace || 'default'}`),
      h('option', { value: 'global' }, 'in every workspace'));
    refs.always = h('button', { type: 'button', class: 'approve always', onclick: () => this.answer(it, 'approve', this.grantBody(it, refs.scope.value)) },
      'Always: ', refs.alwaysWhat, h('kbd', null, 'a'));
    refs.pattern.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); refs.always.click(); } });
    refs.feedback = h('input', {
      class: 'feedback', type: 'text', placeholder: 'Feedback for the agent (optional)', 'aria-label': 'Feedback for the agent',
    });
    // Hard is the default on every surface (the broker's, the API's, the
    // CLI's): a no stops the turn unless the person chooses soft.
    refs.mode = h('select', { class: 'mode', 'aria-label': 'Deny mode' },
      h('option', { value: 'hard' }, 'hard: deny the batch, stop the agent'),
      h('option', { value: 'soft' }, 'soft: deny this call, batch goes on'));
    refs.deny = h('button', {
      type: 'button', class: 'deny',
      onclick: () => this.answer(it, 'deny', { feedback: refs.feedback.value.trim() || undefined, mode: refs.mode.value }),
    }, 'Deny', h('kbd', null, 'n'));
    refs.feedback.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') { e.preventDefault(); refs.deny.click(); }
      if (e.key === 'Escape') refs.feedback.blur();
    });
    refs.err = h('p', { class: 'error', role: 'alert', hidden: true });
    const fail = (msg) => { refs.err.textContent = msg; refs.err.hidden = false; };

    // A question tool: the person answers its questions; the answer is
    // the tool's output.
    let ask = null;
    if (qs) {
      refs.questions = questionForm(qs, a.id);
      refs.sendAnswer = h('button', {
        type: 'button', class: 'approve send-answer',
        onclick: () => {
          let answer;
          try { answer = refs.questions.answer(); } catch (err) { return fail(err.message); }
          this.answer(it, 'approve', { scope: 'once', answer });
        },
      }, 'Send answer');
      ask = h('div', { class: 'ask' }, refs.questions, h('div', { class: 'row' }, refs.sendAnswer));
      const unfail = () => { refs.err.hidden = true; };
      refs.questions.addEventListener('change', unfail);
      refs.questions.addEventListener('input', unfail);
    }

    // Edit the arguments, then approve the edited call once; the broker
    // decides it again first and refuses an edit its rules deny.
    refs.argsEdit = h('textarea', {
      class: 'args-edit', rows: String(Math.min(12, JSON.stringify(call.args || {}, null, 2).split('\n').length + 1)),
      spellcheck: 'false', 'aria-label': 'Arguments to approve instead',
    });
    refs.argsEdit.value = JSON.stringify(call.args || {}, null, 2);
    refs.approveEdited = h('button', {
      type: 'button', class: 'approve approve-edited',
      onclick: () => {
        let mods;
        try { mods = modifications(call.args, refs.argsEdit.value); } catch (err) { return fail(err.message); }
        this.answer(it, 'approve', { scope: 'once', modifications: mods });
      },
    }, 'Approve edited call once');
    const edit = h('details', { class: 'edit' }, h('summary', null, 'Edit the arguments before approving'),
      refs.argsEdit, h('div', { class: 'row' }, refs.approveEdited,
        h('span', { class: 'lbl' }, 'The edited call is decided again by the rules before it runs.')));

    // A shell command with no suggestion has a head no pattern may cover
    // (an interpreter, a wrapper, eval): it can only be approved once, and
    // granting the whole shell tool instead would be a foot-gun.
    const onceOnly = !!shellKey && sugg.length === 0;
    if (onceOnly) {
      for (const c of [refs.turn, refs.session, refs.pattern, refs.kind, refs.for, refs.scope, refs.always]) {
        c.disabled = true;
        c.dataset.locked = '';
      }
      refs.pattern.placeholder = 'no safe pattern: approve once only';
    }
    const actions = h('div', { class: 'actions' },
      ask,
      // A question is answered, not granted: its card has no grants.
      h('div', { class: 'row' }, refs.once, qs ? null : [refs.session, refs.turn],
        onceOnly ? h('span', { class: 'onlyonce' }, 'No pattern can safely cover this command: approve it once or deny it.') : null),
      h('div', { class: 'row grant', hidden: onceOnly || !!qs }, h('span', { class: 'lbl' }, 'Grant'), refs.pattern, refs.kind, refs.for,
        refs.alts.length > 1 ? h('span', { class: 'alts' }, refs.alts) : null),
      h('div', { class: 'row always', hidden: onceOnly || !!qs }, h('span', { class: 'lbl' }, 'Remember'), refs.scope, refs.always),
      qs ? null : edit,
      h('div', { class: 'row denyrow' }, refs.feedback, refs.mode, refs.deny),
      refs.err);
    this.showGrant(it);

    const el = h('li', { class: 'card', tabindex: '-1', dataset: { id: a.id } },
      h('div', { class: 'head' },
        h('span', { class: 'tool' }, visible(call.tool)),
        d.tier ? h('span', { class: 'tier t-' + d.tier }, d.tier) : null,
        h('span', { class: 'timer' }, h('progress', { max: '1', value: '1' }), h('span', { class: 'left' }, ''))),
      h('div', { class: 'meta' }, meta),
      d.reason ? h('p', { class: 'reason' }, v(d.reason)) : null,
      // What a person was required for (the diff of a changed MCP tool
      // definition), as written, after the line that leads the reason.
      d.confirm && d.confirm.includes('\n') ? h('pre', { class: 'confirm' }, v(d.confirm.slice(d.confirm.indexOf('\n') + 1))) : null,
      warns.childNodes.length ? warns : null,
      body,
      batch,
      refs.waiting,
      actions,
      h('p', { class: 'note', role: 'status', hidden: true }));
    el.addEventListener('click', () => this.select(a.id));
    el.addEventListener('focusin', () => this.select(a.id));
    return el;
  }
}

/** shellArg names the arg holding a shell command, if the call is one. */
function shellArg(call, d) {
  const args = call.args || {};
  const isShell = (d.subjects || []).some((s) => s.kind === 'command');
  if (!isShell) return '';
  const k = SHELL_KEYS.find((key) => typeof args[key] === 'string');
  if (k) return k;
  const strs = Object.keys(args).filter((key) => typeof args[key] === 'string');
  return strs.length === 1 ? strs[0] : '';
}

/** renderShell shows a command with each sub-command marked. */
function renderShell(cmd, d) {
  const subs = d.subjects || [];
  const parts = split(cmd);
  const map = assign(parts, subs);
  const decides = deciding(d);
  const pre = h('pre', { class: 'cmd' });
  let n = 0;
  parts.forEach((p, i) => {
    if (p.op) {
      pre.append(h('span', { class: 'op' }, visible(p.text === '\n' ? '\n' : p.text)));
      return;
    }
    const idx = map.get(i) || [];
    const act = strictest(subs, idx);
    const isDecider = decides >= 0 && idx.includes(decides);
    const lead = p.text.match(/^\s*/)[0];
    const trail = p.text.slice(lead.length).match(/\s*$/)[0];
    const body = p.text.slice(lead.length, p.text.length - trail.length);
    const word = body.match(/^\S*/)[0];
    pre.append(lead, h('span', {
      class: `seg seg${n++ % 2} a-${act}${isDecider ? ' decides' : ''}`,
      title: idx.length ? idx.map((si) => `${subs[si].action}: ${subs[si].text}`).join('\n') : '',
    }, h('span', { class: 'word' }, visible(word)), visible(body.slice(word.length))), trail);
  });
  return h('div', { class: 'shell' }, pre, renderSubjects(d, decides));
}

/** renderSubjects lists each subject with its verdict and rule. */
function renderSubjects(d, decides) {
  const subs = d.subjects || [];
  if (decides == null) decides = deciding(d);
  if (!subs.length) return h('span');
  return h('ul', { class: 'subjects' }, subs.map((s, i) => h('li', { class: `a-${s.action}${i === decides ? ' decides' : ''}` },
    h('span', { class: 'verdict' }, s.action === 'none' ? 'read' : s.action),
    s.kind !== 'command' ? h('span', { class: 'kind' }, s.kind) : null,
    h('code', null, visible(s.text)),
    i === decides ? h('span', { class: 'decider', title: 'this subject decided the call' }, '\u25C6 decides') : null,
    s.rule ? h('span', { class: 'rule' }, visible(s.rule.source || s.rule.layer)) : (s.open ? h('span', { class: 'rule' }, 'no rule') : null))));
}

/** countSuspects counts suspect characters in the tool name and every string of the args. */
function countSuspects(call) {
  let n = suspectCount(call.tool) + suspectCount(call.session) + suspectCount(call.cwd);
  const walk = (x) => {
    if (typeof x === 'string') n += suspectCount(x);
    else if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') for (const [k, val] of Object.entries(x)) { n += suspectCount(k); walk(val); }
  };
  walk(call.args);
  return n;
}

/** summary is a one-line view of a call's args. */
function summary(c) {
  const args = c.args || {};
  for (const k of [...SHELL_KEYS, 'file_path', 'path', 'pattern', 'url', 'name']) {
    if (typeof args[k] === 'string') return args[k].length > 160 ? args[k].slice(0, 160) + '\u2026' : args[k];
  }
  const s = JSON.stringify(args);
  return s.length > 160 ? s.slice(0, 160) + '\u2026' : s;
}

/** clock formats a duration as m:ss. */
function clock(ms) {
  const s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

const SCOPES = {
  once: 'once', turn: 'for this turn', session: 'for this session',
};

/** describe says who answered and how, for the note a resolved card shows. */
export function describe(a) {
  const r = a.resolution || {};
  const who = r.by ? ` by ${r.by}${r.via ? ' via ' + r.via : ''}` : '';
  switch (a.status) {
    case 'approved': {
      if (r.via === 'cascade') return `Allowed by a grant given meanwhile${r.reason ? ': ' + r.reason : ''}`;
      let how = SCOPES[r.scope];
      if (!how) how = r.scope === 'global' ? 'always, in every workspace' : `always, in workspace ${a.call && a.call.workspace || 'default'}`;
      let what = '';
      if (r.grant === 'tool') what = ` (every ${a.call && a.call.tool} call)`;
      else if (r.pattern) what = ` (${r.grant === 'prefix' ? 'prefix ' : ''}${r.pattern})`;
      if (r.answer) return `Answered${who}: ${answerText(r.answer)}`;
      const edited = r.modifications ? ' with edited arguments' : '';
      return `Approved ${how}${what}${edited}${who}`;
    }
    case 'denied': {
      const mode = r.deny_mode ? ` (${r.deny_mode})` : '';
      return `Denied${mode}${who}${r.feedback ? ': \u201C' + r.feedback + '\u201D' : ''}`;
    }
    case 'expired':
      return 'Expired: no answer in time, so the call is denied.';
    case 'cancelled':
      return `Cancelled${r.reason ? ': ' + r.reason : ''}`;
  }
  return r.reason ? `Resolved: ${r.reason}` : 'Resolved';
}

/** answerText words a question tool's answer for the note. */
function answerText(ans) {
  if (ans && typeof ans === 'object' && ans.answers && typeof ans.answers === 'object') {
    return Object.entries(ans.answers).map(([q, a]) => `${q} \u2192 ${a}`).join('; ');
  }
  return JSON.stringify(ans);
}

/**
 * notifyText is the text of a browser notification for an approval;
 * waiting is how many other calls of its session wait.
 */
export function notifyText(a, waiting = 0) {
  const c = a.call || {};
  const more = waiting > 0 ? ` (${waiting} more from this session waiting)` : '';
  return { title: `toolgate: ${c.tool} wants approval`, body: `${c.session ? c.session + ': ' : ''}${summary(c)}${more}` };
}

export { toast };
