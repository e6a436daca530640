'use client';
import { useState } from 'react';

function Cart({ items }: { items: string[] | undefined }) {
  return <p>{items!.length} items</p>;
}

// No error.tsx here: the error reaches the app/global-error.tsx that `svc-next init` wrote.
export default function CartPage() {
  const [broken, setBroken] = useState(false);
  return (
    <main>
      <button type="button" id="break-cart" onClick={() => setBroken(true)}>
        Break the cart
      </button>
      <Cart items={broken ? undefined : []} />
    </main>
  );
}
