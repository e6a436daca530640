import { Suspense } from 'react';

async function loadOrder(id: string): Promise<{ total: number }> {
  throw new Error(`Order ${id} missing`);
}

// Reads its params inside <Suspense>, as cacheComponents asks: the page fails on every request.
async function Order({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const order = await loadOrder(id);
  return <p>Total: {order.total}</p>;
}

export default function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  return (
    <Suspense fallback={<p>Loading the order</p>}>
      <Order params={params} />
    </Suspense>
  );
}
