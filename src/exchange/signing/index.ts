// The signing module's public surface: build an order from an intent, hash it (the id), sign it
// in-thread or in the worker pool, and move it to and from the wire.
export type { SignatureType, SignedOrder, UnsignedOrder } from './types.js';
export { ZERO_BYTES32 } from './types.js';
export {
  buildOrder,
  cryptoRandom,
  normaliseSalt,
  randomSalt,
  type BuildOrderOptions,
  type OrderIntent,
} from './order.js';
export {
  domainSeparator,
  encodeOrderStruct,
  orderDigest,
  orderDomain,
  orderStructHash,
  orderTypedMessage,
  ORDER_EIP712_TYPES,
  ORDER_TYPE_HASH,
  ORDER_TYPE_STRING,
} from './eip712.js';
export { OrderSigner } from './signer.js';
export { SigningPool, defaultWorkerCount, type SigningPoolOptions } from './pool.js';
export { SigningError } from './errors.js';
export {
  parseWireOrder,
  recoverOrderSigner,
  recoverSigner,
  toWireSubmission,
  wireOrderId,
  type ParsedWireOrder,
  type WireSubmissionOptions,
} from './wire-order.js';
export {
  accountKindProblem,
  isSignatureType,
  orderParties,
  SIGNATURE_TYPE_NAMES,
  SIGNATURE_TYPES,
  type OrderParties,
} from './account-kind.js';
export {
  DEPOSIT_WALLET_SIGNATURE_BYTES,
  depositWalletDigest,
  depositWalletWrapProblem,
  unwrapDepositWalletSignature,
  wrapDepositWalletSignature,
  type UnwrappedSignature,
} from './deposit-wallet.js';
