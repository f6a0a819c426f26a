// Asks which currency a product's amounts are in, where the service's record does not say: the
// country's own and the common ones to pick, any other three-letter code to type. Nothing is taken
// until the organiser presses "Use"; the first order then confirms it.
import { useId, useState } from 'react';
import { currencyChoices, currencyCode } from '../../lib/products.ts';

const OTHER = 'other';

export function CurrencyChooser({
  country,
  current,
  question,
  busy,
  onChoose,
  onCancel,
}: {
  country: string;
  /** The currency in use now, preselected when the organiser changes it. */
  current?: string | null;
  /** The question, shown as the chooser's label. */
  question: string;
  busy: boolean;
  onChoose: (code: string) => void;
  onCancel?: () => void;
}) {
  const id = useId();
  const choices = currencyChoices(country);
  const [choice, setChoice] = useState<string>(current ? (choices.includes(current) ? current : OTHER) : '');
  const [typed, setTyped] = useState(current && !choices.includes(current) ? current : '');
  const code = choice === OTHER ? currencyCode(typed) : choice === '' ? null : choice;
  const typedInvalid = choice === OTHER && typed.trim().length >= 3 && code === null;

  return (
    <form
      className="currency-chooser"
      data-testid="currency-chooser"
      onSubmit={(e) => {
        e.preventDefault();
        if (code) onChoose(code);
      }}
    >
      <label htmlFor={`${id}-select`} className="currency-question">
        {question}
      </label>
      <div className="currency-controls">
        <select id={`${id}-select`} value={choice} onChange={(e) => setChoice(e.target.value)} data-testid="currency-select">
          <option value="">Choose…</option>
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
          <option value={OTHER}>Another currency…</option>
        </select>
        {choice === OTHER && (
          <input
            value={typed}
            onChange={(e) => setTyped(e.target.value.toUpperCase())}
            maxLength={3}
            placeholder="e.g. CAD"
            aria-label="Currency code, three letters"
            aria-invalid={typedInvalid}
            className="input-code"
            autoComplete="off"
            spellCheck={false}
            data-testid="currency-other"
          />
        )}
        <button type="submit" className="button-small button-primary" disabled={!code || busy} data-testid="currency-use">
          {busy ? 'Reading…' : code ? `Use ${code}` : 'Use'}
        </button>
        {onCancel && (
          <button type="button" className="button-small button-quiet" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {typedInvalid && <span className="cell-error">A currency code is three letters, such as CAD.</span>}
    </form>
  );
}
