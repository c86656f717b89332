// Order-signature verification for the simulator's order entry, fast enough for the interface's
// burst ceiling (3,600 orders/s). Recovering a public key with ethers costs ~1.4 ms an order, which
// caps a core at ~700 orders/s. So the first order of a signer is checked by recovery, in-thread;
// its public key Q is then remembered, and later orders of that signer are checked by worker
// threads with the verification equation over precomputed tables (verify-worker.ts, a module of its
// own started by URL beside this file; ~0.13 ms), so
// every core verifies while the event loop keeps serving requests.
//
// Invariants kept here:
// - the answer is exactly "the address recovered from (digest, signature) equals `signer`": with the
//   right key Q, R = (h/s)·G + (r/s)·Q is the point recovery reconstructs from r and v, so the
//   equation holds iff recovery yields Q; and an address names one key, so a failed check is final;
// - signature encoding rules follow ethers' recovery: 65 bytes of hex, v ∈ {27, 28} (0/1 accepted
//   as 27/28), 0 < r, s < n, and s below 2^255 (ethers refuses a "non-canonical" s);
// - results come back in the order of the jobs; a worker that dies fails only the jobs it held
//   (the request answers 500) and is replaced, unless it never answered at all (it cannot start,
//   e.g. @noble/curves, ethers' own secp256k1 dependency, cannot be loaded: replacing it would
//   loop); with `workers: 0` or once no worker is left, every check is a recovery in-thread (slow,
//   still exact);
// - idle workers are unref'd (a forgotten verifier never keeps the process alive); close() ends them.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { SigningKey } from 'ethers';
import { OddsmakerError, OptionError } from '../../core/errors.js';
import { recoverSigner } from '../../exchange/signing/index.js';
import type { VerifyWorkerData, VerifyWorkerReply, VerifyWorkerRequest } from './verify-worker-protocol.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const S_LIMIT = 1n << 255n;
const SIG_RE = /^0x[0-9a-fA-F]{130}$/;

export class VerifyError extends OddsmakerError {
  constructor(message: string) {
    super('SIM_VERIFY_FAILED', message, true);
  }
}

export interface VerifyJob {
  /** The EIP-712 digest (order id), 0x + 64 hex. */
  readonly digest: string;
  readonly signature: string;
  /** The address the signature must recover to. */
  readonly signer: string;
}

export interface VerifierOptions {
  /** Worker threads (default: cores, 1 to 4; 0: verify in-thread by recovery only). */
  workers?: number;
  /** Signers whose tables each worker keeps (LRU; at W = 12 a table is ~5 MB); default 8. */
  maxKeys?: number;
  /** Window bits of the tables (8 to 14, default 12): wider is faster per order, slower to build. */
  windowBits?: number;
  /** Smallest slice of a batch handed to one worker (default 4). */
  minChunk?: number;
}

/** The workers' module, compiled beside this file. */
const WORKER_URL = new URL('./verify-worker.js', import.meta.url);

/** True when the signature is well formed per ethers' recovery rules. */
export function wellFormedSignature(signature: string): boolean {
  if (!SIG_RE.test(signature)) return false;
  let v = Number.parseInt(signature.slice(130, 132), 16);
  if (v < 27) v += 27;
  if (v !== 27 && v !== 28) return false;
  const r = BigInt('0x' + signature.slice(2, 66));
  const s = BigInt('0x' + signature.slice(66, 130));
  return r > 0n && r < N && s > 0n && s < N && s < S_LIMIT;
}

interface Pending {
  n: number;
  resolve: (ok: boolean[]) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  load: number;
  jobs: Map<number, Pending>;
  answered: number;
}

export class OrderSignatureVerifier {
  /** Checks answered by recovery (in-thread) and by the cached-key equation (workers). */
  readonly counts = { recovered: 0, fast: 0 };
  private readonly keys = new Map<string, string>();
  private readonly slots: Slot[] = [];
  private readonly data: VerifyWorkerData;
  private readonly minChunk: number;
  private nextId = 1;
  private closed = false;

