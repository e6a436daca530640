// The React code of the matrix's browser failures, the same in the Vite app (its src/App.tsx)
// and the Next app (a client page): one button per kind of failure. Written to compile under the
// templates' strict TypeScript settings.

/** The component, as a module whose default export is the page (`'use client'` for Next). */
export function reactScenarios(directive = ''): string {
  return `${directive}import { useState } from 'react';

function Widget({ size }: { size: number }) {
  if (size > 3) throw new RangeError(\`Widget size \${size} out of range\`);
  return <p>Widget of size {size}</p>;
}

function emptyCart(): never {
  throw new TypeError(\`Cart \${Date.now()} is empty\`);
}

async function sync(): Promise<void> {
  throw new Error(\`Sync \${Date.now()} failed\`);
}

export default function Scenarios() {
  const [size, setSize] = useState(1);
  return (
    <main>
      <button id="browser-error" type="button" onClick={() => setTimeout(emptyCart)}>
        Check out
      </button>
      <button id="browser-rejection" type="button" onClick={() => void sync()}>
        Sync
      </button>
      <button id="error-boundary" type="button" onClick={() => setSize(size + 10)}>
        Grow
      </button>
      <Widget size={size} />
    </main>
  );
}
`;
}

/** The titles those buttons make (the kit's masking: the per-event numbers become `<n>`). */
export const REACT_TITLES = {
  browserError: 'TypeError: Cart <n> is empty (browser)',
  rejection: 'Error: Sync <n> failed (unhandled rejection in the browser)',
  boundary: 'RangeError: Widget size <n> out of range (React component)',
};
