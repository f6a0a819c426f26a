// giftbatch follow-up: a new draft campaign from an earlier one's rows that did not end with a gift
// the recipient can take (failed, cancelled, acceptance link expired), each a new gift under a new
// key; it is sent like any campaign (giftbatch resume NEW_ID), after its pre-flight and a confirmation.
import { FOLLOW_UP_KINDS, FOLLOW_UP_WORDS, type FollowUpKind } from '../../../shared/domain/follow-up.ts';
import { campaignStatus } from '../status.ts';
import { EXIT, UsageError } from '../exit-codes.ts';
import { commonOf, out, parseCommand, printJson, say, withService } from '../options.ts';
import { statusLine } from './tracking.ts';

const FOLLOW_UP_HELP = `Usage: giftbatch follow-up CAMPAIGN_ID [--failed] [--cancelled] [--expired] [--name NAME] [--json]
Makes a new draft campaign with the campaign's rows
${FOLLOW_UP_KINDS.map((k) => `  ${`--${k}`.padEnd(13)}${FOLLOW_UP_WORDS[k]}`).join('\n')}
(all of them when none is named), each with its data and a NEW key: it is a new gift. Cancelled and
expired rows had orders (charged unless the payment expired); their follow-up is paid again.
Nothing is sent: send it with \`giftbatch resume NEW_ID\`.`;

export async function followUpCommand(argv: string[]): Promise<number> {
  const flags = Object.fromEntries(FOLLOW_UP_KINDS.map((k) => [k, { type: 'boolean' as const }])) as Record<FollowUpKind, { type: 'boolean' }>;
  const parsed = parseCommand(argv, { ...flags, name: { type: 'string' } }, FOLLOW_UP_HELP);
  if (!parsed) return EXIT.ok;
  const common = commonOf(parsed.values);
  const id = parsed.positionals[0];
  if (!id) throw new UsageError(`Name the campaign to follow up.\n\n${FOLLOW_UP_HELP}`);
  const named = FOLLOW_UP_KINDS.filter((k) => parsed.values[k] === true);
  const include = named.length > 0 ? named : [...FOLLOW_UP_KINDS];
  return withService(common, {}, async (cli) => {
    const made = await cli.call('campaigns:followUp', { campaignId: id, include, ...(parsed.values.name ? { name: parsed.values.name } : {}) });
    const status = campaignStatus(made);
    if (common.json) printJson({ campaign_id: made.id, follows: id, include, counts: status.counts });
    else {
      out(statusLine(status));
      out(`Campaign id: ${made.id}`);
    }
    if (include.some((k) => k !== 'failed')) say('Cancelled and expired rows had orders: each of their follow-up rows is a new gift, paid again.');
    say(`Nothing was sent. Check it with \`giftbatch status ${made.id}\`, then send it with \`giftbatch resume ${made.id}\`.`);
    return EXIT.ok;
  });
}
