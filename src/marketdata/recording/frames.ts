// Splits a recording's byte stream into verified chunks without decompressing them: the header,
// then [length][raw length][CRC][payload] frames. Invariants: a chunk is handed on only when all
// its bytes arrived and its CRC matches; the first incomplete, oversized or CRC-failing frame ends
// the scan, and the TailReport says where the last good byte is (validBytes), so a crash-cut file
// reads up to its last complete chunk and a writer can cut the tail before appending.
import { createReadStream } from 'node:fs';
import {
  CHUNK_HEADER_BYTES,
  chunkCrc,
  decodeHeader,
  HEADER_BYTES,
  MAGIC,
  MAX_CHUNK_BYTES,
  RecordingFormatError,
  type Codec,
} from './format.js';

export interface TailReport {
  /** complete: ended on a chunk boundary; truncated: bytes of an unfinished chunk (or header) at the end; corrupt: a chunk failed its checks. */
  status: 'complete' | 'truncated' | 'corrupt';
  /** null when the file ended inside the header. */
  codec: Codec | null;
  chunks: number;
  /** Bytes up to the end of the last good chunk (the header alone counts as 8). */
  validBytes: number;
  /** Bytes seen in total. */
  fileBytes: number;
  reason: string;
}

export interface Frame {
  readonly rawLength: number;
  readonly payload: Buffer;
  /** File offset of the frame's first byte. */
  readonly offset: number;
}

/**
 * Yields the verified frames of a byte stream; `report` is filled in when the stream ends or a bad
 * frame stops it. Throws RecordingFormatError only when the header says this is not a recording.
 */
export async function* frames(
  source: AsyncIterable<Uint8Array>,
  report: (t: TailReport) => void,
): AsyncGenerator<Frame & { codec: Codec }> {
  let pending: Buffer = Buffer.alloc(0);
  let codec: Codec | null = null;
  let chunks = 0;
  let validBytes = 0;
  let fileBytes = 0;
  for await (const data of source) {
    const buf = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    fileBytes += buf.length;
    pending = pending.length === 0 ? buf : Buffer.concat([pending, buf]);
    if (codec === null) {
      const n = Math.min(pending.length, 4);
      if (!pending.subarray(0, n).equals(MAGIC.subarray(0, n)))
        throw new RecordingFormatError('not an oddsmaker recording (bad magic)');
      if (pending.length < HEADER_BYTES) continue;
      codec = decodeHeader(pending.subarray(0, HEADER_BYTES));
      pending = pending.subarray(HEADER_BYTES);
      validBytes = HEADER_BYTES;
    }
    while (pending.length >= CHUNK_HEADER_BYTES) {
      const len = pending.readUInt32LE(0);
      const rawLength = pending.readUInt32LE(4);
      if (len > MAX_CHUNK_BYTES || rawLength > MAX_CHUNK_BYTES) {
        report({
          status: 'corrupt',
          codec,
          chunks,
          validBytes,
          fileBytes,
          reason: `chunk at byte ${validBytes} declares an impossible length`,
        });
        return;
      }
      if (pending.length < CHUNK_HEADER_BYTES + len) break;
      const payload = pending.subarray(CHUNK_HEADER_BYTES, CHUNK_HEADER_BYTES + len);
      if (chunkCrc(pending.subarray(4, 8), payload) !== pending.readUInt32LE(8)) {
        report({
          status: 'corrupt',
          codec,
          chunks,
          validBytes,
          fileBytes,
          reason: `chunk at byte ${validBytes} fails its CRC`,
        });
        return;
      }
      const offset = validBytes;
      pending = pending.subarray(CHUNK_HEADER_BYTES + len);
      validBytes += CHUNK_HEADER_BYTES + len;
      chunks++;
      yield { rawLength, payload, offset, codec };
    }
  }
  if (codec === null) {
    report({
      status: 'truncated',
      codec,
      chunks,
      validBytes: 0,
      fileBytes,
      reason: fileBytes === 0 ? 'empty file' : 'file ends inside the header',
    });
  } else if (pending.length > 0) {
    report({
      status: 'truncated',
      codec,
      chunks,
      validBytes,
      fileBytes,
      reason: `${pending.length} bytes of an unfinished chunk at byte ${validBytes}`,
    });
  } else {
    report({ status: 'complete', codec, chunks, validBytes, fileBytes, reason: '' });
  }
}

/** Checks a file's framing and CRCs (no decompression) and says where its good part ends. */
export async function scanRecording(path: string): Promise<TailReport> {
  let tail: TailReport | null = null;
  for await (const _ of frames(createReadStream(path), (t) => {
    tail = t;
  })) {
    // Only the report matters here.
  }
  if (tail === null) throw new RecordingFormatError('scan ended without a report');
  return tail;
}
