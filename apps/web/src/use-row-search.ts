// The rows of a table that contain a text (dataset-search.ts says why this reads the table in
// chunks rather than asking the server): chunks are read one after another, in the viewer's sort
// order, each filtered as it arrives, until the table ends or a limit is met.
import { useQueries } from '@tanstack/react-query';
import type { TableQueryRes, TableRowSchema } from '@weft/types';
import { useCallback, useEffect, useState } from 'react';
import { MAX_MATCHES, rowMatches, SCAN_CHUNK, scanContinues } from './dataset-search.ts';
import { useApi } from './session.tsx';

export interface RowSearch {
  matches: TableRowSchema[];
  rowsRead: number;
  /** The scan has stopped: the table ended or a limit was met. */
  done: boolean;
  error: unknown;
}

interface Query {
  projectId: string;
  digest: string;
  sortBy: Array<{ field: string; order: 'asc' | 'desc' }> | undefined;
  /** As searchNeedle gives it; '' reads nothing. */
  needle: string;
  rowCount: number;
}

export function useRowSearch({ projectId, digest, sortBy, needle, rowCount }: Query): RowSearch {
  const { $api } = useApi();
  const order = JSON.stringify(sortBy ?? []);
  const [scan, setScan] = useState({ key: '', chunks: 1 });
  const key = `${needle}\n${order}`;
  const chunks = scan.key === key ? scan.chunks : 1;
  const select = useCallback(
    (res: TableQueryRes) => ({ read: res.rows.length, matches: res.rows.filter((r) => rowMatches(r.val, needle)) }),
    [needle],
  );
  const results = useQueries({
    queries: (needle === '' ? [] : Array.from({ length: chunks }, (_, i) => i)).map((i) =>
      $api.queryOptions(
        'post',
        '/table/query',
        { body: { project_id: projectId, digest, limit: SCAN_CHUNK, offset: i * SCAN_CHUNK, ...(sortBy ? { sort_by: sortBy } : {}) } },
        { staleTime: Infinity, select },
      ),
    ),
  });
  let rowsRead = 0;
  const matches: TableRowSchema[] = [];
  for (const r of results) {
    if (!r.data) break;
    rowsRead += r.data.read;
    matches.push(...r.data.matches);
  }
  const loaded = results.length > 0 && results.every((r) => r.isSuccess);
  const more = scanContinues({ chunksRead: chunks, rowsRead, matches: matches.length }, rowCount);
  useEffect(() => {
    if (needle !== '' && loaded && more) setScan({ key, chunks: chunks + 1 });
  }, [needle, loaded, more, key, chunks]);
  return {
    matches: matches.slice(0, MAX_MATCHES),
    rowsRead,
    done: needle === '' || (loaded && !more),
    error: results.find((r) => r.error)?.error,
  };
}
