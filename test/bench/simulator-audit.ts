// Reading the standalone simulator's audit over HTTP (GET /__audit), for the request counts.
import { z } from 'zod';

const counts = z.record(z.string(), z.record(z.string(), z.number()));
const auditSchema = z.looseObject({
  accounts: z.record(
    z.string(),
    z.looseObject({ requests: counts, duplicates: z.array(z.string()), orders: z.array(z.looseObject({ id: z.number() })) }),
  ),
});
export type SimulatorAudit = z.output<typeof auditSchema>;

export async function fetchAudit(simUrl: string): Promise<SimulatorAudit> {
  const response = await fetch(`${simUrl}/__audit`);
  if (!response.ok) throw new Error(`GET /__audit answered ${response.status}`);
  return auditSchema.parse(await response.json());
}

/** Requests of one account on one route (all statuses), or with one status. */
export function requestCount(audit: SimulatorAudit, key: string, route: string, status?: string): number {
  const byStatus = audit.accounts[key]?.requests[route] ?? {};
  if (status !== undefined) return byStatus[status] ?? 0;
  return Object.values(byStatus).reduce((a, b) => a + b, 0);
}

/** Every 429 the account was answered, on any route. */
export function tooManyRequests(audit: SimulatorAudit, key: string): number {
  const routes = audit.accounts[key]?.requests ?? {};
  return Object.values(routes).reduce((sum, byStatus) => sum + (byStatus['429'] ?? 0), 0);
}
