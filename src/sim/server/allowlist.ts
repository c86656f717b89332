// The portfolio IP allowlist (`--allow-ip`, interface §5.6 and §7): when a list is configured, GET
// /positions and GET /closed-positions from any other client address answer 401
// `{"error": "unauthorized: ip_not_allowlisted"}` (401 because it is an authorisation failure; see
// errors.ts). Invariants: an empty list allows everyone; IPv4-mapped IPv6 addresses
// (`::ffff:127.0.0.1`) compare as their IPv4 form; entries are validated when configured.
import { isIP } from 'node:net';
import { OptionError } from '../../core/errors.js';

export function normaliseIp(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return (m === null ? ip : (m[1] as string)).toLowerCase();
}

export class IpAllowlist {
  private readonly ips: ReadonlySet<string>;

  constructor(ips: readonly string[]) {
    for (const ip of ips) {
      if (isIP(ip) === 0) throw new OptionError('SIM_OPTION', `--allow-ip: not an IP address: ${JSON.stringify(ip)}`);
    }
    this.ips = new Set(ips.map(normaliseIp));
  }

  get enabled(): boolean {
    return this.ips.size > 0;
  }

  allows(ip: string): boolean {
    return this.ips.size === 0 || this.ips.has(normaliseIp(ip));
  }
}
