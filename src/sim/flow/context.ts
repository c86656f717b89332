// What the flow's traders share: the engine and agenda, the id sequence, the registry of the flow's
// resting orders, and the counters. Invariants kept: an order is in the registry exactly while
// the engine holds it LIVE (it enters after an accepted submit that left it resting and leaves on
// the engine's update that ends it), so `remaining` and `live` mirror the engine without polling.
import type { MatchingEngine } from '../engine/engine.js';
import type { EventQueue } from './event-queue.js';
import type { FlowParams } from './params.js';

export type FlowRole = 'lp' | 'noise' | 'informed';

/** Whoever rests an order hears when it fills or goes away. */
export interface OrderHolder {
  /** Filled in part, still resting. */
  onPartial(o: TrackedOrder): void;
  /** No longer resting (filled, cancelled, expired or resolved). */
  onGone(o: TrackedOrder): void;
}

export class TrackedOrder {
  remaining: number;
  live = true;
  constructor(
    readonly id: string,
    readonly holder: OrderHolder,
    /** Side in the market's YES terms: a bid or an ask on the unified book. */
    readonly isBid: boolean,
    readonly yesPrice: number,
    readonly size: number,
    remaining: number,
  ) {
    this.remaining = remaining;
  }
}

export interface RoleCounters {
  submitted: number;
  accepted: number;
  rejected: number;
}

export interface FlowCounters {
  /** Tasks run (requotes, arrivals, looks, rest expiries). */
  events: number;
  submitted: number;
  accepted: number;
  rejected: number;
  rejectedByCode: Record<string, number>;
  byRole: Record<FlowRole, RoleCounters>;
  /** Cancels the flow sent that the engine accepted. */
  canceled: number;
  /** Trades in which a flow order took liquidity / was the resting maker. */
  takerFills: number;
  makerFills: number;
  /** Collateral deposited beyond the initial funding, and complete sets merged back. */
  toppedUp: number;
  merged: number;
}

export function newCounters(): FlowCounters {
  return {
    events: 0,
    submitted: 0,
    accepted: 0,
    rejected: 0,
    rejectedByCode: {},
    byRole: {
      lp: { submitted: 0, accepted: 0, rejected: 0 },
      noise: { submitted: 0, accepted: 0, rejected: 0 },
      informed: { submitted: 0, accepted: 0, rejected: 0 },
    },
    canceled: 0,
    takerFills: 0,
    makerFills: 0,
    toppedUp: 0,
    merged: 0,
  };
}

export interface FlowContext {
  readonly engine: MatchingEngine;
  readonly queue: EventQueue;
  readonly params: FlowParams;
  readonly counters: FlowCounters;
  /** Flow time of the task being run (or of the last tick between ticks). */
  now(): number;
  nextOrderId(): string;
  /** Registers a resting order. */
  track(o: TrackedOrder): void;
}
