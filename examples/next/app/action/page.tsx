import { placeOrder } from './actions';

export default function ActionPage() {
  return (
    <form action={placeOrder}>
      <button type="submit" id="place-order">
        Place order
      </button>
    </form>
  );
}
