// `app.onError(onError())`: for an app (or a sub-app mounted with its own error handler) whose
// errors should be reported where Hono answers them. It calls your handler (else answers as
// Hono's default does), reports the error when the answer is a 5xx, and chains the flush onto the
// request's `waitUntil`. With `app.use(svc())` as well, each error is still one card.
import type { Context, ErrorHandler } from 'hono';
import type { SvcHonoOptions } from './options.ts';
import { clientFor, executionContext, reportRouteError } from './middleware.ts';
import { flushOnWaitUntil } from './wait-until.ts';

/** Hono's own answer to an error: an `HTTPException`'s response, else a plain 500. */
function defaultAnswer(error: Error, c: Context): Response {
  const getResponse = (error as { getResponse?: () => Response }).getResponse;
  if (typeof getResponse === 'function') return getResponse.call(error);
  console.error(error);
  return c.text('Internal Server Error', 500);
}

/**
 * An `onError` handler that reports route errors answered with a 5xx.
 * @param handler your error handler (its answer is the response). @default Hono's default answer
 * @param options as `svc()`'s.
 */
export function onError(handler?: ErrorHandler, options: SvcHonoOptions = {}): ErrorHandler {
  return async function svcOnError(error, c) {
    const answer = handler ? await handler(error, c) : defaultAnswer(error, c);
    try {
      if (answer.status >= 500) {
        const client = clientFor(c, options);
        reportRouteError(client, c, error, options);
        flushOnWaitUntil(executionContext(c), client, options);
      }
    } catch {
      // the answer goes out whatever reporting does
    }
    return answer;
  };
}
