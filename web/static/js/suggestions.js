// The suggested-rules card of the inbox (admins only): allow rules for
// calls people approved again and again (GET v1/suggestions, the same
// proposals as `toolgate rules suggest`), each with the calls it would
// have allowed. Adopting one stores the workspace document with its rules
// appended through the rules API (PUT v1/workspaces/{id}/rules), which
// validates it as every document; If-Match refuses it if the document
// changed since the proposal was made.

import { api } from './api.js';
import { h, clear, visible, v } from './dom.js';

export class Suggestions {
  /**
   * @param {object} o
   * @param {HTMLElement} o.box  the card
   * @param {HTMLElement} o.list  where the proposals go
   */
  constructor({ box, list }) {
    this.box = box;
    this.list = list;
    this.enabled = false;
    this.dismissed = new Set(); // proposals a person set aside on this page
    this.loading = null;
    this.stale = false;
    // states holds, by proposal, what its row shows beyond the proposal.
    this.states = new Map();
  }

  /** enable shows the card for admins; others cannot read the audit log. */
  enable(on) {
    this.enabled = on;
    if (!on) this.box.hidden = true;
  }

  /**
   * load fetches the proposals again and shows them. A load asked for
   * while one is under way reads once more after it, since the one under
   * way may have read before the change that asked; the card is
   * aria-busy until the last read is shown.
   */
  load() {
    if (!this.enabled) return Promise.resolve();
    if (this.loading) {
      this.stale = true;
      return this.loading;
    }
    this.box.setAttribute('aria-busy', 'true');
    this.loading = (async () => {
      do {
        this.stale = false;
        let ps;
        try {
          ps = (await api('GET', 'v1/suggestions')).suggestions || [];
        } catch {
          continue; // the card is a help, not the inbox: keep what it showed
        }
        if (!this.stale) this.show(ps);
      } while (this.stale);
      this.loading = null;
      this.box.removeAttribute('aria-busy');
    })();
    return this.loading;
  }

  show(ps) {
    ps = ps.filter((p) => !this.dismissed.has(key(p)));
    const rows = ps.map((p) => this.row(p));
    // What a row showed beyond its proposal (a refusal, an adoption under
    // way or done) stays when the proposals are read again: a rules change
    // that made an adoption fail also reloads the card.
    for (const li of rows) this.paint(li, this.states.get(li.dataset.key));
    // An adopted proposal is no longer proposed; its row stays until it is
    // dismissed, so the person sees that it took.
    const keys = new Set(rows.map((li) => li.dataset.key));
    const kept = [...this.list.children].filter((li) => !keys.has(li.dataset.key) && this.states.get(li.dataset.key)?.done);
    clear(this.list).append(...kept, ...rows);
    this.box.hidden = this.list.children.length === 0;
  }

  /** mark records what the row of proposal k shows and paints its current row. */
  mark(k, st) {
    this.states.set(k, st);
    for (const li of this.list.children) {
      if (li.dataset.key === k) this.paint(li, st);
    }
  }

  paint(li, st = {}) {
    Object.assign(li.querySelector('.error'), { textContent: st.error || '', hidden: !st.error });
    Object.assign(li.querySelector('.status'), { textContent: st.done || '', hidden: !st.done });
    for (const b of li.querySelectorAll('button')) b.disabled = Boolean(st.busy || st.done);
    li.classList.toggle('adopted', Boolean(st.done));
  }

  row(p) {
    const k = key(p);
    const err = h('p', { class: 'error', role: 'alert', hidden: true });
    const done = h('p', { class: 'status', role: 'status', hidden: true });
    const adopt = h('button', { type: 'button', class: 'primary adopt' }, 'Adopt');
    const later = h('button', { type: 'button', class: 'small later' }, 'Not now');
    const li = h('li', { class: 'suggestion', dataset: { key: k, workspace: p.workspace } },
      h('div', { class: 'rules' }, 'Allow ', p.rules.map((r, i) => [i ? ' and ' : '', v(r.tool, 'tool'), ' ', h('code', { class: 'pattern', dataset: { p: r.pattern } }, visible(r.pattern))]),
        ' in workspace ', v(p.workspace, 'val')),
      h('p', { class: 'why' }, `Approved ${p.approvals} time${p.approvals === 1 ? '' : 's'}`,
        p.distinct > 1 ? ` (${p.distinct} different calls)` : '', ` by ${p.approvers.join(', ')}. It would have allowed:`),
      h('ul', { class: 'examples' }, p.examples.map((e) => h('li', null, h('code', null, visible(e.call)),
        e.count > 1 ? h('span', { class: 'times' }, ` \u00D7${e.count}`) : null))),
      h('div', { class: 'row' }, adopt, later),
      err, done);
    adopt.addEventListener('click', async () => {
      this.mark(k, { busy: true });
      try {
        await api('PUT', `v1/workspaces/${encodeURIComponent(p.workspace)}/rules`, p.document,
          { headers: p.version ? { 'If-Match': JSON.stringify(p.version) } : {} });
      } catch (e) {
        this.mark(k, { error: 'Not adopted: ' + e.message });
        // The document changed meanwhile: read the proposals again, built
        // on the document as it is now (the refusal stays in view).
        if (e.status === 409) this.load();
        return;
      }
      this.mark(k, { done: `Adopted: the rule is now the last rule of workspace ${p.workspace}; such calls run without asking.` });
      setTimeout(() => { this.dismissed.add(k); this.states.delete(k); this.load(); }, 4000);
    });
    later.addEventListener('click', () => {
      this.dismissed.add(k);
      this.states.delete(k);
      li.remove();
      this.box.hidden = this.list.children.length === 0;
    });
    return li;
  }
}

/** key names a proposal: its workspace and rules. */
function key(p) {
  return JSON.stringify([p.workspace, p.rules.map((r) => [r.tool, r.pattern])]);
}
