'use client';
import { useState } from 'react';

function Cart({ items }: { items: string[] | undefined }) {
  return <p>{items!.length} items</p>;
}

export default function ClientErrorPage() {
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
