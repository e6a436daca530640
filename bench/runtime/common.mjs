// Shared bench helpers: the sink child process, percentiles.
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';

export async function startSink() {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./sink.mjs', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve) => {
    child.stdout.on('data', (d) => {
      const m = /listening (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    // node:http, not fetch: loading and running undici here would be charged to the case measured.
    counts: () =>
      new Promise((resolve, reject) =>
        get(`${url}/count`, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(JSON.parse(text)));
        }).on('error', reject),
      ),
    close: () => child.kill(),
  };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))];
};
