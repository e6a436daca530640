// Worker thread of health.mjs: posts reports to the service at a fixed concurrency until told to
// stop, then reports how many were answered and how many were not 2xx. workerData: url, apiKey,
// connections, kind ('dedup': one small report repeated; 'large': a new card each time with a
// 65,000-character description).
import { parentPort, workerData } from 'node:worker_threads';

const { url, apiKey, connections, kind, seed } = workerData;
const filler = 'at handler (src/routes/orders.ts:41:7) '.repeat(1700);
const body = (i) =>
  kind === 'dedup'
    ? '{"severity":"major","priority":"medium","title":"Checkout failed","tags":["env:bench"]}'
    : JSON.stringify({
        severity: 'major',
        priority: 'medium',
        title: `Large failure ${seed}-${i}`,
        description: `Failure ${seed}-${i}\n${filler}`.slice(0, 65_000),
        tags: ['env:bench'],
      });
const headers = {
  'content-type': 'application/json',
  authorization: `Bearer ${apiKey}`,
  'x-svc-hide-response': 'true',
};
let stop = false;
let next = 0;
let done = 0;
let bad = 0;
parentPort.on('message', () => {
  stop = true;
});
const worker = async () => {
  while (!stop) {
    try {
      const r = await fetch(`${url}/api/v1/tasks`, { method: 'POST', headers, body: body(next++) });
      await r.arrayBuffer();
      if (r.status >= 300) bad++;
    } catch {
      bad++;
    }
    done++;
  }
};
await Promise.all(Array.from({ length: connections }, worker));
parentPort.postMessage({ done, bad });
