// Why a row was left out of its campaign, in words, defined once: the delivery report's last_error
// (and any screen that says why a row was not sent) takes the wording from here. The organiser
// skips a row (rows:skip); the import leaves rows out by a policy of its own (repeated recipients,
// SKIP_POLICIES below), named in the same sentence shape.
export type SkipCause = { readonly by: 'organiser' } | { readonly by: 'policy'; readonly policy: string };

export const SKIPPED_BY_ORGANISER: SkipCause = { by: 'organiser' };

/** "Skipped by the organiser", or "Skipped by policy: <what the policy says>". */
export function skippedBecause(cause: SkipCause = SKIPPED_BY_ORGANISER): string {
  return cause.by === 'organiser' ? 'Skipped by the organiser' : `Skipped by policy: ${cause.policy}`;
}

/**
 * The import's own reasons to leave a valid row out unless the organiser chose to send it: its
 * address repeats an earlier line of the same file, or its recipient already has a gift ordered
 * from this environment in an earlier campaign. Both are skipped by default; the organiser chooses
 * "one gift per row, even to repeated addresses" or "send to earlier recipients too" to keep them.
 */
export const SKIP_POLICIES = ['repeat-in-campaign', 'earlier-campaign'] as const;
export type SkipPolicy = (typeof SKIP_POLICIES)[number];

/** What each policy says of a row it skipped. */
export const SKIP_POLICY_TEXT: Readonly<Record<SkipPolicy, string>> = {
  'repeat-in-campaign': 'its address repeats an earlier line of this campaign (one gift per person unless "one gift per row" is chosen)',
  'earlier-campaign': 'its recipient already has a gift ordered from this environment in an earlier campaign',
};

/** The same, in the few words a table's status cell has room for (the whole sentence goes in its title). */
export const SKIP_POLICY_LABEL: Readonly<Record<SkipPolicy, string>> = {
  'repeat-in-campaign': 'Repeated address',
  'earlier-campaign': 'Had a gift before',
};

/** Why a skipped row was skipped: by its policy when it has one, else by the organiser. */
export function skipCauseOf(skippedBy: SkipPolicy | null): SkipCause {
  return skippedBy === null ? SKIPPED_BY_ORGANISER : { by: 'policy', policy: SKIP_POLICY_TEXT[skippedBy] };
}

/** What the organiser chose for repeated recipients at import: 'skip' (the default) or 'send'. */
export interface RepeatChoices {
  readonly inCampaign: 'skip' | 'send';
  readonly earlier: 'skip' | 'send';
}

export const DEFAULT_REPEAT_CHOICES: RepeatChoices = { inCampaign: 'skip', earlier: 'skip' };

/** Every combination of the two choices, the default first. */
export const EVERY_REPEAT_CHOICE: readonly RepeatChoices[] = [
  DEFAULT_REPEAT_CHOICES,
  { inCampaign: 'send', earlier: 'skip' },
  { inCampaign: 'skip', earlier: 'send' },
  { inCampaign: 'send', earlier: 'send' },
];

export const sameRepeatChoices = (a: RepeatChoices, b: RepeatChoices): boolean => a.inCampaign === b.inCampaign && a.earlier === b.earlier;

/** What the import knows of a row's address: the earlier line it repeats (null: none), and whether an earlier campaign had it. */
export interface RepeatFacts {
  readonly repeatOf: number | null;
  readonly earlierRecipient: boolean;
}

/**
 * THE rule: the policy by which the import leaves a valid row out under `choices`, or null when
 * the row is kept to send. A row that repeats an earlier line is 'repeat-in-campaign' unless "one
 * gift per row" is chosen; else one whose recipient had a gift before is 'earlier-campaign' unless
 * "send to earlier recipients too" is. A row that fails validation is never skipped by a policy
 * (it is invalid): callers ask only for valid rows. The importer stores what this says, and the
 * import step's figures (what the draft would send under each choice) count with it.
 */
export function repeatSkipOf(row: RepeatFacts, choices: RepeatChoices): SkipPolicy | null {
  if (row.repeatOf !== null && choices.inCampaign === 'skip') return 'repeat-in-campaign';
  if (row.earlierRecipient && choices.earlier === 'skip') return 'earlier-campaign';
  return null;
}
