// The messages between the signing pool (pool.ts) and its worker threads (sign-worker.ts), and the
// data a worker starts with. Types only: both sides import them, neither runs code from here.
//
//   in:  { id, structs: Uint8Array(n × 384), domains: Uint8Array(n) }  (0 = exchange, 1 = neg-risk)
//   out: { id, ids: string[n], sigs: string[n] } or { id, error: string }
// Buffers are transferred, not copied. The private key travels in the start data only; no reply or
// error text ever contains it.

export interface SignWorkerData {
  privateKey: string;
  /** Domain separators, index 0 for the exchange contract, 1 for the neg-risk one. */
  domainSeparators: [string, string];
  /** Niceness to give this thread (Linux), so the event loop's thread wins the CPU; 0 leaves it. */
  nice: number;
}

export interface SignWorkerRequest {
  id: number;
  structs: Uint8Array;
  domains: Uint8Array;
}

export type SignWorkerReply = { id: number; ids: string[]; sigs: string[] } | { id: number; error: string };
