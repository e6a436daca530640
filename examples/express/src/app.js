import express from 'express';
import { setupErrorHandler } from '@svc/express';

/** A small shop API with a failing route. */
export function createApp() {
  const app = express();
  app.get('/', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/orders/:id', (req) => {
    throw new Error(`Order ${req.params.id} could not be loaded: inventory service timed out`);
  });
  app.get('/missing', (_req, _res, next) => {
    next(Object.assign(new Error('No such thing'), { status: 404 }));
  });

  // Svc: after the routes. Reads SERVICE_URL, SERVICE_KEY_ID and SERVICE_SIGNING_SECRET from the
  // environment.
  setupErrorHandler(app);

  // The app's own error handler still runs (Svc calls next(err)).
  app.use((err, _req, res, _next) => {
    res.status(err.status ?? 500).json({ error: err.status ? err.message : 'Internal error' });
  });
  return app;
}
