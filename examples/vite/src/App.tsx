import { useState } from 'react';

function placeOrder(): never {
  // A stable message: per-event detail in a title would make a new card per event.
  throw new Error('Checkout failed: payment provider rejected the order');
}

let nextOrder = 1000;
function cancelOrder(): never {
  // The order number varies per click; the title masks it, so every click counts on one card.
  nextOrder += 1;
  throw new Error(`Order ${nextOrder} cannot be cancelled`);
}

function Receipt({ items }: { items: number }) {
  if (items > 0) throw new Error('Receipt template is missing');
  return <p>Receipt</p>;
}

/**
 * A shop page: "Place order" and "Cancel order" throw in a click handler, "Show receipt" breaks
 * rendering.
 */
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
      <button type="button" id="cancel-order" onClick={cancelOrder}>
        Cancel order
      </button>
      <button type="button" id="show-receipt" onClick={() => setReceipt(true)}>
        Show receipt
      </button>
      {receipt && <Receipt items={items} />}
    </main>
  );
}
