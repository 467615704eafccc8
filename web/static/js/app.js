// The page: sign-in, navigation between views, the event stream, the tab
// title, notifications and keyboard shortcuts.

import { api, setCSRF, setUnauthorizedHandler } from './api.js';
import { toast } from './dom.js';
import { EventStream } from './stream.js';
import { Inbox, notifyText } from './inbox.js';
import { Suggestions } from './suggestions.js';
import { grants, audit, sessions, rules, devices } from './views.js';

const $ = (id) => document.getElementById(id);
const VIEWS = ['inbox', 'grants', 'audit', 'sessions', 'rules', 'devices'];

let skew = 0; // server clock minus ours, ms
let me = null;
let stream = null;
let inbox = null;
let suggestions = null;
let suggestTimer = 0;
let view = 'inbox';

const now = () => Date.now() + skew;

async function session() {
  const s = await api('GET', 'ui/session', undefined, { noAuthRedirect: true });
  const server = Date.parse(s.server_time);
  if (server) skew = Math.abs(server - Date.now()) > 1500 ? server - Date.now() : 0;
  return s;
}

function showLogin(message) {
  me = null;
  setCSRF('');
  if (stream) stream.stop();
  $('top').hidden = true;
  for (const v of VIEWS) $('view-' + v).hidden = true;
  $('login').hidden = false;
  const err = $('login-error');
  err.hidden = !message;
  err.textContent = message || '';
  document.title = 'toolgate';
  $('token').focus();
}

function signedIn(s) {
  me = s;
  setCSRF(s.csrf);
  $('login').hidden = true;
  $('top').hidden = false;
  $('user').textContent = `${s.name} (${s.role})`;
  $('token').value = '';
  if (!inbox) {
    inbox = new Inbox({ list: $('items'), empty: $('empty'), now, onCount: count });
    suggestions = new Suggestions({ box: $('suggestions'), list: $('suggestions-list') });
  }
  suggestions.enable(s.role === 'admin');
  if (!stream) {
    stream = new EventStream({
      onEvent,
      onState: (state, how) => {
        const c = $('conn');
        c.className = 'conn ' + state;
        c.textContent = state === 'live' ? 'live' : state;
        c.title = how ? `event stream: ${how}` : 'event stream';
        if (state === 'offline') showLogin('Your session ended; sign in again.');
      },
      onConnect: () => { inbox.sync(); suggestions.load(); },
      stillSignedIn: async () => {
        try { return (await session()).authenticated; } catch { return true; }
      },
    });
  }
  stream.start();
  notifyButton();
  route();
}

/** count updates the tab title and the inbox badge. */
function count(n) {
  document.title = n > 0 ? `(${n}) toolgate` : 'toolgate';
  const c = $('count');
  c.hidden = n === 0;
  c.textContent = String(n);
}

function onEvent(ev) {
  const fresh = inbox.event(ev);
  if (fresh && !ev.replay) notify(fresh);
  switch (ev.type) {
    case 'approval.resolved':
    case 'rules.changed': {
      // A person's answer or a rule change changes what is worth
      // suggesting; expiries, cancellations and cascades do not.
      const r = (ev.approval && ev.approval.resolution) || {};
      if (ev.type === 'approval.resolved' && (!['approved', 'denied'].includes(ev.approval.status) || r.via === 'cascade')) break;
      clearTimeout(suggestTimer);
      suggestTimer = setTimeout(() => suggestions.load(), 300);
      break;
    }
    case 'grant.added':
    case 'grant.revoked':
      if (view === 'grants') grants.load();
      break;
    case 'mode.changed':
    case 'session.aborted':
    case 'session.stopped':
      if (view === 'sessions') sessions.load();
      break;
  }
}

function notify(a) {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  if (!document.hidden && document.hasFocus()) return;
  const { title, body } = notifyText(a, inbox.waitingCount(a));
  try {
    const n = new Notification(title, { body, tag: a.id });
    n.onclick = () => { window.focus(); location.hash = '#inbox'; inbox.select(a.id); n.close(); };
  } catch {
    // Some browsers allow notifications only from a service worker.
  }
}

function notifyButton() {
  const b = $('notify');
  b.hidden = !('Notification' in window) || Notification.permission !== 'default';
}

function route() {
  // #inbox/ID (the link a notification opens) selects that approval.
  const [want, id] = (location.hash.replace(/^#/, '') || 'inbox').split('/');
  view = VIEWS.includes(want) ? want : 'inbox';
  if (view === 'inbox' && id) inbox.want(id);
  if (!me) return;
  for (const v of VIEWS) $('view-' + v).hidden = v !== view;
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.dataset.view === view) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (view === 'grants') grants.load();
  if (view === 'audit') { audit.load(false); audit.verify(); }
  if (view === 'sessions') sessions.load();
  if (view === 'rules') { rules.show(); sessions.load(); }
  if (view === 'devices') devices.load();
}

function onKey(e) {
  if (!me || view !== 'inbox' || e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
  if (inbox.key(e.key)) e.preventDefault();
}

async function login(e) {
  e.preventDefault();
  const token = $('token').value.trim();
  if (!token) return;
  try {
    const s = await api('POST', 'ui/login', { token }, { noAuthRedirect: true });
    signedIn(s);
  } catch (err) {
    showLogin(err.message);
  }
}

async function logout() {
  try {
    await api('POST', 'ui/logout');
  } catch (err) {
    toast(err.message, true);
  }
  showLogin('Signed out.');
}

async function start() {
  grants.init();
  audit.init();
  sessions.init();
  rules.init();
  devices.init();
  $('login-form').addEventListener('submit', login);
  $('logout').addEventListener('click', logout);
  $('notify').addEventListener('click', async () => {
    try { await Notification.requestPermission(); } catch { /* ignored */ }
    notifyButton();
  });
  window.addEventListener('hashchange', route);
  document.addEventListener('keydown', onKey);
  document.addEventListener('keyup', () => { if (inbox) inbox.keyup(); });
  setUnauthorizedHandler(() => showLogin('Your session ended; sign in again.'));
  let s;
  try {
    s = await session();
  } catch (err) {
    showLogin(err.message);
    return;
  }
  if (s.authenticated) signedIn(s);
  else showLogin('');
}

start();
