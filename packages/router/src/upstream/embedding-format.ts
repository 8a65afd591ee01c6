// Embeddings in the format the caller asked for: base64 of little-endian float32 bytes (what the
// `openai` client asks for by default and decodes), or floats. An upstream that ignored the
// format is converted, so the caller never has to care which provider served it.

export function encodeFloat32(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => bytes.writeFloatLE(v, i * 4));
  return bytes.toString('base64');
}

export function decodeFloat32(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  const out: number[] = [];
  for (let i = 0; i + 4 <= bytes.length; i += 4) out.push(bytes.readFloatLE(i));
  return out;
}

/** The embedding as asked: `base64` → a string, otherwise floats. Undefined when it is neither. */
export function asFormat(embedding: unknown, format: 'float' | 'base64'): number[] | string | undefined {
  if (typeof embedding === 'string') return format === 'base64' ? embedding : decodeFloat32(embedding);
  if (Array.isArray(embedding) && embedding.every((v) => typeof v === 'number'))
    return format === 'base64' ? encodeFloat32(embedding) : embedding;
  return undefined;
}
