// Builds the Vite fixture app (regular and hidden maps) and serves it with switchable map behaviour.
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rename } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
/** The runtime's browser entry from source, so the test exercises this checkout's code. */
export const RUNTIME_BROWSER = fileURLToPath(
  new URL('../../src/index.browser.ts', import.meta.url),
);

export interface ViteFixture {
  dir: string;
  /** `regular`: maps with `sourceMappingURL` comments; `hidden`: no comment, maps under `/maps/`. */
  outDirs: Record<'regular' | 'hidden', string>;
  line(file: string, marker: string): Promise<number>;
}

export async function buildViteFixture(): Promise<ViteFixture> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'svc-location-vite-')));
  await cp(join(here, 'fixtures/vite-app'), dir, { recursive: true });
  const outDirs = { regular: join(dir, 'dist-regular'), hidden: join(dir, 'dist-hidden') };
  for (const [kind, outDir] of Object.entries(outDirs)) {
    await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      resolve: { alias: { '@svc/runtime': RUNTIME_BROWSER } },
      build: { outDir, emptyOutDir: true, sourcemap: kind === 'hidden' ? 'hidden' : true },
    });
  }
  // Hidden maps are not deployed next to the chunks: only the registry (or a header) finds them.
  await mkdir(join(outDirs.hidden, 'maps/assets'), { recursive: true });
  for (const name of await readdir(join(outDirs.hidden, 'assets'))) {
    if (name.endsWith('.map')) {
      await rename(join(outDirs.hidden, 'assets', name), join(outDirs.hidden, 'maps/assets', name));
    }
  }
  return {
    dir,
    outDirs,
    async line(file, marker) {
      const lines = (await readFile(join(dir, file), 'utf8')).split('\n');
      const index = lines.findIndex((l) => l.includes(`// @${marker}`));
      if (index === -1) throw new Error(`marker @${marker} not in ${file}`);
      return index + 1;
    },
  };
}

export interface ServeMode {
  root: string;
  /**
   * What `.map` requests get: the file, a 404, a 9 MiB streamed body (over the size cap), or
   * headers and then nothing (a stalled server: the resolver's timeout must end the wait).
   */
  maps: 'ok' | '404' | 'huge' | 'stall';
  /** Send `SourceMap: /maps/assets/<chunk>.map` with each chunk. */
  header?: boolean;
  /** Inject the registry the Vite plugin writes for hidden maps (`Symbol.for('svc.sourcemaps')`). */
  registry?: boolean;
}

export interface StaticServer {
  url: string;
  mode: ServeMode;
  /** Paths requested since the last reset. */
  requests: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.map': 'application/json',
};

export async function serveStatic(mode: ServeMode): Promise<StaticServer> {
  const state: StaticServer = { url: '', mode, requests: [], close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    state.requests.push(path);
    const { root, maps } = state.mode;
    if (path.endsWith('.map') && maps === '404') return void res.writeHead(404).end();
    if (path.endsWith('.map') && maps === 'huge') return streamHuge(res);
    if (path.endsWith('.map') && maps === 'stall') return void res.writeHead(200).flushHeaders();
    try {
      const file = join(root, normalize(path === '/' ? '/index.html' : path));
      let body: string | Buffer = await readFile(file);
      const headers: Record<string, string> = {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      };
      if (path.endsWith('.html') || path === '/') body = await page(root, body.toString());
      if (state.mode.header && path.endsWith('.js')) headers.SourceMap = `/maps${path}.map`;
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  async function page(root: string, html: string): Promise<string> {
    if (!state.mode.registry) return html;
    const registry: Record<string, string> = {};
    for (const name of await readdir(join(root, 'assets'))) {
      if (name.endsWith('.js')) registry[`/assets/${name}`] = `/maps/assets/${name}.map`;
    }
    const script = `<script>globalThis[Symbol.for('svc.sourcemaps')]=${JSON.stringify(registry)}</script>`;
    return html.replace('<head>', `<head>${script}`);
  }
  return state;
}

/** 9 MiB of JSON-ish bytes in 64 KiB pieces, no Content-Length (the reader must count). */
function streamHuge(res: import('node:http').ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const piece = Buffer.alloc(64 * 1024, 0x20);
  let left = 144;
  const write = () => {
    while (left > 0) {
      left--;
      if (!res.write(piece)) return void res.once('drain', write);
    }
    res.end();
  };
  res.on('error', () => {});
  write();
}
