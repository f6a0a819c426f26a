// Which column holds which field: detected from the headers, correctable here.
import type { MappingField, Preview } from '../../stores/wizard-store.ts';
import { MAPPING_FIELDS } from '../../stores/wizard-store.ts';

const LABELS: Record<MappingField, string> = {
  email: 'E-mail',
  name: 'Full name',
  firstName: 'First name',
  lastName: 'Last name',
  amount: 'Amount',
  message: 'Message',
};

export function MappingForm({ preview, onChange, disabled }: { preview: Preview; onChange: (field: MappingField, column: number | null) => void; disabled: boolean }) {
  return (
    <fieldset className="mapping" data-testid="mapping">
      <legend>Columns</legend>
      <p className="muted small">Check that each field reads from the right column. A full name, or a first and a last name, is needed.</p>
      <div className="mapping-grid">
        {MAPPING_FIELDS.map((field) => {
          const value = preview.mapping[field];
          const detected = preview.detectedMapping[field];
          return (
            <div key={field} className="mapping-field">
              <label htmlFor={`map-${field}`}>{LABELS[field]}</label>
              <select
                id={`map-${field}`}
                value={value ?? -1}
                disabled={disabled}
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
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
