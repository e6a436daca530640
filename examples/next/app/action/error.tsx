'use client';
import { useSvcErrorReport } from '@svc/next/client';

// The action's error reaches this boundary with a digest; the server already reported it, so
// useSvcErrorReport leaves it alone (no second card).
export default function ActionError({ error }: { error: Error & { digest?: string } }) {
  useSvcErrorReport(error);
  return <p id="action-failed">The order could not be placed.</p>;
}
