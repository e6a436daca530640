// Raw POSTs to the service under test, shared by ./rate-headers.test.ts and ./body-limits.test.ts
// (not a test file itself).
import { type Agent, request } from 'node:http';
import { TASKS } from '../helpers.ts';

export const LIMIT = 'x-ratelimit-limit';
export const REMAINING = 'x-ratelimit-remaining';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: { message: string };
}

/**
 * A `send` that POSTs to the service at `url()` (read on each call, once the service is up).
 * node:http rather than fetch: a 413 may arrive while the body is still being sent.
 */
export function rawSender(url: () => string) {
  return function send(
    body: Buffer | string,
    headers: Record<string, string>,
    opts: { agent?: Agent; path?: string } = {},
  ): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      const req = request(`${url()}${opts.path ?? TASKS}`, {
        method: 'POST',
        agent: opts.agent,
        headers: { 'content-type': 'application/json', ...headers },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, json: JSON.parse(text) }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });
  };
}
