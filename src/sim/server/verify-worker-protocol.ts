// The messages between the simulator's signature verifier (sig-verify.ts) and its worker threads
// (verify-worker.ts), and the data a worker starts with. Types only: both sides import them.
//
//   in:  { id, pub: '04…' (uncompressed public key hex), digests: string[n], sigs: string[n] }
//   out: { id, ok: boolean[n] } or { id, error: string }
// The main thread has already checked each signature's encoding (65 bytes, 0 < r, s < n, v 27/28).

export interface VerifyWorkerData {
  /** Window bits of the precomputed tables (8 to 14). */
  windowBits: number;
  /** Signers whose tables a worker keeps (LRU). */
  maxKeys: number;
}

export interface VerifyWorkerRequest {
  id: number;
  pub: string;
  digests: string[];
  sigs: string[];
}

export type VerifyWorkerReply = { id: number; ok: boolean[] } | { id: number; error: string };
