// Runs a bench entry point: a failure is reported and exits 1. So is a run that stops before it
// ends: when a wait can never end (a promise nothing will settle), Node finds its event loop empty
// and exits with code 0 as if the run had finished (the seeding once stopped so, silently).
export function runMain(name: string, main: () => Promise<void>): void {
  let settled = false;
  const fail = (why: string) => {
    process.stderr.write(`\n${name} failed: ${why}\n`);
    process.exit(1);
  };
  process.on('beforeExit', () => {
    if (!settled) fail('it stopped before finishing: it waited on something that can never happen');
  });
  main().then(
    () => {
      settled = true;
    },
    (err: unknown) => {
      settled = true;
      fail(err instanceof Error ? (err.stack ?? err.message) : String(err));
    },
  );
}
