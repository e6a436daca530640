// Fails while rendering on the server, on every request.
export const dynamic = 'force-dynamic';

export default async function ServerErrorPage() {
  const order = await loadOrder(Date.now());
  return <p>{order.id}</p>;
}

async function loadOrder(requestedAt: number): Promise<{ id: string }> {
  throw new Error(`Order service unavailable (request at ${requestedAt})`);
}
