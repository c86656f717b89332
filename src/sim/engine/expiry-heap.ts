// GTD expirations: a binary min-heap of resting orders keyed by expiry time (ties in insertion
// order). Entries are never removed early: a cancelled or filled order stays until it surfaces and
// is then skipped, so cancels cost nothing here. The engine pops everything due at the start of each
// operation, which is why no expired order is ever matched or shown.
import type { OrderNode } from './order.js';

export class ExpiryHeap {
  private readonly nodes: OrderNode[] = [];
  private readonly seqs: number[] = [];
  private seq = 0;

  get size(): number {
    return this.nodes.length;
  }

  /** Expiry time of the earliest entry, or +∞. */
  peekTime(): number {
    const n = this.nodes[0];
    return n === undefined ? Number.POSITIVE_INFINITY : n.expiresAtMs;
  }

  push(o: OrderNode): void {
    const nodes = this.nodes;
    const seqs = this.seqs;
    let i = nodes.length;
    const s = this.seq++;
    nodes.push(o);
    seqs.push(s);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pn = nodes[p] as OrderNode;
      if (pn.expiresAtMs < o.expiresAtMs || (pn.expiresAtMs === o.expiresAtMs && (seqs[p] as number) < s)) break;
      nodes[i] = pn;
      seqs[i] = seqs[p] as number;
      i = p;
    }
    nodes[i] = o;
    seqs[i] = s;
  }

  pop(): OrderNode | undefined {
    const nodes = this.nodes;
    const seqs = this.seqs;
    const top = nodes[0];
    if (top === undefined) return undefined;
    const last = nodes.pop() as OrderNode;
    const lastSeq = seqs.pop() as number;
    const n = nodes.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let c = l;
        if (r < n) {
          const ln = nodes[l] as OrderNode;
          const rn = nodes[r] as OrderNode;
          if (
            rn.expiresAtMs < ln.expiresAtMs ||
            (rn.expiresAtMs === ln.expiresAtMs && (seqs[r] as number) < (seqs[l] as number))
          )
            c = r;
        }
        const cn = nodes[c] as OrderNode;
        const cs = seqs[c] as number;
        if (last.expiresAtMs < cn.expiresAtMs || (last.expiresAtMs === cn.expiresAtMs && lastSeq < cs)) break;
        nodes[i] = cn;
        seqs[i] = cs;
        i = c;
      }
      nodes[i] = last;
      seqs[i] = lastSeq;
    }
    return top;
  }
}
