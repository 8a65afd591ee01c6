// Progress of `weft export | import | copy`: on a terminal, a bar per table with its rate and ETA
// (cli-progress, redrawn in place); otherwise (a log file, CI, a pipe) plain lines, one every few
// seconds for a long table and one at each table's end, which read well when nobody redraws them.
import cliProgress from 'cli-progress';
import type { ProgressListener, TransferPhase, TransferProgress } from '@weft/store';

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
}

export interface ProgressReporter {
  readonly listener: ProgressListener;
  /** Ends a bar left open (the work failed or was interrupted). */
  stop(): void;
}

const VERBS: Record<TransferPhase, string> = {
  export: 'export',
  import: 'import',
  copy: 'copy',
  verify: 'verify',
  check: 'check',
  backup: 'backup',
  restore: 'restore',
};
// A backup and a restore copy the database page by page (SQLite's backup API), not row by row.
const unitOf = (phase: TransferPhase) => (phase === 'backup' || phase === 'restore' ? 'pages' : 'rows');
const BAR_WIDTH = 24;
const count = (n: number) => n.toLocaleString('en-US');

function seconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.ceil(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

interface Tracked {
  started: number;
  /** Rows already there when the phase started (a resumed copy): not part of the rate. */
  base: number;
  lastLine: number;
}

/** Rows per second since the table's phase started, and the time left at that rate. */
function pace(p: TransferProgress, t: Tracked, now: number): { rate: number; eta: number } {
  const elapsed = Math.max(now - t.started, 1) / 1000;
  const rate = (p.done - t.base) / elapsed;
  const eta = p.total === undefined ? Number.NaN : rate > 0 ? (p.total - p.done) / rate : Number.POSITIVE_INFINITY;
  return { rate, eta };
}

function describe(p: TransferProgress, t: Tracked, now: number): string {
  const { rate, eta } = pace(p, t, now);
  const name = `${VERBS[p.phase]} ${p.table}`;
  const unit = unitOf(p.phase);
  const rateText = `${count(Math.round(rate))} ${unit}/s`;
  if (p.state === 'end') return `${name}: ${count(p.done)} ${unit} in ${((now - t.started) / 1000).toFixed(1)} s (${rateText})`;
  if (p.total === undefined || p.total === 0) return `${name}: ${count(p.done)} ${unit}, ${rateText}`;
  const percent = Math.min(100, Math.floor((100 * p.done) / p.total));
  return `${name}: ${count(p.done)}/${count(p.total)} ${unit} (${percent}%), ${rateText}, ETA ${seconds(eta)}`;
}

/** A bar on a TTY, plain lines elsewhere; `intervalMs` spaces the plain lines of one table. */
export function progressReporter(stream: ProgressStream, opts: { intervalMs?: number; now?: () => number } = {}): ProgressReporter {
  const now = opts.now ?? (() => performance.now());
  const intervalMs = opts.intervalMs ?? 5000;
  const tracked = new Map<string, Tracked>();
  let bar: cliProgress.SingleBar | undefined;

  const stop = () => {
    bar?.stop();
    bar = undefined;
  };

  const listener: ProgressListener = (p) => {
    const key = `${p.phase} ${p.table}`;
    const at = now();
    if (p.state === 'start') tracked.set(key, { started: at, base: p.done, lastLine: at });
    const t = tracked.get(key);
    if (!t) return;
    if (stream.isTTY) {
      if (p.state === 'start') {
        stop();
        bar = new cliProgress.SingleBar({
          stream: stream as NodeJS.WritableStream,
          // The text is ours (describe), so the bar and the plain lines say the same things.
          format: (_options, params) => {
            const filled = Math.round(Math.min(1, params.progress) * BAR_WIDTH);
            const barText = p.total ? `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} ` : '';
            return `${barText}${describe({ ...p, state: 'rows', done: params.value }, t, now())}`;
          },
          // Cleared when the table ends: its end line (as in plain output) replaces it.
          clearOnComplete: true,
          hideCursor: false,
          gracefulExit: false,
        });
        bar.start(p.total ?? 0, p.done);
      } else if (p.state === 'rows') bar?.update(p.done);
      else {
        bar?.update(p.done);
        stop();
        stream.write(`${describe(p, t, at)}\n`);
      }
      return;
    }
    if (p.state === 'end') stream.write(`${describe(p, t, at)}\n`);
    else if (p.state === 'rows' && at - t.lastLine >= intervalMs) {
      t.lastLine = at;
      stream.write(`${describe(p, t, at)}\n`);
    }
    if (p.state === 'end') tracked.delete(key);
  };
  return { listener, stop };
}
