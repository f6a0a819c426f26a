import { SKIP_POLICY_LABEL, skipCauseOf, skippedBecause, type SkipPolicy } from '../../../shared/domain/skips.ts';

/** Why the import left a row out (a repeated recipient): a few words, the policy's whole sentence in its title and for screen readers. */
export function SkipReason({ policy }: { policy: SkipPolicy }) {
  const why = skippedBecause(skipCauseOf(policy));
  return (
    <span className="cell-sub skip-reason" title={why} data-testid="skip-reason" data-policy={policy}>
      {SKIP_POLICY_LABEL[policy]}
      <span className="visually-hidden">. {why}.</span>
    </span>
  );
}
