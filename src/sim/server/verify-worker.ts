// The code of a signature-verification worker thread, as a string started with `eval: true`
// (as the signing pool does: a .ts worker file cannot run under vitest, and a string runs the same
// in tests and in dist/). Plain CommonJS; it loads @noble/curves by the absolute paths the pool
// resolves (workerData), so it does not depend on the worker's working directory.
//
// What it computes, for each order of a message (all by one signer whose public key Q is given):
//   R = (h/s)·G + (r/s)·Q,   ok iff R.x = r and y-parity(R) = v − 27,
// which holds exactly when recovering the signer from (digest, signature) yields Q (see
// sig-verify.ts). Both scalar products use precomputed window tables (W bits: one table lookup and
// one mixed Jacobian addition per window, no doublings); field products are reduced with the
// special form of p = 2^256 − 2^32 − 977 (two folds), and the two inversions an order needs
// (1/s mod n, 1/Z mod p) are batched over the message (Montgomery's trick). About 0.13 ms an order
// at W = 12, against ~1.4 ms for a recovery. A table is built on its key's first use (W = 12:
// ~0.6 s, ~5 MB) and kept for `maxKeys` keys (LRU); the generator's on the first message.
//
// Protocol:
//   in:  { id, pub: '04…' (uncompressed public key hex), digests: string[n], sigs: string[n] }
//   out: { id, ok: boolean[n] } or { id, error: string }
// The main thread has already checked each signature's encoding (65 bytes, 0 < r, s < n, v 27/28).

export interface VerifyWorkerData {
  secpPath: string;
  curvePath: string;
  modularPath: string;
  windowBits: number;
  maxKeys: number;
}

export interface VerifyWorkerRequest {
  id: number;
  pub: string;
  digests: string[];
  sigs: string[];
}

export type VerifyWorkerReply = { id: number; ok: boolean[] } | { id: number; error: string };

