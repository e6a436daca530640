// async-exit-hook ships no types; only the part testkit uses.
declare module 'async-exit-hook' {
  const hook: { unhookEvent(event: string): void };
  export default hook;
}
