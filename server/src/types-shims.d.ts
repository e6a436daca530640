// Minimal typings for tweetnacl-sealedbox-js, which ships none.
declare module 'tweetnacl-sealedbox-js' {
  const sealedbox: {
    overheadLength: number;
    seal(message: Uint8Array, publicKey: Uint8Array): Uint8Array;
    open(sealed: Uint8Array, publicKey: Uint8Array, secretKey: Uint8Array): Uint8Array | null;
  };
  export default sealedbox;
}

declare module 'blakejs' {
  export function blake2b(input: Uint8Array, key?: Uint8Array, outlen?: number): Uint8Array;
}
