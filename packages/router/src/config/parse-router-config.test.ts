import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalogue, type Catalogue } from '@weft/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROUTING, DEFAULT_TIMEOUTS, loadRouterConfig, parseRouterConfig, RouterConfigError } from './index.ts';

const EXAMPLE = fileURLToPath(new URL('../../examples/router.yaml', import.meta.url));
let shipped: Catalogue;
beforeAll(async () => {
  shipped = await loadCatalogue();
});

const MINIMAL = `providers:
  local:
    base_url: http://127.0.0.1:8000/v1/
models:
  - id: acme/tiny
    context_length: 4096
    endpoints:
      - provider: local
        pricing: {}
`;

function problemsOf(text: string): readonly string[] {
  try {
    parseRouterConfig(text, 'r.yaml', shipped);
  } catch (error) {
    expect(error).toBeInstanceOf(RouterConfigError);
    return (error as RouterConfigError).problems;
  }
  throw new Error('expected parseRouterConfig to throw');
}

describe('the example router file', () => {
  it('loads, with every provider and inherited catalogue fields', async () => {
    const config = await loadRouterConfig(EXAMPLE, shipped);
    expect(config.source).toBe(EXAMPLE);
    expect(config.providers.map((p) => p.id)).toEqual(['openai', 'wandb', 'openrouter', 'vllm', 'ollama']);
    const openai = config.providers[0]!;
    expect(openai).toEqual({
      id: 'openai',
      base_url: 'https://api.openai.com/v1',
      api_key_env: 'OPENAI_API_KEY',
      headers: {},
      timeouts: DEFAULT_TIMEOUTS,
    });
    expect(config.providers[1]!.headers).toEqual({ 'OpenAI-Project': 'my-team/inference' });
    expect(config.providers[3]!.timeouts).toEqual({ connect_ms: 2000, first_byte_ms: 60000, idle_ms: 30000, total_ms: 300000 });
    expect(config.providers[4]).not.toHaveProperty('api_key_env');
    expect(config.models.map((m) => m.id)).toEqual([
      'meta-llama/Llama-3.1-8B-Instruct',
      'openai/gpt-4o-mini',
      'openai/text-embedding-3-small',
      'local/llama3.2',
    ]);

    const llama = config.models[0]!;
    const catalogued = shipped.byId('meta-llama/Llama-3.1-8B-Instruct')!;
    // The entry inherits from the shipped catalogue; pricing is the first endpoint's (vLLM: free).
    expect(llama.entry).toEqual({
      ...catalogued,
      pricing: { prompt: '0', completion: '0', image: '0', request: '0', input_cache_read: '0' },
      datacenters: [{ country_code: 'DE' }, { country_code: 'US' }],
    });
    expect(llama.endpoints.map((e) => [e.provider, e.model])).toEqual([
      ['vllm', 'meta-llama/Llama-3.1-8B-Instruct'],
      ['wandb', 'meta-llama/Llama-3.1-8B-Instruct'],
      ['openrouter', 'meta-llama/llama-3.1-8b-instruct'],
    ]);
    // An unquoted price is read from its digits, not through a float.
    expect(llama.endpoints[1]!.pricing).toEqual({
      prompt: '0.00000022',
      completion: '0.00000022',
      image: '0',
      request: '0',
      input_cache_read: '0',
    });
    expect(llama.endpoints[2]!.context_length).toBe(131072);

    const mini = config.models[1]!;
    expect(mini.entry).toMatchObject({
      id: 'openai/gpt-4o-mini',
      name: 'OpenAI GPT-4o mini',
      created: 1721260800,
      input_modalities: ['text', 'image'],
      output_modalities: ['text'],
      context_length: 128000,
      max_output_length: 16384,
      pricing: { prompt: '0.00000015', completion: '0.0000006', image: '0', request: '0', input_cache_read: '0.000000075' },
      supported_features: ['tools', 'json_mode', 'structured_outputs'],
      datacenters: [],
    });
    expect(config.models[3]!.entry).toMatchObject({
      name: 'Llama 3.2 3B (Ollama, this machine)',
      context_length: 131072,
      max_output_length: 131072,
    });

    expect(config.routing).toEqual(DEFAULT_ROUTING);
    expect(config.limits).toEqual({
      per_key: { requests_per_min: 600, tokens_per_min: 200000, budget_usd_per_day: '25' },
      per_project: { budget_usd_per_month: '500' },
    });
    expect(config.projects).toEqual({ 'my-team/private-evals': { record_content: false } });
  });
});

