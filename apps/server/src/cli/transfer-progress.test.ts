// Progress of long transfers: plain lines (rate, ETA) every few seconds and at each table's end
// when the output is not a terminal; a redrawn bar with the same facts on a terminal.
import { describe, expect, it } from 'vitest';
import type { TransferProgress } from '@weft/store';
import { progressReporter } from './transfer-progress.ts';

const at = (phase: TransferProgress['phase'], table: string, state: TransferProgress['state'], done: number, total?: number) => ({
  phase,
  table,
  state,
  done,
  total,
});

describe('transfer progress', () => {
  it('writes plain lines with rate and ETA every interval and at the end when not on a terminal', () => {
    let out = '';
    let clock = 0;
    const reporter = progressReporter({ write: (t: string) => (out += t) }, { intervalMs: 5000, now: () => clock });
    reporter.listener(at('copy', 'calls', 'start', 0, 10_000));
    clock = 1000;
    reporter.listener(at('copy', 'calls', 'rows', 1000, 10_000));
    expect(out).toBe(''); // not yet: lines are spaced
    clock = 5000;
    reporter.listener(at('copy', 'calls', 'rows', 5000, 10_000));
    expect(out).toBe('copy calls: 5,000/10,000 rows (50%), 1,000 rows/s, ETA 5 s\n');
    clock = 10_000;
    reporter.listener(at('copy', 'calls', 'end', 10_000, 10_000));
    expect(out.split('\n')[1]).toBe('copy calls: 10,000 rows in 10.0 s (1,000 rows/s)');
    // A resumed table: the rows already there are not part of the rate.
    out = '';
    reporter.listener(at('copy', 'rows', 'start', 4000, 5000));
    clock = 20_000;
    reporter.listener(at('copy', 'rows', 'rows', 4500, 5000));
    expect(out).toBe('copy rows: 4,500/5,000 rows (90%), 50 rows/s, ETA 10 s\n');
  });

  it('draws a bar with the same facts on a terminal, replaced by the end line', async () => {
    let out = '';
    let clock = 0;
    const tty = { isTTY: true, columns: 120, write: (t: string) => (out += t) };
    const reporter = progressReporter(tty, { now: () => clock });
    reporter.listener(at('export', 'rows', 'start', 0, 400));
    clock = 2000;
    reporter.listener(at('export', 'rows', 'rows', 100, 400));
    await new Promise((r) => setTimeout(r, 150)); // the bar redraws on its own timer
    expect(out).toMatch(/█{6}░{18} export rows: 100\/400 rows \(25%\), 50 rows\/s, ETA 6 s/);
    reporter.listener(at('export', 'rows', 'end', 400, 400));
    expect(out).toMatch(/export rows: 400 rows in 2\.0 s \(200 rows\/s\)\n$/);
    reporter.stop(); // nothing left open
  });
});
