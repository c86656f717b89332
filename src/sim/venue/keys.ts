// The simulator's API-key store (docs/protocol.md §2): credentials issued by L1 creation or derivation,
// looked up by L2 verification. Invariants kept here:
// - credentials are a pure function of (server secret, address, nonce) through
//   deriveApiCredentials, so "create" and "derive" of the same wallet and nonce always answer the
//   same triple, across restarts with the same secret;
// - a key is known (usable for L2) only once it was issued by this store;
// - the store never prints secrets: the credentials objects redact themselves.
import { checksumAddress, type ApiCredentials } from '../../exchange/auth/credentials.js';
import type { KnownApiKey } from '../../exchange/auth/l2.js';
import { deriveApiCredentials } from '../../exchange/auth/l1.js';
import { OptionError } from '../../core/errors.js';

export class ApiKeyStore {
  private readonly byKey = new Map<string, KnownApiKey>();

  /** `onIssue` learns every wallet a key is issued to (the venue tracks their portfolio). */
  constructor(
    private readonly serverSecret: string,
    private readonly onIssue: (address: string) => void = () => undefined,
  ) {
    if (serverSecret.length === 0) throw new OptionError('SIM_OPTION', 'the server secret must not be empty');
  }

  /** Issues (or re-issues: same inputs, same credentials) the key of `address` for `nonce`. */
  issue(address: string, nonce: string | number | bigint = 0): ApiCredentials {
    const credentials = deriveApiCredentials(this.serverSecret, address, nonce);
    const checksummed = checksumAddress(address);
    this.byKey.set(credentials.apiKey, { credentials, address: checksummed });
    this.onIssue(checksummed);
    return credentials;
  }

  lookup(apiKey: string): KnownApiKey | undefined {
    return this.byKey.get(apiKey);
  }

  get size(): number {
    return this.byKey.size;
  }
}
