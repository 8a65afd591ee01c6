// `weft router check [--config FILE]`: validates the router file (every problem by line, exit 1)
// and probes each provider with GET {base_url}/models, its key from the environment, printing ok
// or failed with the time taken. A key is sent, never printed: messages are built from statuses
// and error codes, and any text that could echo it is scrubbed.
import { isAbsolute, resolve } from 'node:path';
import { loadCatalogue } from '@weft/core';
import { loadRouterConfig, RouterConfigError, type ProviderConfig } from '@weft/router';
import type { CliIo } from '../auth/cli.ts';
import { loadConfig } from '../config.ts';

export interface RouterCheckOptions {
  config?: string | undefined;
  /** commander's --no-probe. */
  probe?: boolean;
}

interface Probe {
  provider: string;
  ok: boolean;
  ms: number;
  detail: string;
}

export async function routerCheckCommand(opts: RouterCheckOptions, io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // The router file and catalogue as the server would read them (environment, weft.yaml).
  let settings;
  try {
    settings = loadConfig(env);
  } catch (err) {
    io.stderr.write(`weft router check: ${(err as Error).message}\n`);
    return 1;
  }
  const given = opts.config ?? settings.routerConfigFile;
  if (!given) {
    io.stderr.write('weft router check: no router file: pass --config FILE or set ROUTER_CONFIG (or router_config in weft.yaml)\n');
    return 1;
  }
  // Relative to where the user ran the command (the root scripts pass it as WEFT_CWD).
  const file = isAbsolute(given) ? given : resolve(env.WEFT_CWD || process.cwd(), given);
  let config;
  try {
    const catalogue = await loadCatalogue(settings.modelsFile);
    config = await loadRouterConfig(file, catalogue);
  } catch (err) {
    io.stderr.write(`${err instanceof RouterConfigError ? err.message : `weft router check: ${(err as Error).message}`}\n`);
    return 1;
  }
  io.stdout.write(`${file}: valid (${config.providers.length} providers, ${config.models.length} models)\n`);
  if (opts.probe === false || config.providers.length === 0) return 0;
  const probes = await Promise.all(config.providers.map((p) => probeProvider(p, env)));
  const width = Math.max(...probes.map((p) => p.provider.length));
  for (const p of probes) {
    io.stdout.write(`${p.ok ? 'ok    ' : 'failed'}  ${p.provider.padEnd(width)}  ${String(p.ms).padStart(5)} ms  ${p.detail}\n`);
  }
  return probes.every((p) => p.ok) ? 0 : 1;
}

async function probeProvider(provider: ProviderConfig, env: NodeJS.ProcessEnv): Promise<Probe> {
  const url = `${provider.base_url.replace(/\/+$/, '')}/models`;
  const key = provider.api_key_env ? env[provider.api_key_env] : undefined;
  if (provider.api_key_env && !key) {
    return { provider: provider.id, ok: false, ms: 0, detail: `${provider.api_key_env} is not set` };
  }
  const scrub = (text: string) => (key ? text.split(key).join('[key]') : text);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(url, {
      headers: { ...provider.headers, accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      signal: AbortSignal.timeout(provider.timeouts.connect_ms + provider.timeouts.first_byte_ms),
    });
    await res.body?.cancel();
    const ms = elapsed();
    return { provider: provider.id, ok: res.ok, ms, detail: `GET ${url}: ${res.status}${res.ok ? '' : ` ${res.statusText}`}` };
  } catch (err) {
    const ms = elapsed();
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? 'no answer in time' : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { provider: provider.id, ok: false, ms, detail: scrub(`GET ${url}: ${why}`) };
  }
}
