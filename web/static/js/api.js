// The HTTP API, called with the session cookie. Every request carries the
// session's CSRF token; the server requires it for every state change.

let csrf = '';
let onUnauthorized = () => {};

/** setCSRF sets the token sent in X-CSRF-Token. */
export function setCSRF(token) { csrf = token || ''; }

/** setUnauthorizedHandler is called when the session has ended. */
export function setUnauthorizedHandler(fn) { onUnauthorized = fn; }

/** APIError is an error answer: status, code and the server's message. */
export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * api sends a request and returns the decoded JSON answer (null for 204),
 * or the text with {text: true}. A string body is sent as is; anything
 * else as JSON; opts.headers adds headers (If-Match). Paths are relative,
 * so the UI works under a path prefix.
 */
export async function api(method, path, body, opts = {}) {
  const headers = { ...(opts.headers || {}), 'X-Toolgate-Client': 'web' };
  if (csrf) headers['X-CSRF-Token'] = csrf;
  let payload;
  if (body !== undefined) {
    if (typeof body === 'string') {
      payload = body;
      headers['Content-Type'] = 'text/plain; charset=utf-8';
    } else {
      payload = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
  }
  let res;
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', cache: 'no-store' });
  } catch (err) {
    throw new APIError(0, 'unavailable', 'cannot reach toolgate: ' + err.message);
  }
  if (res.status === 204) return null;
  const text = await res.text();
  if (res.ok && opts.text) return text;
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    const e = data && data.error;
    const err = new APIError(res.status, e ? e.code : 'http', e ? e.message : `${res.status} ${res.statusText}`);
    if (res.status === 401 && !opts.noAuthRedirect) onUnauthorized();
    throw err;
  }
  return data;
}

/** q builds a query string from the non-empty values of obj. */
export function q(obj) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(obj)) if (v !== '' && v != null) p.set(k, v);
  const s = p.toString();
  return s ? '?' + s : '';
}
