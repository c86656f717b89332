// Parameter tables as data, and the one validator that turns a params object into checked
// values, a query string or a JSON body. Invariants kept here:
// - nothing is sent unless every parameter passed: a wrong type, a value out of bounds, an
//   unknown name, a missing required parameter or a too-long string throws ClientValidationError
//   naming the parameter and the value;
// - defaults of the table are applied and sent explicitly, so the request says what it asks for;
// - `undefined` means absent; arrays are comma-joined (items must not be empty or hold a comma);
// - numbers are printed without an exponent; the output order is the table's order.
import { ClientValidationError } from '../errors.js';

interface Base {
  name: string;
  required?: boolean;
}

export interface StringParam extends Base {
  kind: 'string';
  maxLength?: number;
  /** A format the value must match, with a human name for messages. */
  format?: { re: RegExp; what: string };
  default?: string;
}
export interface IntegerParam extends Base {
  kind: 'integer';
  min?: number;
  max?: number;
  default?: number;
}
export interface NumberParam extends Base {
  kind: 'number';
  min?: number;
  max?: number;
  default?: number;
}
export interface BooleanParam extends Base {
  kind: 'boolean';
  default?: boolean;
}
export interface EnumParam extends Base {
  kind: 'enum';
  values: readonly string[];
  default?: string;
}
export interface ListParam extends Base {
  kind: 'list';
  minItems?: number;
  maxItems?: number;
  item?: { re: RegExp; what: string };
}

export type ParamSpec = StringParam | IntegerParam | NumberParam | BooleanParam | EnumParam | ListParam;

export type ParamValue = string | number | boolean | readonly string[];

export interface ParamTable {
  /** Route key the table belongs to, for messages (`GET /positions`). */
  route: string;
  params: readonly ParamSpec[];
  /** Checks across parameters, run on the normalized values (defaults applied). */
  check?: (values: ReadonlyMap<string, ParamValue>) => void;
}

export const ADDRESS = { re: /^0x[0-9a-fA-F]{40}$/, what: 'a 0x-prefixed 20-byte hex address' } as const;

/** Validates `input` against `table`, applies defaults; returns name → value in table order. */
export function normalizeParams(table: ParamTable, input: object): Map<string, ParamValue> {
  const known = new Set(table.params.map((p) => p.name));
  for (const [k, v] of Object.entries(input)) {
    if (v !== undefined && !known.has(k)) throw new ClientValidationError(k, v, `unknown parameter for ${table.route}`);
  }
  const rec = input as Record<string, unknown>;
  const out = new Map<string, ParamValue>();
  for (const spec of table.params) {
    const raw = rec[spec.name];
    const value = raw === undefined ? ('default' in spec ? spec.default : undefined) : raw;
    if (value === undefined) {
      if (spec.required === true) throw new ClientValidationError(spec.name, raw, `required by ${table.route}`);
      continue;
    }
    out.set(spec.name, checkOne(spec, value));
  }
  table.check?.(out);
  return out;
}

/** Validates and encodes as a query string without the leading `?` ('' when empty). */
export function encodeQuery(table: ParamTable, input: object): string {
  const parts: string[] = [];
  for (const [name, value] of normalizeParams(table, input)) {
    parts.push(`${encodeURIComponent(name)}=${encodeValue(value)}`);
  }
  return parts.join('&');
}

function encodeValue(v: ParamValue): string {
  if (typeof v === 'string') return encodeURIComponent(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return plainNumber(v);
  return v.map((s) => encodeURIComponent(s)).join(',');
}

/** A finite number as plain decimal text (never an exponent). */
export function plainNumber(n: number): string {
  if (Number.isInteger(n)) return BigInt(n).toString();
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

function checkOne(spec: ParamSpec, v: unknown): ParamValue {
  const bad = (problem: string): never => {
    throw new ClientValidationError(spec.name, v, problem);
  };
  switch (spec.kind) {
    case 'string': {
      if (typeof v !== 'string') return bad('must be a string');
      if (v === '') return bad('must not be empty');
      if (spec.maxLength !== undefined && v.length > spec.maxLength)
        return bad(`length ${v.length} exceeds ${spec.maxLength}`);
      if (spec.format !== undefined && !spec.format.re.test(v)) return bad(`must be ${spec.format.what}`);
      return v;
    }
    case 'integer':
    case 'number': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return bad('must be a finite number');
      if (spec.kind === 'integer' && !Number.isSafeInteger(v)) return bad('must be an integer');
      if (spec.min !== undefined && v < spec.min) return bad(`must be >= ${spec.min}`);
      if (spec.max !== undefined && v > spec.max) return bad(`must be <= ${spec.max}`);
      return v;
    }
    case 'boolean':
      if (typeof v !== 'boolean') return bad('must be a boolean');
      return v;
    case 'enum':
      if (typeof v !== 'string' || !spec.values.includes(v)) return bad(`must be one of ${spec.values.join(', ')}`);
      return v;
    case 'list': {
      if (!Array.isArray(v)) return bad('must be an array of strings');
      const items = v as unknown[];
      if (spec.minItems !== undefined && items.length < spec.minItems)
        return bad(`needs at least ${spec.minItems} item(s)`);
      if (spec.maxItems !== undefined && items.length > spec.maxItems) return bad(`at most ${spec.maxItems} items`);
      for (const [i, item] of items.entries()) {
        if (typeof item !== 'string' || item === '' || item.includes(',')) {
          throw new ClientValidationError(`${spec.name}[${i}]`, item, 'must be a non-empty string without a comma');
        }
        if (spec.item !== undefined && !spec.item.re.test(item)) {
          throw new ClientValidationError(`${spec.name}[${i}]`, item, `must be ${spec.item.what}`);
        }
      }
      return items as string[];
    }
  }
}
