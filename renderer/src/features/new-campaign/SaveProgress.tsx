// While the draft is being saved: a bar and "42,000 of 100,000 rows saved", as the engine reports it,
// and a Stop button beside it (campaigns:stopCreate). "Stopping…" only while the stop will take; a stop
// too late says the draft is being saved (the button gone), one that missed the save lets Stop be
// pressed again. Once a save was stopped: that nothing was saved.
import { Message } from '../../components/Message.tsx';
import { fillStyle } from '../../lib/progress-bar.ts';
import { useStores, useWizard } from '../../stores/hooks.ts';
import { saveProgressScale, saveProgressText } from './save-progress.ts';

export function SaveProgress() {
  const stores = useStores();
  const creating = useWizard((s) => s.creating);
  const progress = useWizard((s) => s.createProgress);
  const stopping = useWizard((s) => s.createStopping);
  const stopped = useWizard((s) => s.createStopped);
  const late = useWizard((s) => s.createStopLate);
  if (!creating) {
    return stopped ? (
      <Message kind="info" testId="create-stopped">
        {stopped} Your file and choices are as they were: save again when ready.
      </Message>
    ) : null;
  }
  const text = saveProgressText(progress);
  const storing = progress?.phase === 'storing' && progress.total !== null;
  return (
    <div className="save-progress" data-testid="create-progress" {...(progress ? { 'data-phase': progress.phase } : {})}>
      <div className="save-progress-row">
        {progress && text !== null && (
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
        )}
        {late?.canRetry !== false && (
          <button type="button" onClick={() => void stores.wizard.getState().stopCreate()} disabled={stopping} data-testid="create-stop">
            {stopping ? 'Stopping…' : 'Stop saving'}
          </button>
        )}
      </div>
      <p className="small muted" role="status" data-testid="create-progress-text">
        {stopping ? 'Stopping: nothing of this draft will be saved…' : (text ?? '')}
      </p>
      {late && (
        <p className="small" role="status" data-testid="create-stop-late">
          {late.message}
        </p>
      )}
    </div>
  );
}
