// The richer parts of a card: a file write or edit as a diff, a question
// tool's questions as a form, and the arguments as an editable document.

import { h, visible } from './dom.js';

// Above this many lines on a side, a diff shows removals then additions
// instead of aligning them (the alignment is quadratic).
const MAX_DIFF_LINES = 1000;

/**
 * fileChange reads a Write, Edit or MultiEdit call's arguments by their
 * shape (any tool named so or not): the path and a list of {old, new}
 * hunks, old null for a whole file's new content. null if the args are
 * not a file change.
 */
export function fileChange(args) {
  if (!args || typeof args !== 'object') return null;
  const path = [args.file_path, args.path, args.filename].find((p) => typeof p === 'string');
  if (path == null) return null;
  const str = (x) => typeof x === 'string';
  if (str(args.old_string) && str(args.new_string)) {
    return { path, keys: ['old_string', 'new_string'], hunks: [{ old: args.old_string, new: args.new_string, all: args.replace_all === true }] };
  }
  if (Array.isArray(args.edits) && args.edits.length && args.edits.every((e) => e && str(e.old_string) && str(e.new_string))) {
    return { path, keys: ['edits'], hunks: args.edits.map((e) => ({ old: e.old_string, new: e.new_string, all: e.replace_all === true })) };
  }
  for (const k of ['content', 'contents', 'new_content', 'text']) {
    if (str(args[k])) return { path, keys: [k], hunks: [{ old: null, new: args[k] }] };
  }
  return null;
}

/**
 * lineDiff aligns two texts by lines: [{op: ' '|'-'|'+', text}]. Lines
 * both share at the start and the end are matched first, so an edit in a
 * long file costs its changed part only.
 */
export function lineDiff(a, b) {
  // A final newline on both sides is no line of its own.
  if (a.endsWith('\n') && b.endsWith('\n')) { a = a.slice(0, -1); b = b.slice(0, -1); }
  const x = a.split('\n');
  const y = b.split('\n');
  let pre = 0;
  while (pre < x.length && pre < y.length && x[pre] === y[pre]) pre++;
  let post = 0;
  while (post < x.length - pre && post < y.length - pre && x[x.length - 1 - post] === y[y.length - 1 - post]) post++;
  const head = x.slice(0, pre).map((t) => ({ op: ' ', text: t }));
  const tail = x.slice(x.length - post).map((t) => ({ op: ' ', text: t }));
  const xm = x.slice(pre, x.length - post);
  const ym = y.slice(pre, y.length - post);
  if (xm.length > MAX_DIFF_LINES || ym.length > MAX_DIFF_LINES) {
    return [...head, ...xm.map((t) => ({ op: '-', text: t })), ...ym.map((t) => ({ op: '+', text: t })), ...tail];
  }
  // Longest common subsequence, from the end.
  const n = xm.length;
  const m = ym.length;
  const L = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) L[i][j] = xm[i] === ym[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  }
  const out = head;
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && xm[i] === ym[j]) out.push({ op: ' ', text: xm[i++] }), j++;
    else if (i < n && (j >= m || L[i + 1][j] >= L[i][j + 1])) out.push({ op: '-', text: xm[i++] });
    else out.push({ op: '+', text: ym[j++] });
  }
  return out.concat(tail);
}

// CONTEXT is how many unchanged lines a whole-file diff keeps around each
// change; longer runs fold into one line.
const CONTEXT = 3;

/** fold collapses long runs of unchanged lines: {op: '~', text}. */
export function fold(lines) {
  const out = [];
  for (let i = 0; i < lines.length;) {
    if (lines[i].op !== ' ') { out.push(lines[i++]); continue; }
    let j = i;
    while (j < lines.length && lines[j].op === ' ') j++;
    const keepHead = i === 0 ? 0 : CONTEXT;
    const keepTail = j === lines.length ? 0 : CONTEXT;
    if (j - i > keepHead + keepTail + 1) {
      out.push(...lines.slice(i, i + keepHead));
      const n = j - i - keepHead - keepTail;
      out.push({ op: '~', text: `\u22EF ${n} unchanged line${n > 1 ? 's' : ''}` });
      out.push(...lines.slice(j - keepTail, j));
    } else {
      out.push(...lines.slice(i, j));
    }
    i = j;
  }
  return out;
}

/**
 * applyEdits applies a file change's hunks to the file's text as the
 * agent's edit tools do (each old string must be found; replace_all
 * replaces every occurrence, else the first). It returns the new text,
 * or null when an old string is not in the file.
 */
export function applyEdits(text, fc) {
  let out = text;
  for (const hk of fc.hunks) {
    if (hk.old == null) return hk.new;
    if (hk.old === '' || !out.includes(hk.old)) return null;
    out = hk.all ? out.split(hk.old).join(hk.new) : out.replace(hk.old, () => hk.new);
  }
  return out;
}

/**
 * renderDiff shows a file change: old against new, or the new content.
 * before is what the gateway could read of the file as it is now
 * (GET v1/approvals/{id}/before): with its content, the whole file is
 * diffed against the file as the call leaves it; without, the call's own
 * strings are, with the gateway's note saying why.
 */
