import { sendReceipt } from './actions';

export default function ReceiptPage() {
  return (
    <form action={sendReceipt}>
      <button type="submit" id="send-receipt">
        Send the receipt
      </button>
    </form>
  );
}
