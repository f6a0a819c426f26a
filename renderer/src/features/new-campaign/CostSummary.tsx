// What sending will cost, per currency, and anything the pre-flight check found in the way.
import { Message } from '../../components/Message.tsx';
import { Totals } from '../../components/Money.tsx';
import { useWizard } from '../../stores/hooks.ts';

export function CostSummary() {
  const preflight = useWizard((s) => s.preflight);
  const status = useWizard((s) => s.preflightStatus);
  const draft = useWizard((s) => s.draft);
  const counts = draft?.counts;
  return (
    <section className="card cost" aria-labelledby="cost-title" data-testid="cost-summary" data-status={status}>
      <h2 id="cost-title">Cost</h2>
      {preflight ? (
        <>
          <dl className="facts">
            <dt>Gifts to send</dt>
            <dd className="num" data-testid="cost-count">
              {preflight.rowsToSend}
            </dd>
            <dt>Total face value</dt>
            <dd>
              <Totals list={preflight.totals} empty="nothing" testId="cost-total" />
            </dd>
            {counts && counts.invalid > 0 && (
              <>
                <dt>Need fixing (not sent)</dt>
                <dd className="num" data-testid="cost-invalid">
                  {counts.invalid}
                </dd>
              </>
            )}
            {counts && counts.skipped > 0 && (
              <>
                <dt>Skipped</dt>
                <dd className="num">{counts.skipped}</dd>
              </>
            )}
          </dl>
          <p className="muted small">
            Charged in your account currency at the service's exchange rate; the charged amount shows per row once ordered.
          </p>
          {preflight.availability?.message && <p className="small">Availability: {preflight.availability.message}</p>}
          {preflight.problems.length > 0 && (
            <Message kind="error" testId="preflight-problems">
              <ul>
                {preflight.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </Message>
          )}
        </>
      ) : (
        <p className="muted">{status === 'loading' ? 'Checking the product and the amounts…' : 'No cost yet.'}</p>
      )}
    </section>
  );
}
