// Repeated recipients, decided on purpose before the draft is made: a row whose address repeats an
// earlier line of the file, or whose recipient already has a gift from this environment, is stored
// skipped unless the person checks its box here. The hints count the rows each choice affects.
import type { RepeatChoices as Choices } from '../../../../shared/domain/skips.ts';
import { useStores, useWizard } from '../../stores/hooks.ts';
import type { Preview } from '../../stores/wizard-store.ts';

const rowsText = (n: number): string => `${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'}`;

export function RepeatChoices({ totals, disabled }: { totals: Preview['totals']; disabled: boolean }) {
  const stores = useStores();
  const repeats = useWizard((s) => s.repeats);
  const choose = (kind: keyof Choices, send: boolean): void => stores.wizard.getState().setRepeats(kind, send ? 'send' : 'skip');
  const repeated = totals.duplicateEmails;
  const known = totals.knownEmails;
  return (
    <fieldset className="repeat-choices" data-testid="repeat-choices">
      <legend>Repeated recipients</legend>
      <label className="check">
        <input
          type="checkbox"
          checked={repeats.inCampaign === 'send'}
          disabled={disabled}
          onChange={(e) => choose('inCampaign', e.target.checked)}
          aria-describedby="repeat-in-campaign-hint"
          data-testid="repeats-in-campaign"
        />
        Send one gift per row, even to addresses that repeat in this file
      </label>
      <p id="repeat-in-campaign-hint" className="muted small" data-testid="repeats-in-campaign-hint">
        {repeated === 0
          ? 'No address repeats an earlier line of this file.'
          : `${rowsText(repeated)} ${repeated === 1 ? 'repeats an address' : 'repeat an address'} of an earlier line: ${
              repeats.inCampaign === 'send' ? 'each gets its own gift' : 'skipped, one gift per person'
            }.`}
      </p>
      <label className="check">
        <input
          type="checkbox"
          checked={repeats.earlier === 'send'}
          disabled={disabled}
          onChange={(e) => choose('earlier', e.target.checked)}
          aria-describedby="repeat-earlier-hint"
          data-testid="repeats-earlier"
        />
        Also send to people who already have a gift from this environment
      </label>
      <p id="repeat-earlier-hint" className="muted small" data-testid="repeats-earlier-hint">
        {known === 0
          ? 'No one in this file has a gift from an earlier campaign here.'
          : `${rowsText(known)} ${known === 1 ? 'is for someone who has' : 'are for people who have'} a gift from an earlier campaign: ${
              repeats.earlier === 'send' ? 'kept in the draft; the confirmation asks again before a second gift is sent' : 'skipped and listed in the draft'
            }.`}
      </p>
    </fieldset>
  );
}
