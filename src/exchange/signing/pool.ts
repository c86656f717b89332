// A pool of worker threads that sign batches of orders off the event loop, so a burst of order
// entry (240 calls/s × 15 orders, docs/exchange-interface.md §8) neither falls behind nor stalls the
// loop. The main thread only encodes each order into its 384-byte struct (a few µs; this also
// validates it) and transfers the buffers; workers hash and sign (sign-worker.ts, a module of its
// own started by URL: `./sign-worker.js` beside this file).
// Invariants:
// - results come back in the order of the batch, each with the same id and signature the
//   single-threaded OrderSigner gives (deterministic ECDSA);
// - a batch at or under `inlineMax` orders is signed in-thread: a round trip to a worker costs more
//   than signing one order here, and the caller gets the same result either way;
// - a worker that dies fails only the chunks it held (SigningError, retryable) and is replaced,
//   unless it never answered at all (it cannot start: replacing it would loop); after close()
//   every pending and later call rejects with SIGNING_POOL_CLOSED;
// - a batch is encoded whole before any chunk is posted, so a bad order fails it atomically;
// - on Linux the workers run at a lower priority (nice 10) than the event loop's thread, so
//   signing on every core does not delay the loop;
// - idle workers are unref'd, so a forgotten pool never keeps the process alive, while a pending
//   batch does.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { InvariantError } from '../../core/errors.js';
import type { Dialect } from '../dialect.js';
import { parsePrivateKey } from '../auth/credentials.js';
import { domainSeparator, encodeOrderStruct, ORDER_STRUCT_BYTES } from './eip712.js';
import { SigningError } from './errors.js';
import type { SignWorkerData, SignWorkerReply, SignWorkerRequest } from './sign-worker-protocol.js';
import { OrderSigner } from './signer.js';
import type { SignedOrder, UnsignedOrder } from './types.js';

export interface SigningPoolOptions {
  /** 32 bytes of hex (0x optional). Handed to the workers at start, never logged. */
  privateKey: string;
  dialect: Dialect;
  /** Worker threads; defaults to the number of cores (at most 4). */
  workers?: number;
  /** Batches of at most this many orders are signed in-thread (default 1). */
  inlineMax?: number;
  /** Smallest slice of a batch handed to one worker (default 4): splitting finer costs more in messages than it saves. */
  minChunk?: number;
  /**
   * Niceness of the worker threads on Linux (default 10; 0 leaves it): with every core signing,
   * the event loop's thread still gets a core the moment it has work.
   */
  workerNice?: number;
  /** The workers' module (default sign-worker.js beside this file; tests start workers that fail). */
  workerUrl?: URL;
}

interface Job {
  orders: readonly UnsignedOrder[];
  resolve: (signed: SignedOrder[]) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Orders sent and not yet answered. */
  load: number;
  jobs: Map<number, Job>;
  /** Chunks this worker has answered; a worker that dies before its first answer is not replaced. */
  answered: number;
}

interface Encoded {
  orders: readonly UnsignedOrder[];
  structs: Uint8Array<ArrayBuffer>;
  domains: Uint8Array<ArrayBuffer>;
}

function encodeChunk(orders: readonly UnsignedOrder[]): Encoded {
  const n = orders.length;
  const structs = new Uint8Array(new ArrayBuffer(n * ORDER_STRUCT_BYTES));
  const domains = new Uint8Array(new ArrayBuffer(n));
  for (let i = 0; i < n; i++) {
    const o = orders[i]!;
    encodeOrderStruct(o, structs, i * ORDER_STRUCT_BYTES);
    domains[i] = o.negRisk ? 1 : 0;
  }
  return { orders, structs, domains };
}

export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

