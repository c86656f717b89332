// A signature-verification worker thread of the simulator (sig-verify.ts starts this module by URL:
// `./verify-worker.js` beside it, the compiled file in dist/; under vitest the test loader,
// test/support/ts-loader, serves this source). Messages: verify-worker-protocol.ts.
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
// The curve is @noble/curves' secp256k1, the implementation ethers itself uses (pinned by it).
import { parentPort, workerData } from 'node:worker_threads';
import { wNAF } from '@noble/curves/abstract/curve';
import { invert } from '@noble/curves/abstract/modular';
import { secp256k1 } from '@noble/curves/secp256k1';
import { InvariantError } from '../../core/errors.js';
import type { VerifyWorkerData, VerifyWorkerReply, VerifyWorkerRequest } from './verify-worker-protocol.js';

const port = parentPort;
if (port === null) throw new InvariantError('verify-worker runs in a worker thread, started by the signature verifier');
const data = workerData as VerifyWorkerData;

const Point = secp256k1.ProjectivePoint;
type Point = InstanceType<typeof Point>;
const N = secp256k1.CURVE.n;
const P = secp256k1.CURVE.Fp.ORDER;
const W = data.windowBits;
const WINDOWS = Math.ceil(256 / W) + 1;
const WINDOW_SIZE = 2 ** (W - 1);
const MASK = BigInt(2 ** W - 1);
const MAX_NUMBER = 2 ** W;
const SHIFT = BigInt(W);
const MASK256 = (1n << 256n) - 1n;
const FOLD = 0x1000003d1n; // 2^256 mod p

// Field arithmetic mod p on reduced operands (0 <= a, b < p).
function mul(a: bigint, b: bigint): bigint {
  let x = a * b;
  x = (x & MASK256) + (x >> 256n) * FOLD;
  x = (x & MASK256) + (x >> 256n) * FOLD;
  return x >= P ? x - P : x;
}
function add(a: bigint, b: bigint): bigint {
  const s = a + b;
  return s >= P ? s - P : s;
}
function sub(a: bigint, b: bigint): bigint {
  const d = a - b;
  return d < 0n ? d + P : d;
}

/** The affine coordinates of a point's window table. */
interface Table {
  readonly xs: bigint[];
  readonly ys: bigint[];
}

function buildTable(point: Point): Table {
  const raw = wNAF(Point, 256).precomputeWindow(point, W) as Point[];
  const xs: bigint[] = [];
  const ys: bigint[] = [];
  for (const q of Point.normalizeZ(raw)) {
    const a = q.toAffine();
    xs.push(a.x);
    ys.push(a.y);
  }
  return { xs, ys };
}

let base: Table | null = null;
const tables = new Map<string, Table>();

function tableOf(pub: string): Table {
  let t = tables.get(pub);
  if (t !== undefined) {
    tables.delete(pub);
    tables.set(pub, t);
    return t;
  }
  t = buildTable(Point.fromHex(pub));
  tables.set(pub, t);
  if (tables.size > data.maxKeys) tables.delete(tables.keys().next().value as string);
  return t;
}

// Jacobian accumulator (x = X/Z², y = Y/Z³).
let X = 0n,
  Y = 0n,
  Z = 0n,
  inf = true;

function dbl(): void {
  if (Y === 0n) {
    inf = true;
    return;
  }
  const a = mul(X, X),
    b = mul(Y, Y),
    c = mul(b, b);
  const xb = add(X, b);
  let d = sub(mul(xb, xb), add(a, c));
  d = add(d, d);
  const e = add(add(a, a), a);
  const x3 = sub(mul(e, e), add(d, d));
  let c8 = add(c, c);
  c8 = add(c8, c8);
  c8 = add(c8, c8);
  const y3 = sub(mul(e, sub(d, x3)), c8);
  const yz = mul(Y, Z);
  Z = add(yz, yz);
  X = x3;
  Y = y3;
}

