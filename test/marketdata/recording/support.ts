// Test helpers of the recording tests: encode to memory, read back from memory in arbitrary
// slices (so chunk and record boundaries fall anywhere in the stream's pieces).
import { RecordingEncoder, type EncoderOptions } from '../../../src/marketdata/recording/writer.js';
import { encodeHeader } from '../../../src/marketdata/recording/format.js';
import {
  readAll,
  RecordingReader,
  type ReaderOptions,
  type RecordingEvent,
} from '../../../src/marketdata/recording/reader.js';

export interface Memory {
  enc: RecordingEncoder;
  /** Header + every sealed chunk so far, plus each chunk's end offset. */
  bytes(): Buffer;
  chunkEnds: number[];
}

export function memoryEncoder(opts: EncoderOptions = {}): Memory {
  const parts: Buffer[] = [encodeHeader(opts.codec ?? 'deflate-raw')];
  const chunkEnds: number[] = [];
  let total = parts[0]!.length;
  const enc = new RecordingEncoder((c) => {
    parts.push(Buffer.from(c));
    total += c.length;
    chunkEnds.push(total);
  }, opts);
  return { enc, chunkEnds, bytes: () => Buffer.concat(parts) };
}

/** A source that hands `buf` over in pieces of the given sizes (cycled), as a stream would. */
export function sliced(buf: Buffer, sizes: readonly number[] = [65536]): () => AsyncIterable<Uint8Array> {
  return async function* () {
    let at = 0;
    let i = 0;
    while (at < buf.length) {
      const n = Math.max(1, sizes[i++ % sizes.length] ?? 1);
      yield buf.subarray(at, at + n);
      at += n;
    }
  };
}

export function readerOf(buf: Buffer, sizes?: readonly number[], opts: ReaderOptions = {}): RecordingReader {
  return new RecordingReader(sliced(buf, sizes), opts);
}

export async function readBuffer(
  buf: Buffer,
  sizes?: readonly number[],
): Promise<{ events: RecordingEvent[]; reader: RecordingReader }> {
  const reader = readerOf(buf, sizes);
  const events = await readAll(reader);
  return { events, reader };
}

/** An event as plain data (books materialised where the event has one), for deep equality. */
export interface Plain {
  kind: string;
  tokenId: string;
  exchangeTs: number;
  localTs: number;
  detail: unknown;
}

export async function plainEvents(reader: RecordingReader): Promise<Plain[]> {
  const out: Plain[] = [];
  for await (const e of reader) {
    const base = { kind: e.kind, tokenId: e.tokenId, exchangeTs: e.exchangeTs, localTs: e.localTs };
    if (e.kind === 'settings') out.push({ ...base, detail: e.settings });
    else if (e.kind === 'mid') out.push({ ...base, detail: e.mid });
    else if (e.kind === 'delta') out.push({ ...base, detail: { changes: e.changes, book: e.book() } });
    else if (e.kind === 'trade') out.push({ ...base, detail: { price: e.price, size: e.size, side: e.side } });
    else if (e.kind === 'resolved') out.push({ ...base, detail: { conditionId: e.conditionId } });
    else out.push({ ...base, detail: { hash: e.hash, book: e.book() } });
  }
  return out;
}
