// tweetnacl-sealedbox-js ships no types.
declare module 'tweetnacl-sealedbox-js' {
  export function seal(message: Uint8Array, publicKey: Uint8Array): Uint8Array;
  export function open(
    sealed: Uint8Array,
    publicKey: Uint8Array,
    secretKey: Uint8Array,
  ): Uint8Array | null;
  const sealedBox: { seal: typeof seal; open: typeof open };
  export default sealedBox;
}
