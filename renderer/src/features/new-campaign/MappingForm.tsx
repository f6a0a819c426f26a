// Which column holds which field: detected from the headers, correctable here. The fields are the
// engine's own list (MAPPED_FIELDS); this screen only words them.
import { MAPPED_FIELDS, type MappedField } from '../../../../shared/domain/csv/headers.ts';
import type { Preview } from '../../stores/wizard-store.ts';

/** Each field's label, and for an optional field whose use is not obvious, a one-line hint under it. */
const FIELD_TEXT: Readonly<Record<MappedField, { label: string; hint?: string }>> = {
  email: { label: 'E-mail' },
  name: { label: 'Full name' },
  firstName: { label: 'First name' },
  lastName: { label: 'Last name' },
  amount: { label: 'Amount' },
  message: { label: 'Message' },
  product: { label: 'Gift (product)', hint: 'Optional: a product id or its exact name; empty rows get the product chosen on the Gift step.' },
};

export function MappingForm({ preview, onChange, disabled }: { preview: Preview; onChange: (field: MappedField, column: number | null) => void; disabled: boolean }) {
  return (
    <fieldset className="mapping" data-testid="mapping">
      <legend>Columns</legend>
      <p className="muted small">Check that each field reads from the right column. A full name, or a first and a last name, is needed.</p>
      <div className="mapping-grid">
        {MAPPED_FIELDS.map((field) => {
          const value = preview.mapping[field];
          const detected = preview.detectedMapping[field];
          const { label, hint } = FIELD_TEXT[field];
          const hintId = hint ? `map-${field}-hint` : undefined;
          return (
            <div key={field} className={hint ? 'mapping-field mapping-field-wide' : 'mapping-field'}>
              <label htmlFor={`map-${field}`}>{label}</label>
              <select
                id={`map-${field}`}
                value={value ?? -1}
                disabled={disabled}
                aria-describedby={hintId}
                onChange={(e) => {
                  const n = Number(e.target.value);
                  onChange(field, n < 0 ? null : n);
                }}
                data-testid={`map-${field}`}
              >
                <option value={-1}>— not in the file —</option>
                {preview.headers.map((h, i) => (
                  <option key={i} value={i}>
                    {h.trim() === '' ? `Column ${i + 1}` : h}
                    {detected === i ? ' (detected)' : ''}
                  </option>
                ))}
              </select>
              {hint && (
                <span id={hintId} className="muted small" data-testid={`map-${field}-hint`}>
                  {hint}
                </span>
              )}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
