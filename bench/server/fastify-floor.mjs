// A floor for the service's framework: Fastify set up like the service (raw-body parser, the
// CORS onRequest hook) answering the same constant JSON as the ceiling, with no auth, validation
// or storage. The distance from the ceiling is what Fastify alone costs on this machine.
import Fastify from 'fastify';

const app = Fastify({ logger: false, return503OnClosing: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
app.addHook('onRequest', (req, reply, done) => {
  reply.headers({
    'access-control-allow-origin': req.headers.origin ?? '*',
    vary: 'Origin',
    'access-control-expose-headers': 'X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After',
  });
  done();
});
app.post('/api/v1/tasks', (_req, reply) =>
  reply.type('application/json; charset=utf-8').send('{"deduplicated":true}'),
);
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${app.server.address().port}` })}`);
