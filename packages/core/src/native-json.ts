// The native JSON functions (@weft/json-native, built by `pnpm install`), when the addon loaded.
// Without it (no compiler where Weft was installed, or WEFT_JSON_NATIVE=0) the same answers come
// from JavaScript: the digests from digest/py-json.ts, container ends from the server's
// JsonStreamParser; several times slower (BENCHMARKS.md, scenario 4). The switch lets CI run the
// suites over the JavaScript path on a machine where the addon is built.
import { createRequire } from 'node:module';

export interface NativeJson {
  /** Python's json.dumps(sort_keys=True) of JSON.parse(text); undefined: use digest/py-json.ts. */
  pyJsonDumpOfText: (text: string) => Buffer | undefined;
  /** The same of parseLossless(text) (number lexemes kept), as an ASCII string; undefined: use digest/py-json.ts. */
  pyJsonDumpOfLexemes: (text: string) => string | undefined;
  /** @weft/store's toStoredJson of parseLossless(text); undefined: use it. See src/stored-json.cc. */
  storedJsonOfText: (text: string) => string | undefined;
  /** See packages/json-native/src/scan-container.cc. */
  scanContainer: (text: string, state: Int32Array, maxDepth: number) => number;
}

const FUNCTIONS: readonly (keyof NativeJson)[] = ['pyJsonDumpOfText', 'pyJsonDumpOfLexemes', 'storedJsonOfText', 'scanContainer'];

/** Whether WEFT_JSON_NATIVE=0 turned the addon off. */
export const nativeJsonDisabled = process.env.WEFT_JSON_NATIVE === '0';

function load(): NativeJson | undefined {
  if (nativeJsonDisabled) return undefined;
  try {
    const addon = createRequire(import.meta.url)('@weft/json-native') as NativeJson;
    // A build older than this file (not rebuilt since) is not used at all: no half of each path.
    return FUNCTIONS.every((name) => typeof addon[name] === 'function') ? addon : undefined;
  } catch {
    return undefined;
  }
}

export const nativeJson: NativeJson | undefined = load();
