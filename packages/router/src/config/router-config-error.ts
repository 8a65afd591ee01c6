/** Thrown once per bad router file, listing every problem (`file:line:col: path: message`) so one fix-up pass suffices. */
export class RouterConfigError extends Error {
  readonly source: string;
  readonly problems: readonly string[];

  constructor(source: string, problems: readonly string[]) {
    super(
      `Invalid router configuration ${source} (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  - ${p}`).join('\n'),
    );
    this.name = 'RouterConfigError';
    this.source = source;
    this.problems = problems;
  }
}
