import { useState } from 'react';

function placeOrder(): never {
  // A stable message: per-event detail in a title would make a new card per event.
  throw new Error('Checkout failed: payment provider rejected the order');
}

function Receipt({ items }: { items: number }) {
  if (items > 0) throw new Error('Receipt template is missing');
  return <p>Receipt</p>;
}

/** A shop page: "Place order" throws in a click handler, "Show receipt" breaks rendering. */
export function App() {
  const [items, setItems] = useState(1);
  const [receipt, setReceipt] = useState(false);
  return (
    <main>
      <h1>Svc + Vite example</h1>
      <p>{items} item(s) in the cart.</p>
      <button type="button" onClick={() => setItems(items + 1)}>
        Add item
      </button>
      <button type="button" id="place-order" onClick={placeOrder}>
        Place order
      </button>
      <button type="button" id="show-receipt" onClick={() => setReceipt(true)}>
        Show receipt
      </button>
      {receipt && <Receipt items={items} />}
    </main>
  );
}
