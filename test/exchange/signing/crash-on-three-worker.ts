// A signing worker for pool.test.ts that signs as the real one does but exits (code 7) instead of
// answering a chunk of exactly 3 orders: the pool must fail that chunk only and replace the
// worker. The real worker (imported first) sends its replies through parentPort.postMessage at
// answer time; this wraps that method.
import { parentPort } from 'node:worker_threads';
import '../../../src/exchange/signing/sign-worker.js';
import type { SignWorkerReply } from '../../../src/exchange/signing/sign-worker-protocol.js';

const port = parentPort;
if (port !== null) {
  const post = port.postMessage.bind(port);
  port.postMessage = (reply: SignWorkerReply): void => {
    if ('ids' in reply && reply.ids.length === 3) process.exit(7);
    post(reply);
  };
}
