import { getShared, type SvcClient } from '@svc/runtime';
import type { App } from 'vue';
import { failureReport } from '@svc/runtime/kit';

/**
 * Sets `app.config.errorHandler` to report component errors as the `error-boundary` failure of
 * every integration (`... (Vue component)`, tags `vite`, `browser`, `error-boundary`), chaining the
 * handler already present. Without one, the error is still printed with `console.error`, as Vue
 * does by default. Returns an uninstaller that restores the previous handler.
 */
export function installVueErrorHandler(app: App, client?: SvcClient): () => void {
  const previous = app.config.errorHandler;
  app.config.errorHandler = (err, instance, info) => {
    try {
      const report = failureReport('error-boundary', 'vite', err, { ui: 'Vue' });
      (client ?? getShared())?.[report.method](report.title, err, report.tags);
    } catch {
      // never throw into the app
    }
    if (previous) previous(err, instance, info);
    else console.error(err);
  };
  return () => {
    app.config.errorHandler = previous;
  };
}
