'use client';
import { SvcErrorBoundary } from '@svc/next/client';
import { useState } from 'react';

function Widget({ explode }: { explode: boolean }) {
  if (explode) throw new RangeError('Widget size out of range');
  return <p>Widget ok</p>;
}

export default function BoundaryPage() {
  const [explode, setExplode] = useState(false);
  return (
    <main>
      <button type="button" id="break-widget" onClick={() => setExplode(true)}>
        Break the widget
      </button>
      <SvcErrorBoundary fallback={<p id="widget-failed">Widget failed.</p>}>
        <Widget explode={explode} />
      </SvcErrorBoundary>
    </main>
  );
}
