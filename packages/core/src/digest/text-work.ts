// What the digest thread computes for one JSON text (digest-thread.ts), in place or on the thread.
import { nativeJson } from '../native-json.ts';
import { digestOfParsedText, type TextDigest } from './digest.ts';

export interface TextWork extends TextDigest {
  /**
   * The text with every object's keys in jsonb order, when asked and the native addon could make
   * it (SQLite stores that text; the store makes it itself otherwise).
   */
  jsonbText?: string;
}

export function textWork(text: string, jsonbText: boolean): TextWork {
  const digest = digestOfParsedText(text);
  if (!jsonbText) return digest;
  const ordered = nativeJson?.jsonbOrderText(text);
  return ordered === undefined ? digest : { ...digest, jsonbText: ordered };
}
