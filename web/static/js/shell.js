// Shell command highlighting: split a command line into its sub-commands
// (at |, ||, &&, ;, & and newlines outside quotes, $(…), backticks and
// brackets) and match each to the decision's subjects, so every
// sub-command shows its own verdict and the deciding one is marked. The
// server's bash parser decided; this only lays its subjects over the text.

const OPS = ['&&', '||', '|&', '|', ';;', ';', '&', '\n'];

/**
 * split returns the command as a list of parts: {text, op: true} for an
 * operator and {text} for a sub-command (with its surrounding spaces).
 */
export function split(cmd) {
  const parts = [];
  let cur = '';
  let i = 0;
  let depth = 0; // nesting in $( ), ( ), { }, backticks
  let quote = ''; // ' or "
  let backtick = false;
  const push = () => { if (cur) parts.push({ text: cur }); cur = ''; };
  while (i < cmd.length) {
    const c = cmd[i];
    if (quote === "'") {
      cur += c;
      if (c === "'") quote = '';
      i++;
      continue;
    }
    if (c === '\\' && i + 1 < cmd.length) {
      cur += c + cmd[i + 1];
      i += 2;
      continue;
    }
    if (quote === '"') {
      cur += c;
      if (c === '"') quote = '';
      else if (c === '$' && cmd[i + 1] === '(') { cur += '('; i++; depth++; }
      i++;
      continue;
    }
    if (c === "'" || c === '"') { quote = c; cur += c; i++; continue; }
    if (c === '`') { backtick = !backtick; cur += c; i++; continue; }
    if (c === '(' || (c === '{' && /\s/.test(cmd[i + 1] || ''))) { depth++; cur += c; i++; continue; }
    if ((c === ')' || c === '}') && depth > 0) { depth--; cur += c; i++; continue; }
    if (c === '#' && (cur === '' || /\s$/.test(cur)) && depth === 0 && !backtick) {
      // A comment runs to the end of the line.
      const end = cmd.indexOf('\n', i);
      const stop = end < 0 ? cmd.length : end;
      cur += cmd.slice(i, stop);
      i = stop;
      continue;
    }
    if (depth === 0 && !backtick) {
      const op = OPS.find((o) => cmd.startsWith(o, i));
      // "&>" and ">&" are redirections, not the background operator.
      if (op && !(op === '&' && (cmd[i + 1] === '>' || cur.endsWith('>')))) {
        push();
        parts.push({ text: op, op: true });
        i += op.length;
        continue;
      }
    }
    cur += c;
    i++;
  }
  push();
  return parts;
}

/** norm reduces a sub-command's text to words after quote removal. */
export function norm(text) {
  let t = text
    .replace(/\\(.)/g, '$1')
    .replace(/['"]/g, '')
    .replace(/^[\s({]+/, '')
    .replace(/^(?:if|then|else|elif|do|while|until|!)\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  // Drop closing brackets of a group that opened before this part; keep
  // those of $( … ) and ( … ) inside it.
  const count = (c) => t.split(c).length - 1;
  while (/[)}]$/.test(t) && count(t.slice(-1)) > count(t.slice(-1) === ')' ? '(' : '{')) t = t.slice(0, -1).trimEnd();
  return t;
}

const STRICT = { deny: 3, ask: 2, allow: 1, none: 0 };

/**
 * deciding returns the index of the subject that decided: one carrying a
 * risk, else the one whose rule is the decision's rule, else the first
 * whose action is the decision's action. -1 when none is.
 */
export function deciding(decision) {
  const subs = decision.subjects || [];
  // A subject carrying a risk is what forces the question.
  for (const r of decision.risks || []) {
    const i = subs.findIndex((s) => r.subject && s.text === r.subject && s.action === decision.action);
    if (i >= 0) return i;
  }
  const src = decision.rule && decision.rule.source;
  if (src) {
    const i = subs.findIndex((s) => s.rule && s.rule.source === src && s.action === decision.action);
    if (i >= 0) return i;
  }
  return subs.findIndex((s) => s.action === decision.action);
}

/**
 * assign maps each command subject to a part index: an exact match of the
 * normalised text first, then a part containing it (wrappers such as
 * sudo or env keep the inner command inside the part).
 */
export function assign(parts, subjects) {
  const norms = parts.map((p) => (p.op ? null : norm(p.text)));
  const out = new Map(); // part index -> [subject index]
  subjects.forEach((s, si) => {
    if (s.kind !== 'command') return;
    let pi = norms.findIndex((n) => n !== null && n === s.text);
    if (pi < 0) pi = norms.findIndex((n) => n !== null && n.includes(s.text));
    if (pi < 0) return;
    if (!out.has(pi)) out.set(pi, []);
    out.get(pi).push(si);
  });
  return out;
}

/** strictest returns the strictest action among subjects. */
export function strictest(subjects, idx) {
  let best = 'none';
  for (const i of idx) {
    const a = subjects[i].action;
    if ((STRICT[a] || 0) > STRICT[best]) best = a;
  }
  return best;
}
