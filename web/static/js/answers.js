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
    return { path, keys: ['old_string', 'new_string'], hunks: [{ old: args.old_string, new: args.new_string }] };
  }
  if (Array.isArray(args.edits) && args.edits.length && args.edits.every((e) => e && str(e.old_string) && str(e.new_string))) {
    return { path, keys: ['edits'], hunks: args.edits.map((e) => ({ old: e.old_string, new: e.new_string })) };
  }
  for (const k of ['content', 'contents', 'new_content', 'text']) {
    if (str(args[k])) return { path, keys: [k], hunks: [{ old: null, new: args[k] }] };
  }
  return null;
}

/** lineDiff aligns two texts by lines: [{op: ' '|'-'|'+', text}]. */
export function lineDiff(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  if (x.length > MAX_DIFF_LINES || y.length > MAX_DIFF_LINES) {
    return [...x.map((t) => ({ op: '-', text: t })), ...y.map((t) => ({ op: '+', text: t }))];
  }
  // Longest common subsequence, from the end.
  const n = x.length;
  const m = y.length;
  const L = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) L[i][j] = x[i] === y[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  }
  const out = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) out.push({ op: ' ', text: x[i++] }), j++;
    else if (i < n && (j >= m || L[i + 1][j] >= L[i][j + 1])) out.push({ op: '-', text: x[i++] });
    else out.push({ op: '+', text: y[j++] });
  }
  return out;
}

/** renderDiff shows a file change: old against new, or the new content. */
export function renderDiff(fc) {
  const body = h('div', { class: 'diff' },
    h('div', { class: 'diff-path' }, h('span', { class: 'k' }, fc.hunks[0].old == null ? 'write ' : 'edit '), h('code', null, visible(fc.path))));
  fc.hunks.forEach((hk, i) => {
    const lines = hk.old == null ? hk.new.split('\n').map((t) => ({ op: '+', text: t })) : lineDiff(hk.old, hk.new);
    if (fc.hunks.length > 1) body.append(h('div', { class: 'diff-hunk' }, `edit ${i + 1} of ${fc.hunks.length}`));
    if (hk.old == null) body.append(h('div', { class: 'diff-hunk' }, 'new content (the file as it is now is not shown)'));
    body.append(h('pre', { class: 'diff-lines' }, lines.map((l) => h('span', {
      class: 'dl ' + (l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'ctx'),
    }, h('span', { class: 'op' }, l.op), visible(l.text)))));
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
