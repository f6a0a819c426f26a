// A workbook with several sheets: which one holds the recipients. Each sheet with its filled rows (the
// header and any title included), as native radio buttons in a labelled group, so arrows move between them and the
// choice is announced. Choosing one previews that sheet; it is kept for the draft.
import { sheetFilledRows } from '../../../../shared/domain/sheet-words.ts';
import type { Preview } from '../../stores/wizard-store.ts';

type Sheets = NonNullable<Preview['workbook']>;

export function SheetChooser({ workbook, disabled, onChoose }: { workbook: Sheets; disabled: boolean; onChoose: (sheet: string) => void }) {
  return (
    <fieldset className="sheet-chooser" data-testid="sheet-chooser">
      <legend>Which sheet holds the recipients?</legend>
      {workbook.sheet === null && (
        <p className="muted small" id="sheet-chooser-help">
          This workbook has {workbook.sheets.filter((s) => s.rows > 0).length} sheets with rows. Choose the one with one row per recipient.
        </p>
      )}
      <div className="sheet-list">
        {workbook.sheets.map((s) => (
          <label key={s.name} className="check" data-testid="sheet-option">
            <input
              type="radio"
              name="wiz-sheet"
              value={s.name}
              checked={workbook.sheet === s.name}
              disabled={disabled}
              aria-describedby={workbook.sheet === null ? 'sheet-chooser-help' : undefined}
              onChange={() => onChoose(s.name)}
            />
            <span>
              <strong>{s.name}</strong> <span className="muted">({sheetFilledRows(s.rows)})</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
