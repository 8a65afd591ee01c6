// A progress bar on stderr (stdout stays free for anything piped), redrawn at most every 100 ms.
// Without a TTY it prints one line per phase at start and end instead of redrawing.

const WIDTH = 30;

export interface Progress {
  tick(done: number): void;
  done(note?: string): void;
}

export function progress(label: string, total: number): Progress {
  const tty = process.stderr.isTTY === true;
  const started = performance.now();
  let last = 0;
  if (!tty) process.stderr.write(`${label}…\n`);
  const draw = (done: number) => {
    const share = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(share * WIDTH);
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(
      `\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${secs}s\x1b[K`,
    );
  };
  return {
    tick(done) {
      const now = performance.now();
      if (!tty || now - last < 100) return;
      last = now;
      draw(done);
    },
    done(note = '') {
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      if (tty) {
        draw(total);
        process.stderr.write(` ${note}\n`);
      } else {
        process.stderr.write(`${label}: done in ${secs}s ${note}\n`);
      }
    },
  };
}

/** One line of status on stderr. */
export function say(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** Runs `work` as a one-step phase: a line before, the elapsed time after. */
export async function phase<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  process.stderr.write(`${label}…`);
  const result = await work();
  process.stderr.write(` ${((performance.now() - started) / 1000).toFixed(1)}s\n`);
  return result;
}