export function renderDiff(fc, before) {
  const write = fc.hunks[0].old == null;
  const body = h('div', { class: 'diff' },
    h('div', { class: 'diff-path' }, h('span', { class: 'k' }, write ? 'write ' : 'edit '), h('code', null, visible(fc.path))));
  const lines = (ls, cls) => h('pre', { class: 'diff-lines' + (cls ? ' ' + cls : '') }, ls.map((l) => h('span', {
    class: 'dl ' + (l.op === '+' ? 'add' : l.op === '-' ? 'del' : l.op === '~' ? 'fold' : 'ctx'),
  }, h('span', { class: 'op' }, l.op === '~' ? ' ' : l.op), visible(l.text))));
  if (before && before.shown) {
    const after = applyEdits(before.content, fc);
    if (after != null) {
      const d = lineDiff(before.content, after);
      const changed = d.some((l) => l.op !== ' ');
      body.append(h('div', { class: 'diff-hunk before-shown' }, changed
        ? 'the file as it is now against the file after this call'
        : 'no change: the file already has this content'));
      body.append(lines(fold(d), 'whole'));
      return body;
    }
    body.append(h('div', { class: 'diff-hunk before-note' }, 'the text to replace is not in the file as it is now: this edit will fail'));
  } else if (before && before.note) {
    body.append(h('div', { class: 'diff-hunk before-note' }, write && before.exists === false && /does not exist/.test(before.note)
      ? 'a new file: ' + before.note
      : (write ? 'new content only' : 'the edit only') + ' \u2014 the file as it is now is not shown: ' + before.note));
  }
  fc.hunks.forEach((hk, i) => {
    const ls = hk.old == null ? hk.new.split('\n').map((t) => ({ op: '+', text: t })) : lineDiff(hk.old, hk.new);
    if (fc.hunks.length > 1) body.append(h('div', { class: 'diff-hunk' }, `edit ${i + 1} of ${fc.hunks.length}`));
    if (hk.old == null && !before) body.append(h('div', { class: 'diff-hunk' }, 'new content (the file as it is now is not shown)'));
    body.append(lines(ls));
  });
  return body;
}

/**
 * questions reads a question tool's arguments (AskUserQuestion's shape:
 * {questions: [{question, header?, options: [{label, description?}],
 * multiSelect?}]}); null if they are not questions.
 */
export function questions(args) {
  const qs = args && args.questions;
  if (!Array.isArray(qs) || !qs.length) return null;
  if (!qs.every((q) => q && typeof q.question === 'string' && Array.isArray(q.options))) return null;
  return qs.map((q) => ({
    question: q.question, header: typeof q.header === 'string' ? q.header : '', multi: !!q.multiSelect,
    options: q.options.filter((o) => o && typeof o.label === 'string').map((o) => ({ label: o.label, description: typeof o.description === 'string' ? o.description : '' })),
  }));
}

/**
 * questionForm builds the form for qs. Its answer() returns the answer
 * to send ({answers: {question: label}}, several labels joined by ", "),
 * or throws naming the question left unanswered.
 */
export function questionForm(qs, id) {
  const form = h('div', { class: 'questions' });
  const reads = qs.map((q, qi) => {
    const name = `q-${id}-${qi}`;
    const inputs = q.options.map((o) => h('input', { type: q.multi ? 'checkbox' : 'radio', name, value: o.label }));
    const other = h('input', { type: 'text', class: 'other', placeholder: 'Other answer (optional)', 'aria-label': 'Other answer to: ' + q.question });
    form.append(h('fieldset', { class: 'question' },
      h('legend', null, q.header ? [h('span', { class: 'badge' }, visible(q.header)), ' '] : null, visible(q.question)),
      q.options.map((o, oi) => h('label', { class: 'option' }, inputs[oi], ' ', h('strong', null, visible(o.label)),
        o.description ? [' \u2014 ', h('span', { class: 'desc' }, visible(o.description))] : null)),
      other));
    return () => {
      const picked = inputs.filter((x) => x.checked).map((x) => x.value);
      const typed = other.value.trim();
      if (typed) picked.push(typed);
      if (!picked.length) throw new Error(`Answer the question \u201C${q.question}\u201D first.`);
      return [q.question, picked.join(', ')];
    };
  });
  form.answer = () => ({ answers: Object.fromEntries(reads.map((r) => r())) });
  return form;
}

/**
 * modifications compares the edited arguments with the call's: the
 * changed and added keys, as the broker merges them over the call's.
 * It throws with a message for text that is not a JSON object, for a
 * removed key (a merge cannot remove one) and for no change.
 */
export function modifications(args, text) {
  let edited;
  try {
    edited = JSON.parse(text);
  } catch (err) {
    throw new Error('The arguments are not valid JSON: ' + err.message);
  }
  if (!edited || typeof edited !== 'object' || Array.isArray(edited)) throw new Error('The arguments must be a JSON object.');
  const gone = Object.keys(args || {}).filter((k) => !(k in edited));
  if (gone.length) throw new Error(`An argument cannot be removed, only changed: ${gone.join(', ')}.`);
  const mods = {};
  for (const [k, val] of Object.entries(edited)) {
    if (JSON.stringify(val) !== JSON.stringify((args || {})[k])) mods[k] = val;
  }
  if (!Object.keys(mods).length) throw new Error('Nothing was changed: approve the call as it is instead.');
  return mods;
}
