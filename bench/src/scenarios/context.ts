// What every scenario gets: where the database is, how to reach and start Weft, and how long to
// measure (BENCH_QUICK=1 shortens everything for a smoke run).
import type { Credentials } from '../servers/weft.ts';
import type { SeedDigests } from '../seed/verify.ts';
import type { SeedSpec } from '../seed/spec.ts';

export interface RunContext {
  dialect: 'sqlite' | 'postgres';
  /** What the servers and the direct-SQL baselines open. */
  databaseUrl: string;
  /** DATA_DIR of the servers; scratch files of the run. */
  runDir: string;
  creds: Credentials;
  spec: SeedSpec;
  digests: SeedDigests;
  quick: boolean;
  /** Seconds of one throughput measurement. */
  seconds: number;
}
