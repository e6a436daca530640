'use client';
// Svc: written by `svc-next init`. Reports errors that escape every other boundary.
import { useSvcErrorReport } from '@svc/next/client';

export default function GlobalError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  useSvcErrorReport(error);
  return (
    <html lang="en">
      <body>
        <h2>Something went wrong.</h2>
        <button type="button" onClick={() => reset()}>
          Try again
        </button>
      </body>
    </html>
  );
}
