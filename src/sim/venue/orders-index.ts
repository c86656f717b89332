// What the venue remembers about orders placed through it (HTTP users), beyond the engine's own
// record: the maker address and the API key of the submission (the order record's `makerAddress`
// and `owner`), and each owner's orders in placement order, for GET /_sim/orders. Invariants:
// - an id is added once (the engine refuses duplicates before the venue records anything);
// - owners are engine account ids (lower-case wallet addresses for HTTP users).
export interface OrderMeta {
  /** Checksummed maker address of the signed order. */
  readonly maker: string;
  /** The submission's `owner`: the API key it was placed under. */
  readonly apiKey: string;
  /** Engine account id. */
  readonly owner: string;
}

export class OrderIndex {
  private readonly meta = new Map<string, OrderMeta>();
  private readonly byOwner = new Map<string, string[]>();

  add(id: string, meta: OrderMeta): void {
    if (this.meta.has(id)) return;
    this.meta.set(id, meta);
    const list = this.byOwner.get(meta.owner);
    if (list === undefined) this.byOwner.set(meta.owner, [id]);
    else list.push(id);
  }

  get(id: string): OrderMeta | undefined {
    return this.meta.get(id);
  }

  /** Ids placed by an owner through the venue, oldest first. */
  idsOf(owner: string): readonly string[] {
    return this.byOwner.get(owner) ?? [];
  }

  get size(): number {
    return this.meta.size;
  }
}
