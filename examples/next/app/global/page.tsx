'use client';
import { useState } from 'react';

// No error.tsx in this segment or above it: the error reaches app/global-error.tsx.
function ThemedHeader({ theme }: { theme: string | null }) {
  if (theme === null) throw new Error('Theme provider missing');
  return <h1 className={theme}>Themed</h1>;
}

export default function GlobalErrorPage() {
  const [theme, setTheme] = useState<string | null>('light');
  return (
    <main>
      <button type="button" id="break-theme" onClick={() => setTheme(null)}>
        Drop the theme
      </button>
      <ThemedHeader theme={theme} />
    </main>
  );
}
