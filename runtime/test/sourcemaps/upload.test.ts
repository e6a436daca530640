// A whole upload run on esbuild output: what is sent (paths as the SDK writes them, project-relative
// sources with their content, signed), what is left in the folder (no map, no comment), and the
// one line, also when there are no credentials, no service, or a refusal. Faults need a scripted
// server (./request.test.ts says why); the reference service's answers are in ./cli.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../testkit/src/index.ts';
import { type UploadOptions, uploadSourceMaps } from '../../src/sourcemaps/upload.ts';
import { SIGNING, useRecordingServer } from '../helpers/recording-server.ts';
import { APP_FILES, buildEsbuildApp } from './esbuild-app.ts';

const server = useRecordingServer();
let app: Awaited<ReturnType<typeof buildEsbuildApp>>;
beforeEach(async () => {
  app = await buildEsbuildApp();
});
afterEach(() => app.done());

const dist = () => join(app.project, 'dist');
const files = () => readdirSync(join(dist(), 'assets')).sort();
const env = (extra: Record<string, string> = {}) => ({
  SERVICE_URL: server().url,
  SERVICE_KEY_ID: SIGNING.keyId,
  SERVICE_SIGNING_SECRET: SIGNING.signingSecret,
  ...extra,
});

async function run(extra: Partial<UploadOptions> = {}) {
  const lines: string[] = [];
  const result = await uploadSourceMaps({
    folders: [{ dir: dist(), pathPrefix: '/', strip: true }],
    release: '2.0.0',
    projectRoot: app.project,
    env: env(),
    sleep: async () => {},
    log: (line) => lines.push(line),
    ...extra,
  });
  return { result, lines };
}

describe('uploadSourceMaps', () => {
  it('uploads each chunk map keyed by release and path, then leaves no map in the folder', async () => {
    const chunks = files().filter((f) => f.endsWith('.js'));
    expect(chunks.length).toBeGreaterThanOrEqual(2); // the entry and the lazy chunk
    const { result, lines } = await run();
    expect(lines).toEqual([`[svc] uploaded ${chunks.length} source maps for release 2.0.0`]);
    expect(result).toMatchObject({ found: chunks.length, uploaded: chunks.length });
    const sent = server().requests.map((r) => r.json as Record<string, any>);
    expect(sent.map((b) => b.path).sort()).toEqual(chunks.map((c) => `assets/${c}`));
    expect(server().requests.every((r) => r.signatureValid)).toBe(true);
    for (const body of sent) {
      expect(body.release).toBe('2.0.0');
      expect(body.map.version).toBe(3);
      expect(body.map.sourceRoot).toBeUndefined();
      for (const [i, source] of (body.map.sources as string[]).entries())
        expect(body.map.sourcesContent[i]).toBe(APP_FILES[source]);
    }
    const sources = sent.flatMap((b) => b.map.sources);
    expect(sources.sort()).toEqual(Object.keys(APP_FILES).sort());
    // The deploy: chunks without their comment, and no map; each upload holds the chunk as deployed.
    expect(files()).toEqual(chunks);
    for (const chunk of chunks) {
      const deployed = readFileSync(join(dist(), 'assets', chunk), 'utf8');
      expect(deployed).not.toContain('sourceMappingURL');
      expect(sent.find((b) => b.path === `assets/${chunk}`)!.code).toBe(deployed);
    }
  });

  it('no credentials: says so in one line, and still removes the maps', async () => {
    const { result, lines } = await run({ env: { SERVICE_URL: server().url } });
    expect(lines).toEqual([
      '[svc] no source maps uploaded because no credentials (SERVICE_KEY_ID, SERVICE_SIGNING_SECRET not set)',
    ]);
    expect(result.uploaded).toBe(0);
    expect(server().requests).toHaveLength(0);
    expect(files().some((f) => f.endsWith('.map'))).toBe(false);
  });

  it('a service that cannot be reached: one line with the address (credentials redacted)', async () => {
    const port = await freePort();
    const url = `http://ci:hunter2@127.0.0.1:${port}`;
    const { lines } = await run({ env: env({ SERVICE_URL: url }), maxRetries: 1 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^\\[svc\\] no source maps uploaded because service unreachable at http://\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)$`,
      ),
    );
    expect(lines[0]).not.toContain('hunter2');
    expect(files().some((f) => f.endsWith('.map'))).toBe(false);
  });

  it('a refused key stops at the first answer: one line with the service message', async () => {
    server().respond(() => ({
      status: 401,
      body: { message: 'Invalid or missing project API key.' },
    }));
    const { lines } = await run({ concurrency: 1 });
    expect(lines).toEqual([
      '[svc] no source maps uploaded because refused: Invalid or missing project API key.',
    ]);
    expect(server().requests).toHaveLength(1);
  });

  it('one map refused (413): the others go, and the line names the refused one', async () => {
    server().respond((req) =>
      String((req.json as { path?: string })?.path).includes('lazy')
        ? { status: 413, body: { message: 'The request body is larger than 10 bytes.' } }
        : undefined,
    );
    const { result, lines } = await run();
    const lazy = files().find((f) => f.startsWith('lazy'));
    expect(lines).toEqual([
      `[svc] uploaded ${result.found - 1} of ${result.found} source maps for release 2.0.0; refused: assets/${lazy}: The request body is larger than 10 bytes.`,
    ]);
  });

  it('a folder without maps: nothing to upload, said once', async () => {
    await run();
    server().requests.length = 0;
    const { lines } = await run();
    expect(lines).toEqual([
      '[svc] no source maps uploaded because no source maps were found in dist',
    ]);
    expect(server().requests).toHaveLength(0);
  });

  it('never prints the signing secret', async () => {
    server().respond(() => ({
      status: 403,
      body: { message: 'Source maps are uploaded with a secret key.' },
    }));
    const { lines } = await run();
    expect(lines.join('\n')).not.toContain(SIGNING.signingSecret);
  });
});
