// Step 1: the gift (country, product) and the words around it (campaign name, sender, message).
import { COUNTRIES } from '../../../../shared/domain/countries.ts';
import { useStores, useWizard } from '../../stores/hooks.ts';
import { selectedProduct, setupProblems } from '../../stores/wizard-store.ts';
import { ProductPicker } from './ProductPicker.tsx';

export function SetupStep() {
  const stores = useStores();
  const w = stores.wizard.getState();
  const country = useWizard((s) => s.country);
  const name = useWizard((s) => s.name);
  const senderName = useWizard((s) => s.senderName);
  const message = useWizard((s) => s.message);
  const defaultAmount = useWizard((s) => s.defaultAmount);
  const product = useWizard(selectedProduct);
  const problems = useWizard((s) => setupProblems(s).join(' '));

  return (
    <div className="step" data-testid="step-setup">
      <div className="form-grid">
        <label htmlFor="wiz-country">Country of the recipients</label>
        <select id="wiz-country" value={country} onChange={(e) => void w.setCountry(e.target.value)} data-testid="wiz-country">
          {COUNTRIES.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name} ({c.code})
            </option>
          ))}
        </select>
      </div>

      <ProductPicker />

      <div className="form-grid">
        <label htmlFor="wiz-name">Campaign name</label>
        <input id="wiz-name" value={name} onChange={(e) => w.setText('name', e.target.value)} maxLength={200} data-testid="wiz-name" />

        <label htmlFor="wiz-sender">Sender name</label>
        <div>
          <input
            id="wiz-sender"
            value={senderName}
            onChange={(e) => w.setText('senderName', e.target.value)}
            maxLength={200}
            aria-describedby="wiz-sender-help"
            data-testid="wiz-sender"
          />
          <p id="wiz-sender-help" className="muted small">
            Shown to recipients as who the gift is from.
          </p>
        </div>

        <label htmlFor="wiz-message">Message</label>
        <div>
          <textarea
            id="wiz-message"
            rows={3}
            value={message}
            onChange={(e) => w.setText('message', e.target.value)}
            maxLength={1000}
            aria-describedby="wiz-message-help"
          />
          <p id="wiz-message-help" className="muted small">
            Used for rows whose own Message column is empty. Optional. It may use the row's fields: {'{first_name}'}, {'{name}'},{' '}
            {'{amount}'} or any column by its header, such as {'{Team}'}; write {'{{'} for a brace.
          </p>
        </div>

        {product?.price.kind === 'range' && (
          <>
            <label htmlFor="wiz-amount">Default amount ({product.currency})</label>
            <div>
              <input
                id="wiz-amount"
                inputMode="decimal"
                value={defaultAmount}
                onChange={(e) => w.setText('defaultAmount', e.target.value)}
                aria-describedby="wiz-amount-help"
                className="input-narrow"
                data-testid="wiz-amount"
              />
              <p id="wiz-amount-help" className="muted small">
                For rows without an amount. Must be between {product.price.min.amount} and {product.price.max.amount} {product.currency}.
              </p>
            </div>
          </>
        )}
      </div>

      <div className="step-actions">
        {problems && <span className="muted small">{problems}</span>}
        <button type="button" className="button-primary" disabled={problems !== ''} onClick={() => w.goTo('import')} data-testid="wiz-next">
          Next: recipients
        </button>
      </div>
    </div>
  );
}
