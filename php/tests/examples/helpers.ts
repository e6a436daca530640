// What the example tests share: which Debian packages are missing (one printed line, then skip),
// `php -S` serving an example's public/ folder, waiting for a card on the reference service, and
// the card the Express integration makes of the same failure (to hold PHP to the same behaviour).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FAILURES, type FailureWhere, failureReport } from '@svc/runtime/kit';
import { freePort, spawnProcess, type Spawned, type TestService } from '@svc/testkit';

export { freePort };
import {
  APT_INSTALL,
  type FrameworkPackage,
  missingCore,
  missingFrameworks,
} from '../harness/debian.ts';

export const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));

/** The line to print, or undefined when php and these packages are installed. */
export function missingFor(example: string, packages: FrameworkPackage[]): string | undefined {
  const absent = [
    ...missingCore().filter((p) => p !== 'phpunit'),
    ...missingFrameworks().filter((p) => packages.includes(p)),
  ];
  return absent.length
    ? `examples/${example} skipped: install the Debian packages ${absent.join(', ')} (${APT_INSTALL})`
    : undefined;
}

/** The environment of a user's shell: PATH and what the test sets, nothing else. */
export function userEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, ...vars };
}

/** `php -S 127.0.0.1:<port> -t examples/<name>/public`, ready when it answers. */
export async function phpServe(
  name: string,
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; server: Spawned }> {
  const port = await freePort();
  const server = spawnProcess(
    'php',
    ['-S', `127.0.0.1:${port}`, '-t', `${EXAMPLES}${name}/public`],
    {
      env,
      cwd: `${EXAMPLES}${name}`,
    },
  );
  await server.waitFor(/Development Server .* started/, 20_000);
  return { url: `http://127.0.0.1:${port}`, server };
}

/** Runs `php <args>` in the example's folder; resolves with the exit code and output. */
export async function php(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | string; output: string }> {
  const run = spawnProcess('php', args, { env, cwd: `${EXAMPLES}${name}` });
  const code = await run.exited;
  return { code, output: run.output() };
}

type Card = Awaited<ReturnType<TestService['cards']>>[number];

/** The card with this title once the service has it (polling; reports go out after the response). */
export async function waitForCard(
  svc: TestService,
  title: string,
  until: (card: Card) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<Card> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const card = (await svc.cards()).find((c) => c.title === title);
    if (card && until(card)) return card;
    if (Date.now() > deadline) {
      const titles = (await svc.cards()).map((c) => c.title);
      throw new Error(`no card "${title}" on the service; cards: ${JSON.stringify(titles)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The 1-based line of the first line of examples/<file> matching `pattern`. */
export function lineOf(file: string, pattern: RegExp): number {
  const lines = readFileSync(`${EXAMPLES}${file}`, 'utf8').split('\n');
  const index = lines.findIndex((line) => pattern.test(line));
  if (index < 0) throw new Error(`${pattern} is not in examples/${file}`);
  return index + 1;
}

/**
 * The title, severity, priority and tags `@svc/express` gives a request's server error (through
 * `@svc/runtime/kit`, the TypeScript side of the failure table), with `framework` in place of
 * `express`: what a PHP integration's card of the same failure must show.
 */
export function asExpressReports(
  framework: string,
  error: { name: string; message: string },
  where: FailureWhere,
): { title: string; severity: string; priority: string; tags: string[] } {
  const thrown = Object.assign(new Error(error.message), { name: error.name });
  const report = failureReport('server-error', 'express', thrown, where);
  const { severity, priority } = FAILURES['server-error'];
  const tags = report.tags.map((tag) => (tag === 'express' ? framework : tag));
  return { title: report.title, severity, priority, tags };
}
