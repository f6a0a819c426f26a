// Repeated recipients, decided on purpose before the draft is made: a row whose address repeats an
// earlier line of the file, or whose recipient already has a gift from this environment, is stored
// skipped unless the person checks its box here. Each hint says how many rows ticking its box adds
// to the send, from the preview's per-choice figures (repeat-hints.ts).
import type { RepeatChoices as Choices } from '../../../../shared/domain/skips.ts';
import { useStores, useWizard } from '../../stores/hooks.ts';
import type { Preview } from '../../stores/wizard-store.ts';
import { repeatHint } from './repeat-hints.ts';

export function RepeatChoices({ totals, disabled }: { totals: Preview['totals']; disabled: boolean }) {
  const stores = useStores();
  const repeats = useWizard((s) => s.repeats);
  const choose = (kind: keyof Choices, send: boolean): void => stores.wizard.getState().setRepeats(kind, send ? 'send' : 'skip');
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
        {repeatHint(totals.toSend, repeats, 'inCampaign')}
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
        {repeatHint(totals.toSend, repeats, 'earlier')}
      </p>
    </fieldset>
  );
}
