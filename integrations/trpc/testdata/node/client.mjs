// A stock tRPC client driven by integrations/trpc's Go tests over
// stdin/stdout, one JSON object a line. It uses @trpc/client exactly as an
// application would: createTRPCClient with httpBatchLink (or httpLink) for
// queries and mutations and httpSubscriptionLink for subscriptions.
//
// Environment: TOOLGATE_URL (the tRPC endpoint, e.g. http://127.0.0.1:8787/trpc)
// and TOOLGATE_TOKEN (an approver token).
//
// Commands (stdin):
//   {"op":"mutate","link":"batch"|"http","calls":[{"path":"tool.approve","input":{…}},…]}
//     runs the calls at once (so httpBatchLink sends them in one request)
//     and prints {"op":"mutate","results":[{"ok":true,"data":…}|{"ok":false,"error":{…}},…]}
//   {"op":"subscribe","id":"s1","path":"agent.onEvents","input":{…}}
//     prints {"sub":"s1","kind":"started"|"data"|"state"|"error"|"stopped",…}
//   {"op":"unsubscribe","id":"s1"}   prints {"op":"unsubscribed","id":"s1"}
//   {"op":"exit"}
import { createInterface } from "node:readline";
import {
  createTRPCClient,
  httpBatchLink,
  httpLink,
  httpSubscriptionLink,
  splitLink,
} from "@trpc/client";
import { EventSource } from "eventsource";

const url = process.env.TOOLGATE_URL;
const token = process.env.TOOLGATE_TOKEN;
if (!url || !token) {
  console.error("client.mjs: set TOOLGATE_URL and TOOLGATE_TOKEN");
  process.exit(2);
}
const auth = { Authorization: `Bearer ${token}` };

// EventSource cannot set headers; the eventsource package takes a fetch
// that adds the bearer token, as tRPC's docs show for httpSubscriptionLink.
const subscriptionLink = httpSubscriptionLink({
  url,
  EventSource,
  eventSourceOptions: () => ({
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...init?.headers, ...auth } }),
  }),
});

function client(terminal) {
  return createTRPCClient({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: subscriptionLink,
        false: terminal,
      }),
    ],
  });
}

const clients = {
  batch: client(httpBatchLink({ url, headers: () => auth })),
  http: client(httpLink({ url, headers: () => auth })),
};

function out(msg) {
  process.stdout.write(JSON.stringify(msg) + "\n");
}

function errorOf(err) {
  return {
    name: err?.name,
    message: err?.message,
    code: err?.shape?.code,
    data: err?.data ?? null,
  };
}

function proc(c, path) {
  return path.split(".").reduce((o, k) => o[k], c);
}

const subs = new Map();

async function handle(cmd) {
  switch (cmd.op) {
    case "mutate": {
      const c = clients[cmd.link ?? "batch"];
      // Started in the same tick: httpBatchLink puts them in one request.
      const results = await Promise.all(
        cmd.calls.map((call) =>
          proc(c, call.path)
            .mutate(call.input)
            .then(
              (data) => ({ ok: true, data }),
              (err) => ({ ok: false, error: errorOf(err) }),
            ),
        ),
      );
      out({ op: "mutate", results });
      break;
    }
    case "query": {
      const c = clients[cmd.link ?? "batch"];
      const res = await proc(c, cmd.path)
        .query(cmd.input)
        .then(
          (data) => ({ ok: true, data }),
          (err) => ({ ok: false, error: errorOf(err) }),
        );
      out({ op: "query", ...res });
      break;
    }
    case "subscribe": {
      const id = cmd.id;
      const sub = proc(clients.batch, cmd.path ?? "agent.onEvents").subscribe(
        cmd.input,
        {
          onStarted: () => out({ sub: id, kind: "started" }),
          onData: (data) => out({ sub: id, kind: "data", data }),
          onError: (err) => out({ sub: id, kind: "error", error: errorOf(err) }),
          onConnectionStateChange: (s) =>
            out({ sub: id, kind: "state", state: s.state, error: s.error ? errorOf(s.error) : null }),
          onStopped: () => out({ sub: id, kind: "stopped" }),
        },
      );
      subs.set(id, sub);
      break;
    }
    case "unsubscribe": {
      subs.get(cmd.id)?.unsubscribe();
      subs.delete(cmd.id);
      out({ op: "unsubscribed", id: cmd.id });
      break;
    }
    case "exit":
      for (const s of subs.values()) s.unsubscribe();
      process.exit(0);
      break;
    default:
      out({ op: "error", message: `unknown op ${cmd.op}` });
  }
}

out({ op: "ready" });
const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let cmd;
  try {
    cmd = JSON.parse(line);
  } catch (err) {
    out({ op: "error", message: `bad command: ${err.message}` });
    return;
  }
  handle(cmd).catch((err) => out({ op: "error", message: String(err?.stack ?? err) }));
});
rl.on("close", () => process.exit(0));
