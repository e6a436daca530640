// The ceiling: a bare node:http server that reads the whole body and answers the same JSON as a
// hidden deduplicated report. Nothing can be faster on this machine with this HTTP stack.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    Buffer.concat(chunks);
    const body = '{"deduplicated":true}';
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
    });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () =>
  console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}`),
);
