import { placeOrder } from './actions';

export default function CheckoutPage() {
  return (
    <form action={placeOrder}>
      <button type="submit" id="place-order">
        Place order
      </button>
    </form>
  );
}
