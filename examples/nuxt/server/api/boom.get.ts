// A server route that throws a plain error: Nitro answers 500 and the Svc Nitro plugin reports it.
export default defineEventHandler(() => {
  throw new RangeError('Server route exploded');
});
