// What the bench seeds, and what each seeded thing must hash to. Change SEED_VERSION whenever a
// generator changes: it names the reusable SQLite file.
import { digestOfValue, tableDigest } from '@weft/core';
import { ENTITY } from '../servers/weft.ts';
import { evalRow } from '../fixtures/eval-rows.ts';

export const SEED_VERSION = 2;

export interface SeedSpec {
  bigRows: number;
  smallRows: number;
  largeProject: { objects: number; versions: number };
  smallProject: { objects: number; versions: number };
  /** Scenario 11's two calls projects (calls-spec.ts). */
  calls: { large: number; small: number };
}

export const FULL_SEED: SeedSpec = {
  bigRows: 1_000_000,
  smallRows: 10_000,
  largeProject: { objects: 10_000, versions: 10 },
  smallProject: { objects: 100, versions: 10 },
  calls: { large: 1_000_000, small: 10_000 },
};

/** BENCH_QUICK=1: a smoke run of the whole pipeline, not figures to publish. */
export const QUICK_SEED: SeedSpec = {
  bigRows: 100_000,
  smallRows: 10_000,
  largeProject: { objects: 2_000, versions: 5 },
  smallProject: { objects: 100, versions: 5 },
  calls: { large: 100_000, small: 10_000 },
};

export const PROJECTS = {
  tables: `${ENTITY}/tables`,
  objsLarge: `${ENTITY}/objs-large`,
  objsSmall: `${ENTITY}/objs-small`,
  calls: `${ENTITY}/calls`,
} as const;

export const CALL_ID = '0195b7a1-0000-7000-8000-00000000be01';

/** Rows of the big table use salt 0, the small table salt 1: distinct rows, same shape. */
export const TABLE_SALT = { big: 0, small: 1 } as const;

export function tableRows(count: number, salt: number, onProgress?: (done: number) => void): ReturnType<typeof evalRow>[] {
  const rows = new Array<ReturnType<typeof evalRow>>(count);
  for (let i = 0; i < count; i++) {
    rows[i] = evalRow(i, salt);
    if (onProgress && i % 10_000 === 0) onProgress(i);
  }
  return rows;
}

export function expectedTableDigest(rows: readonly unknown[], onProgress?: (done: number) => void): string {
  const digests: string[] = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    digests[i] = digestOfValue(rows[i]);
    if (onProgress && i % 10_000 === 0) onProgress(i);
  }
  return tableDigest(digests);
}

/** A versioned object as Weave stores prompts: class markers, a name, content, parameters. */
export function objectValue(objectIndex: number, version: number) {
  return {
    _type: 'StringPrompt',
    _class_name: 'StringPrompt',
    _bases: ['Prompt', 'Object', 'BaseModel'],
    name: `prompt-${objectIndex}`,
    description: `Classifies support emails (variant ${objectIndex % 37}).`,
    content: `You are a support triage assistant, revision ${version}. Label the email as billing, bug, account or other. Variant ${objectIndex}.`,
    params: { temperature: (objectIndex % 10) / 10, max_tokens: 256 + version, stop: ['\n\n'] },
  };
}

export const objectId = (objectIndex: number): string => `prompt-${objectIndex}`;
