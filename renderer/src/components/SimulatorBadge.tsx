export function SimulatorBadge() {
  return (
    <span className="badge badge-sim" data-testid="simulator-badge" title="The built-in Simulator: nothing real is ordered or charged.">
      Simulator — no real gifts
    </span>
  );
}
