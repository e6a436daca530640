// Answers 200 but leaves a rejected promise behind: Nitro traps it and the Svc Nitro plugin reports
// it as "Unhandled rejection on the server" (there is no request pattern to title it with).
export default defineEventHandler(() => {
  Promise.reject(new Error('Background job failed'));
  return { queued: true };
});
