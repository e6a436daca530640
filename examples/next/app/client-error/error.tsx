'use client';
import { useSvcErrorReport } from '@svc/next/client';

export default function CartError({ error, reset }: { error: Error; reset: () => void }) {
  useSvcErrorReport(error);
  return (
    <div id="cart-failed">
      <p>The cart failed.</p>
      <button type="button" onClick={() => reset()}>
        Retry
      </button>
    </div>
  );
}
