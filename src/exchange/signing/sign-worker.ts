// A signing worker thread of the pool (pool.ts starts this module by URL: `./sign-worker.js` beside
// it, the compiled file in dist/; under vitest the test loader, test/support/ts-loader, serves this
// source). Messages: sign-worker-protocol.ts.
//
// The worker hashes each 384-byte struct encoding (eip712.ts encodeOrderStruct), forms the digest
// keccak256(0x1901 ‖ domainSeparator ‖ structHash) and signs it. That last step mirrors eip712.ts
// `digestOf` with one reused buffer per domain; the pool tests check the two agree for random
// orders. On Linux it first lowers its own thread's priority (workerData.nice), so a burst of
// signing never starves the event loop.
// Invariant: the private key arrives in workerData only, is dropped from it once the SigningKey
// holds it, and no reply or error text ever contains it.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { getBytes, keccak256, SigningKey } from 'ethers';
import { InvariantError } from '../../core/errors.js';
import type { SignWorkerData, SignWorkerReply, SignWorkerRequest } from './sign-worker-protocol.js';

const STRUCT = 384;

const port = parentPort;
if (port === null) throw new InvariantError('sign-worker runs in a worker thread, started by the signing pool');
const data = workerData as SignWorkerData;

if (data.nice > 0) {
  // Linux applies setpriority() to a single thread when given its thread id: lowering this
  // worker's priority keeps the event loop's thread first in line for a core.
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, data.nice);
  } catch {
    // Not Linux, or not allowed: the worker runs at the default priority.
  }
}

const key = new SigningKey(data.privateKey);
(data as { privateKey: string | undefined }).privateKey = undefined;

/** 0x1901 ‖ domainSeparator ‖ (struct hash, written per order), one buffer per domain. */
const prefixes = data.domainSeparators.map((sep) => {
  const buf = new Uint8Array(66);
  buf[0] = 0x19;
  buf[1] = 0x01;
  buf.set(getBytes(sep), 2);
  return buf;
});

function signChunk({ id, structs, domains }: SignWorkerRequest): SignWorkerReply {
  try {
    const n = domains.length;
    if (structs.length !== n * STRUCT)
      throw new InvariantError(`struct buffer length ${structs.length} is not ${n} x ${STRUCT}`);
    const ids = new Array<string>(n);
    const sigs = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const domain = domains[i] as number;
      const buf = prefixes[domain];
      if (buf === undefined) throw new InvariantError(`unknown domain index ${domain}`);
      buf.set(getBytes(keccak256(structs.subarray(i * STRUCT, (i + 1) * STRUCT))), 34);
      const digest = keccak256(buf);
      ids[i] = digest;
      sigs[i] = key.sign(digest).serialized;
    }
    return { id, ids, sigs };
  } catch (err) {
    return { id, error: err instanceof Error ? err.message.slice(0, 300) : 'signing failed' };
  }
}

port.on('message', (msg: SignWorkerRequest) => {
  port.postMessage(signChunk(msg));
});
