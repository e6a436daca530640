import { useState } from 'react';

function placeOrder(items: number): never {
  throw new Error(`Checkout failed: payment provider rejected the order (${items} items)`);
}

/** A shop page whose "Place order" button throws. */
export function App() {
  const [items, setItems] = useState(1);
  return (
    <main>
      <h1>Svc + Vite example</h1>
      <p>{items} item(s) in the cart.</p>
      <button type="button" onClick={() => setItems(items + 1)}>
        Add item
      </button>
      <button type="button" id="place-order" onClick={() => placeOrder(items)}>
        Place order
      </button>
    </main>
  );
}
