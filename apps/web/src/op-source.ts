// An op's source files: Weave's SDKs save an op as `{_type: "CustomWeaveType", weave_type: {type:
// "Op"}, files: {"obj.py": <file digest>}}` (the file holds the function's code), read back with
// file/content. The language follows the file's name.
export interface SourceFile {
  name: string;
  digest: string;
  language: 'python' | 'typescript' | undefined;
}

export function opSourceFiles(val: unknown): SourceFile[] {
  if (typeof val !== 'object' || val === null) return [];
  const v = val as { _type?: unknown; weave_type?: { type?: unknown }; files?: unknown };
  if (v._type !== 'CustomWeaveType' || v.weave_type?.type !== 'Op' || typeof v.files !== 'object' || v.files === null) return [];
  return Object.entries(v.files as Record<string, unknown>)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([name, digest]) => ({ name, digest, language: languageOf(name) }));
}

function languageOf(name: string): SourceFile['language'] {
  if (name.endsWith('.py')) return 'python';
  if (/\.(m?[jt]s|[jt]sx)$/.test(name)) return 'typescript';
  return undefined;
}