describe('parseRouterConfig', () => {
  it('fills defaults for what the file leaves out', () => {
    const config = parseRouterConfig(MINIMAL, 'r.yaml', shipped);
    expect(config.providers).toEqual([{ id: 'local', base_url: 'http://127.0.0.1:8000/v1', headers: {}, timeouts: DEFAULT_TIMEOUTS }]);
    expect(config.routing).toEqual(DEFAULT_ROUTING);
    expect(config.limits).toEqual({ per_key: {}, per_project: {} });
    expect(config.projects).toEqual({});
    expect(config.models[0]).toEqual({
      id: 'acme/tiny',
      entry: {
        id: 'acme/tiny',
        name: 'acme/tiny',
        created: 0,
        input_modalities: ['text'],
        output_modalities: ['text'],
        context_length: 4096,
        max_output_length: 4096,
        pricing: { prompt: '0', completion: '0', image: '0', request: '0', input_cache_read: '0' },
        supported_sampling_parameters: ['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'stop', 'seed'],
        supported_features: [],
        datacenters: [],
      },
      endpoints: [
        {
          provider: 'local',
          model: 'acme/tiny',
          pricing: { prompt: '0', completion: '0', image: '0', request: '0', input_cache_read: '0' },
          datacenters: [],
        },
      ],
    });
  });

  it('lists every problem at once, in file order, each with file:line:col and its path', () => {
    const bad = `providers:
  openai:
    base_url: https://user:pw@api.openai.com/v1
    api_key: sk-123
    headers: { Authorization: Bearer x }
    timeouts: { connect_ms: 0, total_ms: 10, first_byte_ms: 20 }
  "bad id":
    base_url: ftp://x
models:
  - id: a model
    endpoints:
      - provider: nope
        pricing: { prompt: -1, completion: 1e-7, image: .inf, request: 0x10, cache: 1 }
  - id: x/y
    context_lenght: 3
    endpoints: []
  - id: x/y
    endpoints:
      - { provider: openai, pricing: {}, datacenters: [us, US, US] }
routing: { retries: -1, cooldown: 3, max_backoff_ms: 1 }
limits: { per_key: { budget_usd_per_day: abc } }
projects: { noslash: { record_content: false }, a/b: { record_content: 1 } }
extra: 1
`;
    let message = '';
    try {
      parseRouterConfig(bad, 'r.yaml', shipped);
    } catch (error) {
      message = (error as Error).message;
    }
    const expected = [
      'r.yaml:3:15: providers.openai.base_url: must not carry credentials (use api_key_env)',
      'r.yaml:4:5: providers.openai.api_key: unknown key (expected one of base_url, api_key_env, headers, timeouts)',
      'r.yaml:5:16: providers.openai.headers.Authorization: credentials go in api_key_env, not in headers',
      'r.yaml:6:15: providers.openai.timeouts: total_ms 10 is shorter than first_byte_ms 20',
      'r.yaml:6:29: providers.openai.timeouts.connect_ms: expected an integer ≥ 1, got number 0',
      'r.yaml:8:5: providers["bad id"]: provider id "bad id" must be letters, digits, ".", "_" or "-"',
      'r.yaml:8:15: providers["bad id"].base_url: "ftp://x" must be http or https',
      'r.yaml:10:5: models[0].context_length: is required (the shipped catalogue does not know this model and no endpoint sets context_length)',
      'r.yaml:10:9: models[0].id: "a model" must not contain whitespace',
      'r.yaml:12:19: models[0].endpoints[0].provider: "nope" is not a provider of this file (openai, bad id)',
      'r.yaml:13:28: models[0].endpoints[0].pricing.prompt: number -1 must not be negative',
      'r.yaml:13:57: models[0].endpoints[0].pricing.image: expected a decimal number such as 0.00000022, got number .inf',
      'r.yaml:13:72: models[0].endpoints[0].pricing.request: expected a decimal number such as 0.00000022, got number 0x10',
      'r.yaml:13:78: models[0].endpoints[0].pricing.cache: unknown key (expected one of prompt, completion, image, request, input_cache_read)',
      'r.yaml:14:5: models[1].context_length: is required (the shipped catalogue does not know this model and no endpoint sets context_length)',
      'r.yaml:15:5: models[1].context_lenght: unknown key (expected one of id, endpoints, name, created, input_modalities, output_modalities, context_length, max_output_length, supported_sampling_parameters, supported_features, deprecation_date)',
      'r.yaml:16:16: models[1].endpoints: must list at least one endpoint',
      'r.yaml:17:5: models[2].context_length: is required (the shipped catalogue does not know this model and no endpoint sets context_length)',
      'r.yaml:17:5: models[2].id: duplicate id "x/y" (first used by models[1])',
      'r.yaml:19:56: models[2].endpoints[0].datacenters[0]: "us" is not an upper-case ISO 3166-1 alpha-2 code',
      'r.yaml:19:64: models[2].endpoints[0].datacenters[2]: duplicate entry "US"',
      'r.yaml:20:21: routing.retries: expected an integer ≥ 0, got number -1',
      'r.yaml:20:25: routing.cooldown: unknown key (expected one of retries, backoff_ms, max_backoff_ms, max_retry_after_ms, allowed_fails, window_ms, cooldown_ms, always_include_usage)',
      'r.yaml:20:54: routing.max_backoff_ms: 1 is less than backoff_ms 250',
      'r.yaml:21:42: limits.per_key.budget_usd_per_day: expected a decimal number such as 0.00000022, got "abc"',
      'r.yaml:22:13: projects.noslash: "noslash" is not a project id of the form entity/project',
      'r.yaml:22:72: projects["a/b"].record_content: expected true or false, got number 1',
      'r.yaml:23:1: extra: unknown key (expected one of providers, models, routing, limits, projects)',
    ];
    expect(message).toBe(
      `Invalid router configuration r.yaml (${expected.length} problems):\n${expected.map((p) => `  - ${p}`).join('\n')}`,
    );
  });

  it('reads prices exactly whatever their notation, and refuses what is not a finite number', () => {
    const withPricing = (pricing: string) => MINIMAL.replace('pricing: {}', `pricing: ${pricing}`);
    const config = parseRouterConfig(
      withPricing("{ prompt: 1e-7, completion: '0.000000880', request: 0.000000000000000000000000123456789 }"),
      'r.yaml',
      shipped,
    );
    expect(config.models[0]!.endpoints[0]!.pricing).toMatchObject({
      prompt: '0.0000001',
      completion: '0.00000088',
      request: '0.000000000000000000000000123456789',
    });
    expect(problemsOf(withPricing("{ prompt: '2.2e-7', completion: .nan, image: true }"))).toEqual([
      'r.yaml:9:28: models[0].endpoints[0].pricing.prompt: expected a decimal number such as 0.00000022, got "2.2e-7"',
      'r.yaml:9:50: models[0].endpoints[0].pricing.completion: expected a decimal number such as 0.00000022, got number .nan',
      'r.yaml:9:63: models[0].endpoints[0].pricing.image: expected a decimal number such as 0.00000022, got boolean true',
    ]);
    expect(problemsOf(MINIMAL.replace('        pricing: {}\n', ''))).toEqual([
      'r.yaml:8:9: models[0].endpoints[0].pricing: is required (USD per token; {} for a free endpoint)',
    ]);
  });

  it('names YAML syntax errors and duplicate keys by line', () => {
    expect(problemsOf('providers:\n  a: [1, 2\nmodels: []\n')[0]).toMatch(/^r\.yaml:3:\d+: YAML: /);
    expect(problemsOf(MINIMAL.replace('    base_url:', '    base_url: http://x\n    base_url:'))).toEqual([
      'r.yaml:4:5: YAML: Map keys must be unique',
    ]);
  });

  it('refuses an empty file, a non-mapping root and missing sections', () => {
    expect(problemsOf('')).toEqual(['r.yaml:1:1: (root): the file is empty (expected providers: and models:)']);
    expect(problemsOf('- 1\n')).toEqual(['r.yaml:1:1: : expected a mapping, got a list']);
    expect(problemsOf('routing: {}\n')).toEqual(['r.yaml:1:1: providers: is required', 'r.yaml:1:1: models: is required']);
    expect(problemsOf('providers: {}\nmodels: []\n')).toEqual([
      'r.yaml:1:12: providers: must declare at least one provider',
      'r.yaml:2:9: models: must list at least one model',
    ]);
  });

  it('checks model entry fields against the catalogue rules', () => {
    const text = MINIMAL.replace(
      '    context_length: 4096\n',
      `    context_length: 4096
    max_output_length: 5000
    supported_features: [tools, telepathy]
    supported_sampling_parameters: [temperature, temperature]
    input_modalities: []
    deprecation_date: 2026-02-30
`,
    );
    expect(problemsOf(text)).toEqual([
      'r.yaml:7:24: models[0].max_output_length: 5000 exceeds context_length 4096',
      'r.yaml:8:33: models[0].supported_features[1]: "telepathy" is not one of tools, json_mode, structured_outputs, web_search, reasoning',
      'r.yaml:9:50: models[0].supported_sampling_parameters[1]: duplicate entry "temperature"',
      'r.yaml:10:23: models[0].input_modalities: must list at least one value',
      'r.yaml:11:23: models[0].deprecation_date: "2026-02-30" is not a real date in YYYY-MM-DD form',
    ]);
  });

  it('follows YAML anchors, so shared settings can be written once', () => {
    const text = `x-shared: &timeouts { connect_ms: 1000 }
${MINIMAL.replace('    base_url:', '    timeouts: *timeouts\n    base_url:')}`;
    // Top-level keys are closed too: anchors live under a known key.
    expect(problemsOf(text)).toEqual([
      'r.yaml:1:1: "x-shared": unknown key (expected one of providers, models, routing, limits, projects)',
    ]);
    const ok = MINIMAL.replace('  local:\n', '  local:\n    timeouts: &t { connect_ms: 1000 }\n').replace(
      'models:',
      '  other:\n    base_url: http://127.0.0.2/v1\n    timeouts: *t\nmodels:',
    );
    const config = parseRouterConfig(ok, 'r.yaml', shipped);
    expect(config.providers.map((p) => p.timeouts.connect_ms)).toEqual([1000, 1000]);
  });

  it('loadRouterConfig reads a file and names an unreadable one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-router-'));
    const path = join(dir, 'router.yaml');
    await writeFile(path, MINIMAL);
    expect((await loadRouterConfig(path, shipped)).source).toBe(path);
    await expect(loadRouterConfig(join(dir, 'missing.yaml'), shipped)).rejects.toThrow(
      `${join(dir, 'missing.yaml')}: cannot be read (ENOENT)`,
    );
  });
});
