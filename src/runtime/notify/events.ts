// The events a webhook is told of, as plain data, and each one's one-line text for people (the
// chat formats send the text; the json format sends the event itself). Amounts are exact decimal
// strings (formatMicros upstream), times ISO-8601. Pure; no I/O.
import type { NOTIFY_EVENTS } from '../../config/schema.js';

export type NotifyEventKind = (typeof NOTIFY_EVENTS)[number];

export interface FillsByMarket {
  readonly market: string;
  readonly fills: number;
  /** Shares bought and sold, decimal strings. */
  readonly bought: string;
  readonly sold: string;
}

export type NotifyEvent =
  | { readonly kind: 'kill-switch-tripped'; readonly at: string; readonly reason: string | null }
  | { readonly kind: 'kill-switch-cleared'; readonly at: string }
  | { readonly kind: 'circuit-opened'; readonly at: string; readonly breaker: 'order entry' | 'market data' }
  | { readonly kind: 'circuit-closed'; readonly at: string; readonly breaker: 'order entry' | 'market data' }
  | {
      readonly kind: 'fills-summary';
      readonly at: string;
      readonly fromAt: string;
      readonly fills: number;
      /** Σ price × size of the fills, collateral. */
      readonly notional: string;
      readonly fees: string;
      readonly markets: readonly FillsByMarket[];
    }
  | { readonly kind: 'daemon-started'; readonly at: string; readonly mode: string; readonly strategy: string }
  | { readonly kind: 'daemon-stopped'; readonly at: string; readonly mode: string };

/** Most markets named in a summary's text (the json format has them all). */
const TEXT_MARKETS = 5;

export function eventText(e: NotifyEvent, daemon: string): string {
  const p = `[${daemon}]`;
  switch (e.kind) {
    case 'kill-switch-tripped':
      return `${p} KILL SWITCH TRIPPED${e.reason === null ? '' : `: ${e.reason}`}. Every quote is pulled; clear it with \`oddsmaker action clear\`.`;
    case 'kill-switch-cleared':
      return `${p} kill switch cleared: quoting may resume.`;
    case 'circuit-opened':
      return `${p} ${e.breaker} circuit breaker OPEN: quoting stopped until the exchange answers again.`;
    case 'circuit-closed':
      return `${p} ${e.breaker} circuit breaker closed: quoting resumes.`;
    case 'daemon-started':
      return `${p} started (${e.mode}, strategy ${e.strategy}).`;
    case 'daemon-stopped':
      return `${p} stopped (${e.mode}).`;
    case 'fills-summary': {
      const lines = e.markets
        .slice(0, TEXT_MARKETS)
        .map((m) => `• ${m.market}: ${m.fills} fill${m.fills === 1 ? '' : 's'}, bought ${m.bought}, sold ${m.sold}`);
      const more = e.markets.length > TEXT_MARKETS ? [`• … and ${e.markets.length - TEXT_MARKETS} more markets`] : [];
      return [
        `${p} ${e.fills} fill${e.fills === 1 ? '' : 's'} since ${e.fromAt}: notional ${e.notional}, fees ${e.fees}`,
        ...lines,
        ...more,
      ].join('\n');
    }
  }
}
