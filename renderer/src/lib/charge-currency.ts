// What the confirmation says about the currency the balance is charged in. The service charges the
// account's currency, converted at its own rate (and fee) as each order's total_price_charged states
// (the service's spec, section 2). The app learns that currency only from orders already charged, so
// it says what earlier orders of this environment were charged in, and otherwise that the charge may
// be in another currency. No rate is guessed and nothing is asked of the service.
import type { CampaignSummary, MoneyDto } from '../../../shared/contract.ts';
import type { Environment } from '../../../shared/domain/campaigns.ts';

/** The currencies earlier orders of this environment were charged in (from the campaigns list), sorted. */
export function chargedCurrencies(campaigns: readonly CampaignSummary[], environment: Environment): string[] {
  const seen = new Set<string>();
  for (const c of campaigns) if (c.environment === environment) for (const m of c.charged) seen.add(m.currency);
  return [...seen].sort();
}

export interface ChargeNote {
  text: string;
  /** The account's currency is known (one currency charged before) and differs from a total's: the total is an estimate. */
  estimate: boolean;
}

/** The words under the total; null when there is nothing to send. */
export function chargeNote(totals: readonly MoneyDto[], charged: readonly string[]): ChargeNote | null {
  const shown = [...new Set(totals.map((m) => m.currency))];
  if (shown.length === 0) return null;
  const account = charged.length === 1 ? charged[0] : undefined;
  const foreign = shown.filter((c) => c !== account);
  if (account !== undefined && foreign.length === 0) {
    return { text: `Your balance is charged in ${account}, as earlier orders here were.`, estimate: false };
  }
  if (account !== undefined) {
    return {
      text:
        `The total is the gifts' face value in ${foreign.join(' and ')}; earlier orders here were charged in ${account}, ` +
        `so expect the charge in ${account}, converted at the service's rate and with its fee. ` +
        'Each row shows what was charged once ordered.',
      estimate: true,
    };
  }
  return {
    text:
      `Your balance is charged in your account's currency: if that is not ${shown.join(' or ')}, the amount is converted ` +
      "at the service's rate and may include its fee. Each row shows what was charged once ordered.",
    estimate: false,
  };
}
