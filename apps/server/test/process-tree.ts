// The processes a command started, read from Linux's /proc: the tests that stop a command by a
// signal check that none of them is left running.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  session: number;
  /** Clock ticks after boot: with the PID, names one process even if the PID is reused. */
  startTime: string;
  command: string;
}

function readEntry(pid: number): (ProcessEntry & { state: string }) | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // exited meanwhile
  }
  // "pid (comm) state ppid pgrp session … starttime …": comm may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    // exited meanwhile: the stat line is enough
  }
  return {
    pid,
    state: fields[0] ?? '',
    ppid: Number(fields[1]),
    session: Number(fields[3]),
    startTime: fields[19] ?? '',
    command,
  };
}

function runningEntries(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readEntry(Number(name));
    // A zombie runs nothing: it waits for its parent (or init) to collect its exit status.
    if (entry && entry.state !== 'Z') entries.push(entry);
  }
  return entries;
}

/**
 * The running processes of `root`'s tree: its descendants, and every process of the session it
 * leads (spawned with `detached: true`), which holds the descendants whose parent has exited.
 */
export function processTree(root: number): ProcessEntry[] {
  const entries = runningEntries();
  const tree = new Map<number, ProcessEntry>();
  for (const entry of entries) if (entry.pid === root || entry.session === root) tree.set(entry.pid, entry);
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of entries) {
      if (!tree.has(entry.pid) && tree.has(entry.ppid)) {
        tree.set(entry.pid, entry);
        grew = true;
      }
    }
  }
  return [...tree.values()];
}

/** Which of `seen` still run (the same processes: same PID and start time), and the session's others. */
export function stillRunning(root: number, seen: readonly ProcessEntry[]): ProcessEntry[] {
  const left = new Map<number, ProcessEntry>();
  for (const entry of seen) {
    const now = readEntry(entry.pid);
    if (now && now.state !== 'Z' && now.startTime === entry.startTime) left.set(entry.pid, now);
  }
  for (const entry of processTree(root)) left.set(entry.pid, entry);
  return [...left.values()];
}
