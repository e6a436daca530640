// A minimal ingestion sink, run as a child process so its CPU is not charged to the client under
// test. Answers Svc's POST /api/v1/tasks with 201 and Sentry's envelopes with 200, counts both.
import { createServer } from 'node:http';

const counts = { svc: 0, sentry: 0, other: 0 };
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
    return;
  }
  req.resume();
  req.on('end', () => {
    if (req.url?.startsWith('/api/v1/tasks')) {
      counts.svc++;
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"deduplicated":false}');
    } else if (req.url?.includes('/envelope')) {
      counts.sentry++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } else {
      counts.other++;
      res.writeHead(404).end();
    }
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
