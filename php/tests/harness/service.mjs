// Starts the built reference service (@svc/server/testing: 127.0.0.1:0, a temporary data dir, a
// Team-plan project with a publishable, a secret and an encryption key) for the PHP black-box suite,
// and a control endpoint beside it for what a test must see or change: GET /cards (the project's
// cards with their variants), POST /project/<active|paused|archived>. Prints one JSON line with
// both addresses and the keys; stops when its stdin closes (the PHP test process ended).
import { createServer } from 'node:http';
import { startTestService } from '@svc/server/testing';

const svc = await startTestService();

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const control = createServer(async (req, res) => {
  try {
    if (req.method === 'GET' && req.url === '/cards') return send(res, 200, await svc.cards());
    const state = /^\/project\/(active|paused|archived)$/.exec(req.url ?? '');
    if (req.method === 'POST' && state) {
      await svc.admin.setProjectState(svc.projectId, state[1]);
      return send(res, 200, { state: state[1] });
    }
    send(res, 404, { message: 'not found' });
  } catch (error) {
    send(res, 500, { message: String(error) });
  }
});

control.listen(0, '127.0.0.1', () => {
  const { port } = control.address();
  process.stdout.write(
    `${JSON.stringify({ url: svc.url, control: `http://127.0.0.1:${port}`, keys: svc.keys })}\n`,
  );
});

process.stdin.resume();
process.stdin.on('end', async () => {
  control.close();
  await svc.close();
  process.exit(0);
});
