// Offline next/font/google for `next build`, for every create-next-app suite (@svc/next's, the
// matrix). The template's layout.tsx loads Geist and Geist Mono with next/font/google, which
// downloads them from fonts.googleapis.com at build time; this machine cannot reach it and Next
// then fails the build ("Failed to fetch Geist from Google Fonts"). Next's own switch for building
// offline (its test suite uses it) is NEXT_FONT_GOOGLE_MOCKED_RESPONSES: a module mapping each
// stylesheet URL to its CSS. Turbopack still fetches the font files named in that CSS, so they are
// served from 127.0.0.1: the real Geist files that ship inside the app's own `next` package. The
// template's files stay unchanged.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The stylesheets the template's layout.tsx asks Google for, and the font each one serves. */
const STYLESHEETS = {
  'https://fonts.googleapis.com/css2?family=Geist:wght@100..900&display=swap': [
    'Geist',
    'geist-latin.woff2',
  ],
  'https://fonts.googleapis.com/css2?family=Geist+Mono:wght@100..900&display=swap': [
    'Geist Mono',
    'geist-mono-latin.woff2',
  ],
} as const;

export interface OfflineFonts {
  /** Environment for `next build`. */
  env: { NEXT_FONT_GOOGLE_MOCKED_RESPONSES: string };
  close(): Promise<void>;
}

export async function offlineFonts(appDir: string): Promise<OfflineFonts> {
  const fontDir = join(appDir, 'node_modules/next/dist/next-devtools/server/font');
  const server: Server = createServer((req, res) => {
    try {
      const body = readFileSync(join(fontDir, String(req.url).replace(/^\/+/, '')));
      res.writeHead(200, { 'content-type': 'font/woff2' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const responses: Record<string, string> = {};
  for (const [url, [family, file]] of Object.entries(STYLESHEETS)) {
    responses[url] = `@font-face {
  font-family: '${family}';
  font-style: normal;
  font-weight: 100 900;
  font-display: swap;
  src: url(http://127.0.0.1:${port}/${file}) format('woff2');
}
`;
  }
  const mockFile = join(appDir, '.svc-test-google-fonts.cjs');
  writeFileSync(mockFile, `module.exports = ${JSON.stringify(responses, null, 2)};\n`);
  return {
    env: { NEXT_FONT_GOOGLE_MOCKED_RESPONSES: mockFile },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
