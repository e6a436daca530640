// The demo's burst: duplicates (one card, several occurrences), variants, JSON and stack-trace
// descriptions, CSV tags.

/** @param {number} amount */
function chargeCard(amount) {
  if (amount > 100)
    throw new TypeError(`Cannot read properties of undefined (reading 'token') for ${amount}`);
  return amount;
}

/** @param {import('@svc/runtime').SvcClient} client */
export function sendBurst(client) {
  for (const amount of [120, 250, 999]) {
    try {
      chargeCard(amount);
    } catch (err) {
      client.critical('Payment token missing', err, ['checkout']);
    }
  }
  for (let i = 0; i < 4; i++)
    client.major('Checkout total mismatch', `expected 100, got ${100 + (i % 2)}`);
  client.moderateHigh(
    'Inventory sync returned JSON error',
    '{"error":"stale","sku":"A-1"}',
    'sync, inventory',
  );
  client.moderateHigh('Inventory sync returned JSON error', '{"error":"stale","sku":"B-2"}');
  client.minorLow('Slow image load', 'hero.jpg took 4.2 s', ['perf']);
  client.minorLow('Slow image load', 'hero.jpg took 4.2 s', ['perf']);
}
