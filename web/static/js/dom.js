// DOM helpers. Everything the page shows from data goes through h() and
// visible(): text becomes text nodes, never markup.

/**
 * h builds an element. attrs: class, dataset, on<event> handlers, boolean
 * and string attributes. Children are nodes, strings (text nodes), arrays,
 * or null/false (skipped).
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v == null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (k === 'class') el.className = v;
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else if (k === 'value') el.value = String(v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  add(el, children);
  return el;
}

function add(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) add(el, c);
    else if (c instanceof Node) el.append(c);
    else el.append(document.createTextNode(String(c)));
  }
}

/** clear removes every child of el. */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

// Names of the characters people most often meet in attacks.
const NAMES = {
  0x00A0: 'no-break space', 0x00AD: 'soft hyphen', 0x034F: 'combining grapheme joiner',
  0x061C: 'Arabic letter mark', 0x115F: 'Hangul filler', 0x1160: 'Hangul filler',
  0x180E: 'Mongolian vowel separator', 0x200B: 'zero-width space', 0x200C: 'zero-width non-joiner',
  0x200D: 'zero-width joiner', 0x200E: 'left-to-right mark', 0x200F: 'right-to-left mark',
  0x2028: 'line separator', 0x2029: 'paragraph separator',
  0x202A: 'left-to-right embedding', 0x202B: 'right-to-left embedding', 0x202C: 'pop directional formatting',
  0x202D: 'left-to-right override', 0x202E: 'right-to-left override', 0x2060: 'word joiner',
  0x2066: 'left-to-right isolate', 0x2067: 'right-to-left isolate', 0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate', 0x3164: 'Hangul filler', 0xFEFF: 'zero-width no-break space (BOM)',
  0xFFA0: 'halfwidth Hangul filler', 0x0D: 'carriage return', 0x1B: 'escape', 0x00: 'null',
};

// SUSPECT matches one character that is invisible, zero-width, changes
// text direction, or is a control or format character (Cc, Cf), a line or
// paragraph separator, a space other than U+0020, a filler or a variation
// selector. Tab and newline are allowed: they show as themselves.
const SUSPECT = /(?![\t\n])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}]|(?! )\p{Zs}|[\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFE00-\uFE0F\uFFA0\u{E0100}-\u{E01EF}]/u;
const SUSPECT_ALL = new RegExp(SUSPECT.source, 'gu');

/** suspectCount returns how many suspect characters text holds. */
export function suspectCount(text) {
  if (typeof text !== 'string') return 0;
  const m = text.match(SUSPECT_ALL);
  return m ? m.length : 0;
}

/** codeLabel is the visible stand-in for a suspect character: ⟦U+202E⟧. */
export function codeLabel(cp) {
  return '\u27E6U+' + cp.toString(16).toUpperCase().padStart(4, '0') + '\u27E7';
}

/**
 * visible returns a fragment showing text with every suspect character
 * replaced by a marked ⟦U+XXXX⟧ label naming it.
 */
export function visible(text) {
  const frag = document.createDocumentFragment();
  text = text == null ? '' : String(text);
  let run = '';
  for (const ch of text) {
    if (SUSPECT.test(ch)) {
      if (run) { frag.append(document.createTextNode(run)); run = ''; }
      const cp = ch.codePointAt(0);
      frag.append(h('span', { class: 'invis', title: NAMES[cp] || 'invisible or control character' }, codeLabel(cp)));
    } else {
      run += ch;
    }
  }
  if (run) frag.append(document.createTextNode(run));
  return frag;
}

/** v is h() for a span of visible text. */
export function v(text, cls) {
  return h('span', cls ? { class: cls } : null, visible(text));
}

/** relTime says how long ago (or until) a time is, briefly. */
export function fmtTime(t) {
  if (!t) return '';
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return String(t);
  return d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

/** toast shows a short message at the bottom of the screen. */
let toastTimer = 0;
export function toast(msg, isError) {
  const el = document.getElementById('toast');
  el.textContent = msg;
  el.className = 'toast' + (isError ? ' bad' : '');
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, isError ? 6000 : 3000);
}

/**
 * confirmButton makes a button that acts only on a second click within a
 * few seconds, so no native dialog blocks the page.
 */
export function confirmButton(label, confirmLabel, action, cls) {
  let armed = 0;
  const b = h('button', { type: 'button', class: cls || 'small' }, label);
  b.addEventListener('click', async () => {
    if (!armed) {
      b.textContent = confirmLabel;
      b.classList.add('armed');
      armed = setTimeout(() => { armed = 0; b.textContent = label; b.classList.remove('armed'); }, 4000);
      return;
    }
    clearTimeout(armed);
    armed = 0;
    b.classList.remove('armed');
    b.textContent = label;
    b.disabled = true;
    try {
      await action();
    } finally {
      b.disabled = false;
    }
  });
  return b;
}
