// Node delivery on `node:http` / `node:https`: one keep-alive agent per client and protocol, its
// sockets bounded by `concurrency` (the queue never has more requests in flight). About a sixth of
// the CPU of Node's `fetch` per report. Redirects are followed as `fetch` follows them. An attempt
// made outside an exit flush does not keep the process alive (its socket and timer are unref'd):
// a script that is done exits through the exit flush, which has the deadline.
import type { Agent, ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Prepared, Reply, Send, TransportContext } from '../core/send.ts';

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

/** The modules and keep-alive agents of one client, per protocol, made on first use. */
class Agents {
  readonly #byProtocol: Record<string, [Http, Agent] | undefined> = {};
  constructor(readonly concurrency: number) {}

  /** The module and agent of `protocol` (`node:https` loads TLS on its first request). */
  for(protocol: string): [Http, Agent] | undefined {
    const known = this.#byProtocol[protocol];
    if (known) return known;
    const http =
      protocol === 'http:'
        ? builtin('node:http')
        : protocol === 'https:'
          ? builtin('node:https')
          : undefined;
    if (!http) return undefined;
    const made: [Http, Agent] = [
      http,
      new http.Agent({ keepAlive: true, maxSockets: this.concurrency }),
    ];
    this.#byProtocol[protocol] = made;
    return made;
  }
}

/** The names and values fetch sends (`User-Agent` as undici's), in the same case. */
function headersOf(ctx: TransportContext, auth: Record<string, string>, body: string) {
  const headers: OutgoingHttpHeaders = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'User-Agent': 'node',
    'Content-Length': Buffer.byteLength(body),
  };
  for (const name in auth) headers[name] = auth[name];
  if (ctx.config.hideApiResponse) headers['X-Svc-Hide-Response'] = 'true';
  return headers;
}

/**
 * One attempt: its request (redirects included) under one deadline, `timeoutMs`, as fetch's abort
 * signal; the end of an exit flush aborts it too. Settles once, never rejects.
 */
class Attempt {
  #method = 'POST';
  #body: string | undefined;
  #redirects = 0;
  #request: ClientRequest | undefined;
  #timedOut = false;
  #done = false;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #abort = () => {
    this.#timedOut = true;
    this.#request?.destroy();
    this.#fail(new Error('aborted'));
  };
  readonly #held: boolean;
  readonly #attempts: Set<() => void>;

  constructor(
    ctx: TransportContext,
    readonly agents: Agents,
    readonly headers: OutgoingHttpHeaders,
    body: string,
    public url: URL,
    readonly resolve: (reply: Reply) => void,
  ) {
    this.#body = body;
    this.#held = !!ctx.exit;
    this.#timer = setTimeout(this.#abort, ctx.config.timeoutMs);
    if (!this.#held) this.#timer.unref();
    this.#attempts = ctx.attempts ??= new Set();
    this.#attempts.add(this.#abort);
  }

  start(): void {
    const client = this.agents.for(this.url.protocol);
    if (!client) {
      this.#fail(new TypeError(`unsupported protocol ${this.url.protocol}`));
      return;
    }
    try {
      const url = this.url;
      const request = client[0].request(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port,
          path: url.pathname + url.search,
          method: this.#method,
          headers: this.headers,
          agent: client[1],
        },
        (res) => this.#answered(res),
      );
      this.#request = request;
      request.on('error', (cause) => this.#fail(cause));
      if (!this.#held) request.on('socket', (socket) => socket.unref());
      request.end(this.#body);
    } catch (cause) {
      this.#fail(cause);
    }
  }

  #finish(reply: Reply): void {
    if (this.#done) return;
    this.#done = true;
    clearTimeout(this.#timer);
    this.#attempts.delete(this.#abort);
    this.resolve(reply);
  }

  #fail(cause: unknown): void {
    this.#finish({ cause, timedOut: this.#timedOut });
  }

  #answered(res: IncomingMessage): void {
    const status = res.statusCode as number;
    const location = res.headers.location;
    if (location !== undefined && REDIRECTS.has(status)) {
      res.resume(); // the socket goes back to the agent once the body is read
      this.#follow(status, location);
      return;
    }
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
    });
    res.on('end', () =>
      this.#finish({ status, text, retryAfter: (res.headers['retry-after'] as string) ?? null }),
    );
    res.on('error', (cause) => this.#finish({ status, cause }));
  }

  #follow(status: number, location: string): void {
    let next: URL;
    try {
      next = new URL(location, this.url);
    } catch (cause) {
      this.#fail(cause);
      return;
    }
    if (++this.#redirects > MAX_REDIRECTS) {
      this.#fail(new TypeError('redirect count exceeded'));
      return;
    }
    if (status === 303 || ((status === 301 || status === 302) && this.#method === 'POST')) {
      this.#method = 'GET';
      this.#body = undefined;
      delete this.headers['Content-Type'];
      delete this.headers['Content-Length'];
    }
    // Credentials stay with their origin.
    if (next.origin !== this.url.origin) delete this.headers.Authorization;
    this.url = next;
    this.start();
  }
}

/**
 * The `node:http` sender of one client, or undefined where `fetch` is the runtime's own client:
 * Bun and Deno (their `node:http` is a layer over it), or no `node:http` at all.
 */
export function createNodeSend(concurrency: number): Send | undefined {
  const runtime = globalThis as { Bun?: unknown; Deno?: unknown };
  if (runtime.Bun || runtime.Deno || !builtin('node:http')) return undefined;
  const agents = new Agents(concurrency);
  let target: URL | undefined;
  return (ctx, auth, prepared: Prepared) =>
    new Promise<Reply>((resolve) => {
      target ??= new URL(ctx.url);
      const headers = headersOf(ctx, auth, prepared.body);
      new Attempt(ctx, agents, headers, prepared.body, target, resolve).start();
    });
}
