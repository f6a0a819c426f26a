// New campaign, in three steps: the gift, the recipients, then review and send.
import { useEffect } from 'react';
import { ENVIRONMENT_LABELS } from '../../components/Header.tsx';
import { useEnvironments, useStores, useWizard } from '../../stores/hooks.ts';
import { newCampaignInProgress, type Step } from '../../stores/wizard-store.ts';
import { StartOver } from './DiscardNewCampaign.tsx';
import { ImportStep } from './ImportStep.tsx';
import { ReviewStep } from './ReviewStep.tsx';
import { SetupStep } from './SetupStep.tsx';

const STEPS: ReadonlyArray<{ step: Step; label: string }> = [
  { step: 'setup', label: 'Gift' },
  { step: 'import', label: 'Recipients' },
  { step: 'review', label: 'Review & send' },
];

export function NewCampaignScreen() {
  const stores = useStores();
  const step = useWizard((s) => s.step);
  const draft = useWizard((s) => s.draft);
  const productsStatus = useWizard((s) => s.productsStatus);
  const envStatus = useEnvironments((s) => s.status);
  const currentEnvironment = useEnvironments((s) => s.current);
  const environment = useWizard((s) => s.environment);
  const inProgress = useWizard((s) => newCampaignInProgress(s) !== null);
  // Not while the draft is being saved or sent: its answer would land in the emptied wizard.
  const busy = useWizard((s) => s.creating || s.sending);

  // Arriving here by address (a reload) rather than a button: start a fresh wizard.
  useEffect(() => {
    const w = stores.wizard.getState();
    if (envStatus === 'ready' && w.productsStatus === 'idle' && w.draft === null && w.file === null) {
      void w.start(stores.environments.getState().current);
    }
  }, [stores, envStatus, productsStatus]);

  const index = STEPS.findIndex((s) => s.step === step);
  return (
    <section aria-labelledby="new-title" data-testid="new-campaign" data-step={step}>
      <div className="title-row">
        <h1 id="new-title">{draft ? `Review “${draft.name}”` : 'New campaign'}</h1>
        {inProgress && !busy && <StartOver />}
      </div>
      {inProgress && envStatus === 'ready' && environment !== currentEnvironment && (
        <p className="muted" data-testid="wizard-other-environment">
          This campaign is prepared for {ENVIRONMENT_LABELS[environment]}; {ENVIRONMENT_LABELS[currentEnvironment]} is in use now. Start over to
          prepare one for {ENVIRONMENT_LABELS[currentEnvironment]}.
        </p>
      )}
      <ol className="stepper" aria-label="Steps">
        {STEPS.map((s, i) => (
          <li key={s.step} className={i === index ? 'stepper-current' : i < index ? 'stepper-done' : undefined} aria-current={i === index ? 'step' : undefined}>
            <span className="stepper-num" aria-hidden="true">
              {i + 1}
            </span>
            {s.label}
          </li>
        ))}
      </ol>
      {step === 'setup' && <SetupStep />}
      {step === 'import' && <ImportStep />}
      {step === 'review' && <ReviewStep />}
    </section>
  );
}
