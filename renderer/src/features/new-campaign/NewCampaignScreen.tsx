// New campaign, in three steps: the gift, the recipients, then review and send.
import { useEffect } from 'react';
import { useEnvironments, useStores, useWizard } from '../../stores/hooks.ts';
import type { Step } from '../../stores/wizard-store.ts';
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
      <h1 id="new-title">{draft ? `Review “${draft.name}”` : 'New campaign'}</h1>
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
