// The code of a signing worker thread, as a string the pool starts with `eval: true`.
//
// Why a string and not a file next to the pool: a file would be `sign-worker.js` in dist/ but
// `sign-worker.ts` under vitest (which runs sources and cannot load TypeScript into a worker), so
// tests would exercise a stale compiled copy, or none. The same string runs in both. It is plain
// CommonJS and loads ethers by the absolute path the pool resolves (workerData.ethersPath), so it
// does not depend on the worker's working directory.
//
// Protocol (one message per chunk, buffers transferred, not copied):
//   in:  { id, structs: Uint8Array(n × 384), domains: Uint8Array(n) }  (0 = exchange, 1 = neg-risk)
//   out: { id, ids: string[n], sigs: string[n] } or { id, error: string }
// The worker hashes each 384-byte struct encoding (eip712.ts encodeOrderStruct), forms the digest
// keccak256(0x1901 ‖ domainSeparator ‖ structHash) and signs it. On Linux it first lowers its own
// thread's priority (workerData.nice), so a burst of signing never starves the event loop. That last step mirrors eip712.ts
// `digestOf`; the pool tests check the two agree for random orders. Invariant: the private key
// arrives in workerData only, is dropped from it once the SigningKey holds it, and no reply or
// error text ever contains it.

export interface SignWorkerData {
  ethersPath: string;
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

export const SIGN_WORKER_SOURCE = String.raw`'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { keccak256, SigningKey, getBytes } = require(workerData.ethersPath);
if (workerData.nice > 0) {
  // Linux applies setpriority() to a single thread when given its thread id: lowering this
  // worker's priority keeps the event loop's thread first in line for a core.
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) require('node:os').setPriority(tid, workerData.nice);
  } catch {}
}
const key = new SigningKey(workerData.privateKey);
workerData.privateKey = undefined;
const prefixes = workerData.domainSeparators.map((sep) => {
  const buf = new Uint8Array(66);
  buf[0] = 0x19;
  buf[1] = 0x01;
  buf.set(getBytes(sep), 2);
  return buf;
});
const STRUCT = 384;
parentPort.on('message', (msg) => {
  const { id, structs, domains } = msg;
  try {
    const n = domains.length;
    if (structs.length !== n * STRUCT) throw new Error('struct buffer length ' + structs.length + ' is not ' + n + ' x ' + STRUCT);
    const ids = new Array(n);
    const sigs = new Array(n);
    for (let i = 0; i < n; i++) {
      const buf = prefixes[domains[i]];
      if (buf === undefined) throw new Error('unknown domain index ' + domains[i]);
      buf.set(getBytes(keccak256(structs.subarray(i * STRUCT, (i + 1) * STRUCT))), 34);
      const digest = keccak256(buf);
      ids[i] = digest;
      sigs[i] = key.sign(digest).serialized;
    }
    parentPort.postMessage({ id, ids, sigs });
  } catch (err) {
    parentPort.postMessage({ id, error: (err && err.message) ? String(err.message).slice(0, 300) : 'signing failed' });
  }
});
`;
