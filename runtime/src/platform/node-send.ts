// Node delivery on `node:http` / `node:https`: one keep-alive agent per client and protocol, its
// sockets bounded by `concurrency` (the queue never has more requests in flight). About a sixth of
// the CPU of Node's `fetch` per report. Redirects are followed as `fetch` follows them.
import type { Agent, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Reply, Send } from '../core/send.ts';

type Http = typeof import('node:http');

/** `fetch`'s limit (a network error past it). */
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A built-in module without a static import: absent (undefined) where the runtime has none. */
function builtin(name: string): Http | undefined {
  try {
    return process.getBuiltinModule?.(name) as Http | undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `node:http` sender of one client, or undefined where `fetch` is the runtime's own client:
 * Bun and Deno (their `node:http` is a layer over it), or no `node:http` at all.
 */
export function createNodeSend(concurrency: number): Send | undefined {
  const runtime = globalThis as { Bun?: unknown; Deno?: unknown };
  if (runtime.Bun || runtime.Deno || !builtin('node:http')) return undefined;
  const clients: Record<string, [Http, Agent] | undefined> = {};
  /** The module and agent of a protocol, made on its first request (`node:https` loads TLS). */
  const clientFor = (protocol: string) => {
    if (clients[protocol]) return clients[protocol];
    const http =
      protocol === 'http:'
        ? builtin('node:http')
        : protocol === 'https:'
          ? builtin('node:https')
          : undefined;
    if (!http) return undefined;
    clients[protocol] = [http, new http.Agent({ keepAlive: true, maxSockets: concurrency })];
    return clients[protocol];
  };
  let target: URL | undefined;
  return (ctx, auth, prepared) =>
    new Promise<Reply>((resolve) => {
      target ??= new URL(ctx.url);
      // The names and values fetch sends (`User-Agent` as undici's), in the same case; the body is
      // the prepared string (written with the head, in one piece).
      const headers: OutgoingHttpHeaders = {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'User-Agent': 'node',
        'Content-Length': Buffer.byteLength(prepared.body),
      };
      for (const name in auth) headers[name] = auth[name];
      if (ctx.config.hideApiResponse) headers['X-Svc-Hide-Response'] = 'true';
      let url = target;
      let method = 'POST';
      let body: string | undefined = prepared.body;
      let redirects = 0;
      let request: ReturnType<Http['request']> | undefined;
      let timedOut = false;
      let done = false;
      const finish = (reply: Reply) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        stop?.removeEventListener('abort', abort);
        resolve(reply);
      };
      const fail = (cause: unknown) => finish({ cause, timedOut });
      const abort = () => {
        timedOut = true;
        request?.destroy();
        fail(new Error('aborted'));
      };
      // One deadline for the attempt, redirects included (as fetch's abort signal).
      const timer = setTimeout(abort, ctx.config.timeoutMs);
      // The exit deadline, for an attempt started after it was set (as with fetch).
      const stop = ctx.stop;
      stop?.addEventListener('abort', abort);

      const answered = (res: IncomingMessage) => {
        const status = res.statusCode as number;
        const location = res.headers.location;
        if (location !== undefined && REDIRECTS.has(status)) {
          res.resume(); // the socket goes back to the agent once the body is read
          return follow(status, location);
        }
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          finish({ status, text, retryAfter: (res.headers['retry-after'] as string) ?? null }),
        );
        res.on('error', (cause) => finish({ status, cause }));
      };

      const follow = (status: number, location: string) => {
        let next: URL;
        try {
          next = new URL(location, url);
        } catch (cause) {
          return fail(cause);
        }
        if (++redirects > MAX_REDIRECTS) return fail(new TypeError('redirect count exceeded'));
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          delete headers['Content-Type'];
          delete headers['Content-Length'];
        }
        // Credentials stay with their origin.
        if (next.origin !== url.origin) delete headers.Authorization;
        url = next;
        start();
      };

      const start = () => {
        const client = clientFor(url.protocol);
        if (!client) return fail(new TypeError(`unsupported protocol ${url.protocol}`));
        try {
          request = client[0].request(
            {
              protocol: url.protocol,
              hostname: url.hostname.replace(/^\[|\]$/g, ''),
              port: url.port,
              path: url.pathname + url.search,
              method,
              headers,
              agent: client[1],
            },
            answered,
          );
          request.on('error', fail);
          request.end(body);
        } catch (cause) {
          fail(cause);
        }
      };
      start();
    });
}
