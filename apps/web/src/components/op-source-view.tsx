// An op's source code, read with file/content and highlighted by highlight.js (Python and
// TypeScript only, registered here: this page's chunk carries them, not the first load).
// highlight.js escapes the code it returns, so its HTML is safe to insert.
import { useQuery } from '@tanstack/react-query';
import hljs from 'highlight.js/lib/core';
import python from 'highlight.js/lib/languages/python';
import typescript from 'highlight.js/lib/languages/typescript';
import type { SourceFile } from '../op-source.ts';
import { useApi } from '../session.tsx';
import { ErrorView, Loading } from './query-state.tsx';

hljs.registerLanguage('python', python);
hljs.registerLanguage('typescript', typescript);

// Past this, the code is shown plain: highlighting is linear but a huge file is not worth it.
const HIGHLIGHT_LIMIT = 200_000;

export function OpSourceView({ projectId, file }: { projectId: string; file: SourceFile }) {
  const { client } = useApi();
  const source = useQuery({
    queryKey: ['file/content', projectId, file.digest],
    queryFn: async () => new TextDecoder().decode(await client.fileContent({ project_id: projectId, digest: file.digest })),
    staleTime: Infinity,
  });
  return (
    <figure className="op-source">
      <figcaption>
        Source <span className="mono">{file.name}</span>
      </figcaption>
      {source.isPending ? (
        <Loading what="the source" />
      ) : source.error ? (
        <ErrorView error={source.error} />
      ) : file.language && source.data.length <= HIGHLIGHT_LIMIT ? (
        <pre aria-label={`Source of ${file.name}`} tabIndex={0}>
          <code className="hljs" dangerouslySetInnerHTML={{ __html: hljs.highlight(source.data, { language: file.language }).value }} />
        </pre>
      ) : (
        <pre aria-label={`Source of ${file.name}`} tabIndex={0}>
          <code>{source.data}</code>
        </pre>
      )}
    </figure>
  );
}
