'use server';

async function mailReceipt(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  throw new Error('Receipt mailer unreachable');
}

// The action answers at once; its background work rejects later, awaited by nobody.
export async function sendReceipt(_form: FormData): Promise<void> {
  void mailReceipt();
}