  constructor(opts: VerifierOptions = {}) {
    const workers = opts.workers ?? Math.max(1, Math.min(4, availableParallelism()));
    if (!Number.isSafeInteger(workers) || workers < 0)
      throw new OptionError('SIM_OPTION', `workers must be an integer >= 0, got ${String(workers)}`);
    const maxKeys = opts.maxKeys ?? 8;
    const windowBits = opts.windowBits ?? 12;
    if (!Number.isSafeInteger(windowBits) || windowBits < 8 || windowBits > 14)
      throw new OptionError('SIM_OPTION', `windowBits must be 8 to 14, got ${String(windowBits)}`);
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1)
      throw new OptionError('SIM_OPTION', `maxKeys must be a positive integer, got ${String(maxKeys)}`);
    this.minChunk = Math.max(1, opts.minChunk ?? 4);
    this.data = { windowBits, maxKeys };
    for (let i = 0; i < workers; i++) this.slots.push(this.spawn(this.data));
  }

  /** Worker threads running. */
  get workers(): number {
    return this.slots.length;
  }

  /** One result per job, in order: true iff the signature recovers to the job's signer. */
  async verifyMany(jobs: readonly VerifyJob[]): Promise<boolean[]> {
    const out = new Array<boolean>(jobs.length).fill(false);
    const bySigner = new Map<string, number[]>();
    for (let i = 0; i < jobs.length; i++) {
      const j = jobs[i] as VerifyJob;
      if (!wellFormedSignature(j.signature)) continue;
      const signer = j.signer.toLowerCase();
      const pub = this.keys.get(signer);
      if (pub === undefined || this.slots.length === 0 || this.closed) {
        out[i] = this.recover(j, signer);
        continue;
      }
      const list = bySigner.get(pub);
      if (list === undefined) bySigner.set(pub, [i]);
      else list.push(i);
    }
    const parts: Promise<void>[] = [];
    for (const [pub, idx] of bySigner) {
      const chunks = Math.max(1, Math.min(this.slots.length, Math.ceil(idx.length / this.minChunk)));
      const per = Math.ceil(idx.length / chunks);
      for (let start = 0; start < idx.length; start += per) {
        const part = idx.slice(start, start + per);
        parts.push(
          this.dispatch(
            pub,
            part.map((i) => (jobs[i] as VerifyJob).digest),
            part.map((i) => (jobs[i] as VerifyJob).signature),
          ).then((ok) => {
            part.forEach((i, k) => {
              out[i] = ok[k] === true;
            });
            this.counts.fast += part.length;
          }),
        );
      }
    }
    await Promise.all(parts);
    return out;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const s of slots) this.failSlot(s, new VerifyError('signature verifier closed with checks in flight'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /** Recovery in-thread; remembers the signer's public key when it matches. */
  private recover(j: VerifyJob, signer: string): boolean {
    this.counts.recovered++;
    let recovered: string;
    try {
      recovered = recoverSigner(j.digest, j.signature);
    } catch {
      return false;
    }
    if (recovered.toLowerCase() !== signer) return false;
    if (!this.keys.has(signer)) this.keys.set(signer, SigningKey.recoverPublicKey(j.digest, j.signature).slice(2));
    return true;
  }

  private dispatch(pub: string, digests: string[], sigs: string[]): Promise<boolean[]> {
    let slot = this.slots[0];
    if (slot === undefined) return Promise.reject(new VerifyError('no verification worker is running'));
    for (const s of this.slots) if (s.load < slot.load) slot = s;
    const id = this.nextId++;
    const target = slot;
    return new Promise<boolean[]>((resolve, reject) => {
      target.jobs.set(id, { n: digests.length, resolve, reject });
      if (target.load === 0) target.worker.ref();
      target.load += digests.length;
      const msg: VerifyWorkerRequest = { id, pub, digests, sigs };
      target.worker.postMessage(msg);
    });
  }

  private spawn(data: VerifyWorkerData): Slot {
    const worker = new Worker(WORKER_URL, { workerData: data });
    const slot: Slot = { worker, load: 0, jobs: new Map(), answered: 0 };
    worker.unref();
    worker.on('message', (reply: VerifyWorkerReply) => this.onReply(slot, reply));
    worker.on('error', (err: Error) => this.onDeath(slot, `verification worker failed: ${err.message}`));
    worker.on('exit', (code: number) => this.onDeath(slot, `verification worker exited with code ${code}`));
    return slot;
  }

  private onReply(slot: Slot, reply: VerifyWorkerReply): void {
    const job = slot.jobs.get(reply.id);
    if (job === undefined) return;
    slot.jobs.delete(reply.id);
    slot.answered++;
    slot.load -= job.n;
    if (slot.load === 0) slot.worker.unref();
    if ('error' in reply) job.reject(new VerifyError(`verification worker: ${reply.error}`));
    else job.resolve(reply.ok);
  }

  private onDeath(slot: Slot, message: string): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.failSlot(slot, new VerifyError(message));
    void slot.worker.terminate();
    // A worker that never answered most likely cannot start: replacing it would loop.
    if (slot.answered > 0 && !this.closed) this.slots[i] = this.spawn(this.data);
    else this.slots.splice(i, 1);
  }

  private failSlot(slot: Slot, err: VerifyError): void {
    for (const job of slot.jobs.values()) job.reject(err);
    slot.jobs.clear();
    slot.load = 0;
  }
}
