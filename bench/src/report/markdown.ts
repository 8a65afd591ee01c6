// BENCHMARKS.md: one generated section per database, between markers, so a SQLite run and a
// PostgreSQL run each replace their own table and keep the other's. Text outside the markers
// (the analysis of missed targets) is kept as written.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fmt, passes, type Line, type ScenarioResult } from './results.ts';

export interface RunInfo {
  dialect: 'sqlite' | 'postgres';
  date: string;
  machine: string;
  node: string;
  database: string;
  durationS: number;
  quick: boolean;
}

const HEADER = `# Benchmarks

Written by \`pnpm bench\` (how it measures: [bench/README.md](bench/README.md)); raw figures in
[bench/results/latest.json](bench/results/latest.json). The machine is shared and noisy, so every
figure is held to a **ratio** against a baseline measured side by side in the same run; absolute
times are there for orientation only. The sections below the two tables are written by hand.
`;

const start = (d: string) => `<!-- bench:${d}:start -->`;
const end = (d: string) => `<!-- bench:${d}:end -->`;

export function writeBenchmarksMd(path: string, info: RunInfo, scenarios: ScenarioResult[]): void {
  let doc = existsSync(path)
    ? readFileSync(path, 'utf8')
    : `${HEADER}\n${start('sqlite')}\n${end('sqlite')}\n\n${start('postgres')}\n${end('postgres')}\n`;
  const section = `${start(info.dialect)}\n${renderSection(info, scenarios)}${end(info.dialect)}`;
  const from = doc.indexOf(start(info.dialect));
  const to = doc.indexOf(end(info.dialect));
  doc =
    from >= 0 && to > from ? doc.slice(0, from) + section + doc.slice(to + end(info.dialect).length) : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(path, doc);
}

function renderSection(info: RunInfo, scenarios: ScenarioResult[]): string {
  const all = scenarios.flatMap((s) => s.lines).filter((l) => l.target);
  const met = all.filter((l) => passes(l) === true).length;
  let out = `## ${info.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}\n\n`;
  if (info.quick) out += '**BENCH_QUICK=1: a shortened smoke run, not figures to rely on.**\n\n';
  out += `Run ${info.date} · ${info.machine} · Node ${info.node} · ${info.database} · ${Math.round(info.durationS / 60)} min · **${met} of ${all.length} targets met**\n\n`;
  out += '| scenario | measure | Weft | baseline | ratio | target | |\n|---|---|---:|---:|---:|---:|:-:|\n';
  for (const s of scenarios) {
    for (const [i, line] of s.lines.entries()) out += row(i === 0 ? s.title : '', line);
  }
  out += '\n';
  for (const s of scenarios) for (const note of s.notes) out += `- ${s.title.split(' ')[0]} ${note}\n`;
  return `${out}\n`;
}

function row(title: string, line: Line): string {
  const pass = passes(line);
  const mark = pass === null ? '' : pass ? '✅' : '❌';
  const ratio = line.ratio === null ? '—' : `${fmt.ratio(line.ratio)}×`;
  const unit = line.absolute ? ` ${line.absolute.unit}` : '×';
  const target = line.target ? `${line.target.op === '>=' ? '≥' : '≤'} ${line.target.value}${unit}` : '';
  const cell = (text: string) => text.replaceAll('|', '\\|');
  return `| ${cell(title)} | ${cell(line.measure)} | ${cell(line.value)} | ${cell(line.baseline || '—')} | ${ratio} | ${target} | ${mark} |\n`;
}