export const VERIFY_WORKER_SOURCE = String.raw`'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { secp256k1 } = require(workerData.secpPath);
const { wNAF } = require(workerData.curvePath);
const { invert } = require(workerData.modularPath);
const Point = secp256k1.ProjectivePoint;
const N = secp256k1.CURVE.n;
const P = secp256k1.CURVE.Fp.ORDER;
const W = workerData.windowBits;
const WINDOWS = Math.ceil(256 / W) + 1;
const WINDOW_SIZE = 2 ** (W - 1);
const MASK = BigInt(2 ** W - 1);
const MAX_NUMBER = 2 ** W;
const SHIFT = BigInt(W);
const MASK256 = (1n << 256n) - 1n;
const FOLD = 0x1000003d1n; // 2^256 mod p

// Field arithmetic mod p on reduced operands (0 <= a, b < p).
function mul(a, b) {
  let x = a * b;
  x = (x & MASK256) + (x >> 256n) * FOLD;
  x = (x & MASK256) + (x >> 256n) * FOLD;
  return x >= P ? x - P : x;
}
function add(a, b) {
  const s = a + b;
  return s >= P ? s - P : s;
}
function sub(a, b) {
  const d = a - b;
  return d < 0n ? d + P : d;
}

function buildTable(point) {
  const raw = wNAF(Point, 256).precomputeWindow(point, W);
  const xs = [];
  const ys = [];
  for (const q of Point.normalizeZ(raw)) {
    const a = q.toAffine();
    xs.push(a.x);
    ys.push(a.y);
  }
  return { xs, ys };
}

let base = null;
const tables = new Map();

function tableOf(pub) {
  let t = tables.get(pub);
  if (t !== undefined) {
    tables.delete(pub);
    tables.set(pub, t);
    return t;
  }
  t = buildTable(Point.fromHex(pub));
  tables.set(pub, t);
  if (tables.size > workerData.maxKeys) tables.delete(tables.keys().next().value);
  return t;
}

// Jacobian accumulator (x = X/Z², y = Y/Z³).
let X = 0n, Y = 0n, Z = 0n, inf = true;

function dbl() {
  if (Y === 0n) { inf = true; return; }
  const a = mul(X, X), b = mul(Y, Y), c = mul(b, b);
  const xb = add(X, b);
  let d = sub(mul(xb, xb), add(a, c));
  d = add(d, d);
  const e = add(add(a, a), a);
  const x3 = sub(mul(e, e), add(d, d));
  let c8 = add(c, c); c8 = add(c8, c8); c8 = add(c8, c8);
  const y3 = sub(mul(e, sub(d, x3)), c8);
  const yz = mul(Y, Z);
  Z = add(yz, yz);
  X = x3;
  Y = y3;
}

function addAffine(x2, y2) {
  if (inf) { X = x2; Y = y2; Z = 1n; inf = false; return; }
  const z1z1 = mul(Z, Z);
  const h = sub(mul(x2, z1z1), X);
  let r = sub(mul(y2, mul(Z, z1z1)), Y);
  r = add(r, r);
  if (h === 0n) {
    if (r === 0n) dbl(); else inf = true;
    return;
  }
  const hh = mul(h, h);
  let i = add(hh, hh); i = add(i, i);
  const j = mul(h, i);
  const v = mul(X, i);
  const x3 = sub(sub(mul(r, r), j), add(v, v));
  const yj = mul(Y, j);
  const y3 = sub(mul(r, sub(v, x3)), add(yj, yj));
  const zh = add(Z, h);
  Z = sub(sub(mul(zh, zh), z1z1), hh);
  X = x3;
  Y = y3;
}

function addMul(t, scalar) {
  let k = scalar;
  for (let w = 0; w < WINDOWS; w++) {
    let digit = Number(k & MASK);
    k >>= SHIFT;
    if (digit > WINDOW_SIZE) { digit -= MAX_NUMBER; k += 1n; }
    if (digit === 0) continue;
    const idx = w * WINDOW_SIZE + Math.abs(digit) - 1;
    const y = t.ys[idx];
    addAffine(t.xs[idx], digit < 0 ? P - y : y);
  }
}

// Montgomery's trick: n inverses for one inversion and 3(n − 1) products (all values non-zero).
function invertAll(vals, m) {
  const n = vals.length;
  const prefix = new Array(n);
  let acc = 1n;
  for (let i = 0; i < n; i++) { prefix[i] = acc; acc = (acc * vals[i]) % m; }
  let inv = invert(acc, m);
  const out = new Array(n);
  for (let i = n - 1; i >= 0; i--) { out[i] = (inv * prefix[i]) % m; inv = (inv * vals[i]) % m; }
  return out;
}

function verifyAll(digests, sigs, t) {
  const n = digests.length;
  const rs = new Array(n), ss = new Array(n), parity = new Array(n), hs = new Array(n);
  for (let i = 0; i < n; i++) {
    const sig = sigs[i];
    rs[i] = BigInt('0x' + sig.slice(2, 66));
    ss[i] = BigInt('0x' + sig.slice(66, 130));
    const v = parseInt(sig.slice(130, 132), 16);
    parity[i] = (v < 27 ? v + 27 : v) - 27;
    hs[i] = BigInt(digests[i]) % N;
  }
  const sInv = invertAll(ss, N);
  const xs = new Array(n), ys = new Array(n), zs = new Array(n), infinite = new Array(n);
  for (let i = 0; i < n; i++) {
    inf = true;
    addMul(base, (hs[i] * sInv[i]) % N);
    addMul(t, (rs[i] * sInv[i]) % N);
    infinite[i] = inf;
    xs[i] = X; ys[i] = Y; zs[i] = inf ? 1n : Z;
  }
  const zInv = invertAll(zs, P);
  const ok = new Array(n);
  for (let i = 0; i < n; i++) {
    if (infinite[i]) { ok[i] = false; continue; }
    const zi2 = mul(zInv[i], zInv[i]);
    ok[i] = mul(xs[i], zi2) === rs[i] && Number(mul(ys[i], mul(zi2, zInv[i])) & 1n) === parity[i];
  }
  return ok;
}

parentPort.on('message', (msg) => {
  const { id, pub, digests, sigs } = msg;
  try {
    if (base === null) base = buildTable(Point.BASE);
    parentPort.postMessage({ id, ok: verifyAll(digests, sigs, tableOf(pub)) });
  } catch (err) {
    parentPort.postMessage({ id, error: (err && err.message) ? String(err.message).slice(0, 300) : 'verification failed' });
  }
});
`;
