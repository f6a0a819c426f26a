// Why a row was left out of its campaign, in words, defined once: the delivery report's last_error
// (and any screen that says why a row was not sent) takes the wording from here. Today only the
// organiser skips a row (rows:skip); a policy that leaves rows out on its own (say, repeated
// recipients) passes its own cause and is named in the same sentence shape.
export type SkipCause = { readonly by: 'organiser' } | { readonly by: 'policy'; readonly policy: string };

export const SKIPPED_BY_ORGANISER: SkipCause = { by: 'organiser' };

/** "Skipped by the organiser", or "Skipped by policy: <what the policy says>". */
export function skippedBecause(cause: SkipCause = SKIPPED_BY_ORGANISER): string {
  return cause.by === 'organiser' ? 'Skipped by the organiser' : `Skipped by policy: ${cause.policy}`;
}
