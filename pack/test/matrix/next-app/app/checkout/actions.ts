'use server';

export async function placeOrder(_form: FormData): Promise<void> {
  throw new Error('Payment provider rejected the order');
}
