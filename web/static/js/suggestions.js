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
  }

  /** enable shows the card for admins; others cannot read the audit log. */
  enable(on) {
    this.enabled = on;
    if (!on) this.box.hidden = true;
  }

  /** load fetches the proposals again and shows them. */
  async load() {
    if (!this.enabled) return;
    if (this.loading) return this.loading;
    this.loading = (async () => {
      let ps;
      try {
        ps = (await api('GET', 'v1/suggestions')).suggestions || [];
      } catch {
        return; // the card is a help, not the inbox: keep what it showed
      } finally {
        this.loading = null;
      }
      this.show(ps);
    })();
    return this.loading;
  }

  show(ps) {
    ps = ps.filter((p) => !this.dismissed.has(key(p)));
    // A refusal stays in view when the proposals are read again (a rules
    // change that made the adoption fail also reloads the card).
    const errors = new Map();
    for (const li of this.list.children) {
      const err = li.querySelector('.error');
      if (err && !err.hidden) errors.set(li.dataset.key, err.textContent);
    }
    const rows = ps.map((p) => this.row(p));
    for (const li of rows) {
      const msg = errors.get(li.dataset.key);
      if (msg) Object.assign(li.querySelector('.error'), { textContent: msg, hidden: false });
    }
    clear(this.list).append(...rows);
    this.box.hidden = ps.length === 0;
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
      err.hidden = true;
      adopt.disabled = later.disabled = true;
      try {
        await api('PUT', `v1/workspaces/${encodeURIComponent(p.workspace)}/rules`, p.document,
          { headers: p.version ? { 'If-Match': JSON.stringify(p.version) } : {} });
      } catch (e) {
        err.textContent = 'Not adopted: ' + e.message;
        err.hidden = false;
        adopt.disabled = later.disabled = false;
        // The document changed meanwhile: read the proposals again, built
        // on the document as it is now (the refusal stays in view).
        if (e.status === 409) this.load();
        return;
      }
      li.classList.add('adopted');
      done.textContent = `Adopted: the rule is now the last rule of workspace ${p.workspace}; such calls run without asking.`;
      done.hidden = false;
      setTimeout(() => { this.dismissed.add(k); this.load(); }, 4000);
    });
    later.addEventListener('click', () => {
      this.dismissed.add(k);
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
