// The auth module's public surface: credentials from the environment (redacted when printed),
// the wallet from a key or keystore, L2 request signing and its check, L1 ClobAuth headers, their
// recovery and the simulator's deterministic key derivation.
export {
  addressFromEnv, checksumAddress, credentialsFromEnv, decodeSecret, loadWallet, makeCredentials, parsePrivateKey,
  ENV_ADDRESS, ENV_API_KEY, ENV_API_PASSPHRASE, ENV_API_SECRET, ENV_KEYSTORE, ENV_KEYSTORE_PASSWORD, ENV_PRIVATE_KEY,
  type ApiCredentials, type Env, type LoadWalletOptions,
} from './credentials.js';
export { AuthError, CredentialsError } from './errors.js';
export {
  buildL2Headers, headerValue, hmacSignature, l2HeaderNames, l2SigningString, verifyL2Headers,
  type IncomingHeaders, type KnownApiKey, type L2HeaderInput, type L2VerifyInput, type L2VerifyResult, type SignatureEncoding,
} from './l2.js';
export {
  buildL1Headers, CLOB_AUTH_MESSAGE, CLOB_AUTH_TYPES, clobAuthDomain, deriveApiCredentials, l1HeaderNames, recoverL1Address,
  type L1HeaderInput, type L1RecoverOptions, type L1RecoverResult, type L1Signer,
} from './l1.js';
