// While the draft is being saved: a bar and "42,000 of 100,000 rows saved", as the engine reports it.
import { fillStyle } from '../../lib/progress-bar.ts';
import { useWizard } from '../../stores/hooks.ts';
import { saveProgressScale, saveProgressText } from './save-progress.ts';

export function SaveProgress() {
  const creating = useWizard((s) => s.creating);
  const progress = useWizard((s) => s.createProgress);
  const text = saveProgressText(progress);
  if (!creating || !progress || text === null) return null;
  const storing = progress.phase === 'storing' && progress.total !== null;
  return (
    <div className="save-progress" data-testid="create-progress" data-phase={progress.phase}>
      <div
        className="progress"
        role="progressbar"
        aria-label="Saving the draft"
        aria-valuemin={0}
        aria-valuemax={storing ? (progress.total ?? 0) : 0}
        {...(storing ? { 'aria-valuenow': progress.stored } : {})}
        aria-valuetext={text}
      >
        <div className="progress-delivered" style={fillStyle(saveProgressScale(progress))} />
      </div>
      <p className="small muted" role="status" data-testid="create-progress-text">
        {text}
      </p>
    </div>
  );
}