export class SigningPool {
  readonly address: string;
  readonly dialect: Dialect;
  readonly size: number;
  readonly #inline: OrderSigner;
  readonly #workerData: SignWorkerData;
  readonly #inlineMax: number;
  readonly #minChunk: number;
  readonly #workerUrl: URL;
  readonly #slots: Slot[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: SigningPoolOptions) {
    const key = parsePrivateKey(options.privateKey);
    this.dialect = options.dialect;
    this.#inline = new OrderSigner(key, options.dialect);
    this.address = this.#inline.address;
    this.size = options.workers ?? defaultWorkerCount();
    if (!Number.isSafeInteger(this.size) || this.size < 1)
      throw new InvariantError(`signing pool needs at least one worker, got ${String(this.size)}`);
    this.#inlineMax = options.inlineMax ?? 1;
    this.#minChunk = Math.max(1, options.minChunk ?? 4);
    this.#workerUrl = options.workerUrl ?? new URL('./sign-worker.js', import.meta.url);
    this.#workerData = {
      privateKey: key,
      domainSeparators: [domainSeparator(options.dialect, false), domainSeparator(options.dialect, true)],
      nice: Math.max(0, Math.min(19, Math.trunc(options.workerNice ?? 10))),
    };
    for (let i = 0; i < this.size; i++) this.#slots.push(this.#spawn());
  }

  /** Worker threads currently running. */
  get running(): number {
    return this.#slots.length;
  }

  /** Signs one order (in-thread unless inlineMax is 0). */
  async sign(order: UnsignedOrder): Promise<SignedOrder> {
    const [signed] = await this.signBatch([order]);
    if (signed === undefined) throw new InvariantError('signing pool returned no order');
    return signed;
  }

  /** Signs a batch; the result has the batch's order. */
  signBatch(orders: readonly UnsignedOrder[]): Promise<SignedOrder[]> {
    if (this.#closed) return Promise.reject(new SigningError('SIGNING_POOL_CLOSED', 'signing pool is closed'));
    if (orders.length === 0) return Promise.resolve([]);
    try {
      for (const o of orders) this.#inline.checkSigner(o);
      // Deposit-wallet orders (type 3) sign a wrapper digest the workers do not form: in-thread.
      if (orders.length <= this.#inlineMax || orders.some((o) => o.signatureType === 3))
        return Promise.resolve(orders.map((o) => this.#inline.sign(o)));
      const chunks = Math.max(1, Math.min(this.#slots.length, Math.ceil(orders.length / this.#minChunk)));
      const per = Math.ceil(orders.length / chunks);
      // Encode (and so validate) every chunk before posting any: a bad order fails the whole
      // batch without leaving half of it signing in a worker.
      const encoded: Encoded[] = [];
      for (let start = 0; start < orders.length; start += per)
        encoded.push(encodeChunk(orders.slice(start, start + per)));
      const parts = encoded.map((e) => this.#dispatch(e));
      return Promise.all(parts).then((chunksOut) => chunksOut.flat());
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new InvariantError(String(err)));
    }
  }

  /** Stops the workers; pending batches reject with SIGNING_POOL_CLOSED. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const slots = this.#slots.splice(0);
    for (const s of slots)
      this.#failSlot(s, new SigningError('SIGNING_POOL_CLOSED', 'signing pool closed with orders in flight'));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  #dispatch({ orders, structs, domains }: Encoded): Promise<SignedOrder[]> {
    const n = orders.length;
    let slot = this.#slots[0];
    if (slot === undefined)
      return Promise.reject(new SigningError('SIGNING_WORKER_FAILED', 'no signing worker is running'));
    for (const s of this.#slots) if (s.load < slot.load) slot = s;
    const id = this.#nextId++;
    return new Promise<SignedOrder[]>((resolve, reject) => {
      slot.jobs.set(id, { orders, resolve, reject });
      if (slot.load === 0) slot.worker.ref();
      slot.load += n;
      const req: SignWorkerRequest = { id, structs, domains };
      slot.worker.postMessage(req, [structs.buffer, domains.buffer]);
    });
  }

  #spawn(): Slot {
    const worker = new Worker(this.#workerUrl, { workerData: this.#workerData });
    const slot: Slot = { worker, load: 0, jobs: new Map(), answered: 0 };
    worker.unref();
    worker.on('message', (reply: SignWorkerReply) => this.#onReply(slot, reply));
    worker.on('error', (err: Error) => this.#onDeath(slot, `signing worker failed: ${err.message}`));
    worker.on('exit', (code: number) => this.#onDeath(slot, `signing worker exited with code ${code}`));
    return slot;
  }

  #onReply(slot: Slot, reply: SignWorkerReply): void {
    const job = slot.jobs.get(reply.id);
    if (job === undefined) return;
    slot.jobs.delete(reply.id);
    slot.answered++;
    slot.load -= job.orders.length;
    if (slot.load === 0) slot.worker.unref();
    if ('error' in reply) {
      job.reject(new SigningError('SIGNING_WORKER_FAILED', `signing worker: ${reply.error}`));
      return;
    }
    job.resolve(job.orders.map((o, i) => ({ ...o, signature: reply.sigs[i]!, id: reply.ids[i]! })));
  }

  #onDeath(slot: Slot, message: string): void {
    const i = this.#slots.indexOf(slot);
    if (i < 0) return; // already replaced, or the pool is closing
    this.#failSlot(slot, new SigningError('SIGNING_WORKER_FAILED', message));
    void slot.worker.terminate();
    // A worker that never answered most likely cannot start (ethers missing, bad key): replacing
    // it would loop. Drop it; with no worker left, batches fail instead of spinning.
    if (slot.answered > 0) this.#slots[i] = this.#spawn();
    else this.#slots.splice(i, 1);
  }

  #failSlot(slot: Slot, err: SigningError): void {
    for (const job of slot.jobs.values()) job.reject(err);
    slot.jobs.clear();
    slot.load = 0;
  }
}
