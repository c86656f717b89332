// Query tables and parameter objects of the account-lifecycle reads the interface does not list
// (GET /data/orders, GET /data/trades, GET /balance-allowance), with the public exchange's names
// and value sets; the validator is spec.ts's, so every check happens before anything is sent.
// Invariants: names are the wire's (as the official clients send them); `next_cursor` is not a
// parameter here, the client adds it (first page `MA==`, as the official clients send it).
//
// Sources: clob-client-v2 src/types/clob.ts @ f3e1a05 (OpenOrderParams, TradeParams,
// BalanceAllowanceParams; getBalanceAllowance adds `signature_type`), py-clob-client-v2
// py_clob_client_v2/client.py @ b0a97fa (get_open_orders, get_trades, get_balance_allowance).
import { ClientValidationError } from '../errors.js';
import { ADDRESS, type ParamTable } from './spec.js';

export const ASSET_TYPE_VALUES = ['COLLATERAL', 'CONDITIONAL'] as const;

/** GET /data/orders filters. */
export interface OpenOrdersParams {
  /** An order id. */
  id?: string;
  /** A condition id. */
  market?: string;
  /** A token id. */
  asset_id?: string;
}

export const OPEN_ORDERS: ParamTable = {
  route: 'GET /data/orders',
  params: [
    { name: 'id', kind: 'string' },
    { name: 'market', kind: 'string' },
    { name: 'asset_id', kind: 'string' },
  ],
};

/** GET /data/trades filters; `before`/`after` are Unix seconds. */
export interface AccountTradesParams {
  id?: string;
  maker_address?: string;
  market?: string;
  asset_id?: string;
  before?: number;
  after?: number;
}

export const ACCOUNT_TRADES: ParamTable = {
  route: 'GET /data/trades',
  params: [
    { name: 'id', kind: 'string' },
    { name: 'maker_address', kind: 'string', format: ADDRESS },
    { name: 'market', kind: 'string' },
    { name: 'asset_id', kind: 'string' },
    { name: 'before', kind: 'integer', min: 0 },
    { name: 'after', kind: 'integer', min: 0 },
  ],
  check: (v) => {
    const before = v.get('before');
    const after = v.get('after');
    if (typeof before === 'number' && typeof after === 'number' && after >= before) {
      throw new ClientValidationError('after', after, `must be < before (${before})`);
    }
  },
};

/** GET /balance-allowance: `token_id` is required for CONDITIONAL (the token asked about). */
export interface BalanceAllowanceParams {
  asset_type: (typeof ASSET_TYPE_VALUES)[number];
  token_id?: string;
  /** 0 EOA, 1 proxy, 2 safe (docs/protocol.md §3); the official clients always send their own. */
  signature_type?: 0 | 1 | 2 | 3;
}

export const BALANCE_ALLOWANCE: ParamTable = {
  route: 'GET /balance-allowance',
  params: [
    { name: 'asset_type', kind: 'enum', values: ASSET_TYPE_VALUES, required: true },
    { name: 'token_id', kind: 'string' },
    { name: 'signature_type', kind: 'integer', min: 0, max: 2 },
  ],
  check: (v) => {
    if (v.get('asset_type') === 'CONDITIONAL' && v.get('token_id') === undefined) {
      throw new ClientValidationError('token_id', undefined, 'required when asset_type is CONDITIONAL');
    }
  },
};
