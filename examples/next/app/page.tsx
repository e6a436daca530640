import Link from 'next/link';

export default function Home() {
  return (
    <main>
      <h1>Svc Next.js example</h1>
      <p>Each link fails in a different place; each failure becomes one card.</p>
      <ul>
        <li>
          <Link href="/server-error">Server component error</Link>
        </li>
        <li>
          <a href="/api/boom">Route handler error</a>
        </li>
        <li>
          <Link href="/action">Server action error</Link>
        </li>
        <li>
          <Link href="/client-error">Client component error (app/error.tsx)</Link>
        </li>
        <li>
          <Link href="/boundary">Client component error (&lt;SvcErrorBoundary&gt;)</Link>
        </li>
        <li>
          <Link href="/global">Client component error (app/global-error.tsx)</Link>
        </li>
        <li>
          <Link href="/redirect">redirect() (no card)</Link>
        </li>
        <li>
          <Link href="/missing">notFound() (no card)</Link>
        </li>
      </ul>
    </main>
  );
}
