// The screens arrive with the desktop issue; until then the window says what Giftbatch can do today.
export function App() {
  return (
    <main data-state="ready" style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem', maxWidth: '40rem' }}>
      <h1>Giftbatch</h1>
      <p>
        The campaign screens are not built yet. Today Giftbatch runs from the command line:
        <code> npm run -s giftbatch -- --help</code>
      </p>
    </main>
  );
}
