import { Suspense } from 'react';

async function loadStock(id: string): Promise<{ count: number }> {
  throw new Error(`Stock ${id} unavailable`);
}

// Started early and awaited late, as Next allows: the promise rejects (unhandled for a moment)
// before the render awaits it; the render's error is the page's server error.
async function Stock({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const stock = loadStock(id);
  await new Promise((resolve) => setTimeout(resolve, 50));
  return <p>In stock: {(await stock).count}</p>;
}

export default function StockPage({ params }: { params: Promise<{ id: string }> }) {
  return (
    <Suspense fallback={<p>Loading the stock</p>}>
      <Stock params={params} />
    </Suspense>
  );
}
