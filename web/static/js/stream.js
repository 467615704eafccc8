// The live event stream: a WebSocket to v1/events, falling back to
// Server-Sent Events when WebSockets do not get through. It reconnects
// with exponential backoff and resumes after the last sequence it saw;
// the server replays every pending approval on connect.

const TYPES = ['approval.requested', 'approval.resolved', 'grant.added', 'grant.revoked',
  'mode.changed', 'session.aborted', 'session.stopped'];

export class EventStream {
  /**
   * @param {(ev: object) => void} onEvent  called for every event
   * @param {(state: string, how: string) => void} onState  live / reconnecting / offline
   * @param {() => void} onConnect  called when a connection opens
   * @param {() => Promise<boolean>} stillSignedIn  asked after repeated failures
   */
  constructor({ onEvent, onState, onConnect, stillSignedIn }) {
    this.onEvent = onEvent;
    this.onState = onState;
    this.onConnect = onConnect || (() => {});
    this.stillSignedIn = stillSignedIn || (async () => true);
    this.lastSeq = 0;
    this.attempt = 0;
    this.wsFailures = 0;
    // ?stream=sse forces Server-Sent Events (for proxies that block
    // WebSockets, and for testing the fallback).
    this.useSSE = !('WebSocket' in window) || new URLSearchParams(location.search).get('stream') === 'sse';
    this.conn = null;
    this.timer = 0;
    this.stopped = true;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.conn) this.conn.close();
    this.conn = null;
  }

  url() {
    const u = new URL('v1/events', document.baseURI);
    if (this.lastSeq > 0) u.searchParams.set('after', String(this.lastSeq));
    return u;
  }

  handle(ev) {
    if (!ev || typeof ev !== 'object') return;
    if (typeof ev.seq === 'number' && ev.seq > this.lastSeq) this.lastSeq = ev.seq;
    this.onEvent(ev);
  }

  connect() {
    if (this.stopped) return;
    if (!this.useSSE) this.connectWS();
    else this.connectSSE();
  }

  connectWS() {
    const u = this.url();
    u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(u);
    this.conn = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.attempt = 0;
      this.wsFailures = 0;
      this.onState('live', 'WebSocket');
      this.onConnect();
    };
    ws.onmessage = (m) => {
      let ev;
      try { ev = JSON.parse(m.data); } catch { return; }
      this.handle(ev);
    };
    ws.onclose = () => {
      if (this.conn !== ws) return;
      this.conn = null;
      // A WebSocket that never opens twice in a row is blocked on the
      // way (a proxy): use Server-Sent Events from then on.
      if (!opened && ++this.wsFailures >= 2) this.useSSE = true;
      this.retry();
    };
  }

  connectSSE() {
    const es = new EventSource(this.url());
    this.conn = es;
    es.onopen = () => {
      this.attempt = 0;
      this.onState('live', 'Server-Sent Events');
      this.onConnect();
    };
    const onMsg = (m) => {
      let ev;
      try { ev = JSON.parse(m.data); } catch { return; }
      this.handle(ev);
    };
    for (const t of TYPES) es.addEventListener(t, onMsg);
    es.onerror = () => {
      // Reconnect ourselves, with backoff and ?after=, rather than let
      // EventSource retry at its own pace.
      es.close();
      if (this.conn !== es) return;
      this.conn = null;
      this.retry();
    };
  }

  async retry() {
    if (this.stopped) return;
    this.onState('reconnecting', '');
    const n = this.attempt++;
    if (n >= 2 && !(await this.stillSignedIn())) {
      this.onState('offline', 'signed out');
      return;
    }
    const delay = Math.min(30000, 500 * 2 ** n) * (0.5 + Math.random() / 2);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }
}