function addAffine(x2: bigint, y2: bigint): void {
  if (inf) {
    X = x2;
    Y = y2;
    Z = 1n;
    inf = false;
    return;
  }
  const z1z1 = mul(Z, Z);
  const h = sub(mul(x2, z1z1), X);
  let r = sub(mul(y2, mul(Z, z1z1)), Y);
  r = add(r, r);
  if (h === 0n) {
    if (r === 0n) dbl();
    else inf = true;
    return;
  }
  const hh = mul(h, h);
  let i = add(hh, hh);
  i = add(i, i);
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

function addMul(t: Table, scalar: bigint): void {
  let k = scalar;
  for (let w = 0; w < WINDOWS; w++) {
    let digit = Number(k & MASK);
    k >>= SHIFT;
    if (digit > WINDOW_SIZE) {
      digit -= MAX_NUMBER;
      k += 1n;
    }
    if (digit === 0) continue;
    const idx = w * WINDOW_SIZE + Math.abs(digit) - 1;
    const y = t.ys[idx] as bigint;
    addAffine(t.xs[idx] as bigint, digit < 0 ? P - y : y);
  }
}

// Montgomery's trick: n inverses for one inversion and 3(n − 1) products (all values non-zero).
function invertAll(vals: readonly bigint[], m: bigint): bigint[] {
  const n = vals.length;
  const prefix = new Array<bigint>(n);
  let acc = 1n;
  for (let i = 0; i < n; i++) {
    prefix[i] = acc;
    acc = (acc * (vals[i] as bigint)) % m;
  }
  let inv = invert(acc, m);
  const out = new Array<bigint>(n);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = (inv * (prefix[i] as bigint)) % m;
    inv = (inv * (vals[i] as bigint)) % m;
  }
  return out;
}

function verifyAll(digests: readonly string[], sigs: readonly string[], g: Table, t: Table): boolean[] {
  const n = digests.length;
  const rs = new Array<bigint>(n),
    ss = new Array<bigint>(n),
    parity = new Array<number>(n),
    hs = new Array<bigint>(n);
  for (let i = 0; i < n; i++) {
    const sig = sigs[i] as string;
    rs[i] = BigInt('0x' + sig.slice(2, 66));
    ss[i] = BigInt('0x' + sig.slice(66, 130));
    const v = parseInt(sig.slice(130, 132), 16);
    parity[i] = (v < 27 ? v + 27 : v) - 27;
    hs[i] = BigInt(digests[i] as string) % N;
  }
  const sInv = invertAll(ss, N);
  const xs = new Array<bigint>(n),
    ys = new Array<bigint>(n),
    zs = new Array<bigint>(n),
    infinite = new Array<boolean>(n);
  for (let i = 0; i < n; i++) {
    inf = true;
    addMul(g, ((hs[i] as bigint) * (sInv[i] as bigint)) % N);
    addMul(t, ((rs[i] as bigint) * (sInv[i] as bigint)) % N);
    infinite[i] = inf;
    xs[i] = X;
    ys[i] = Y;
    zs[i] = inf ? 1n : Z;
  }
  const zInv = invertAll(zs, P);
  const ok = new Array<boolean>(n);
  for (let i = 0; i < n; i++) {
    if (infinite[i] === true) {
      ok[i] = false;
      continue;
    }
    const zi = zInv[i] as bigint;
    const zi2 = mul(zi, zi);
    ok[i] = mul(xs[i] as bigint, zi2) === rs[i] && Number(mul(ys[i] as bigint, mul(zi2, zi)) & 1n) === parity[i];
  }
  return ok;
}

function answer({ id, pub, digests, sigs }: VerifyWorkerRequest): VerifyWorkerReply {
  try {
    base ??= buildTable(Point.BASE);
    return { id, ok: verifyAll(digests, sigs, base, tableOf(pub)) };
  } catch (err) {
    return { id, error: err instanceof Error ? err.message.slice(0, 300) : 'verification failed' };
  }
}

port.on('message', (msg: VerifyWorkerRequest) => {
  port.postMessage(answer(msg));
});
