// Providers and routes. Every page has its own URL; the Weave SDK's printed link shape
// (`/<entity>/<project>/r/call/<id>`) opens the call. Pages beyond the projects, traces, a trace
// and the queues are split into chunks of their own (layout.tsx waits for them).
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, useEffect, useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { errorTypeOf } from './api.ts';
import { Layout } from './components/layout.tsx';
import { NotFoundPage } from './pages/not-found.tsx';
import { ObjectsPage } from './pages/objects.tsx';
import { QueuePage } from './pages/queue.tsx';
import { QueuesPage } from './pages/queues.tsx';
import { ProjectsPage } from './pages/projects.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { TracePage } from './pages/trace.tsx';
import { TracesPage } from './pages/traces.tsx';
import { SessionProvider, useSession } from './session.tsx';

// Pages off the first screen load on first visit: the first load of Studio stays small.
const JudgesPage = lazy(() => import('./pages/judges.tsx').then((m) => ({ default: m.JudgesPage })));
const EvaluationsPage = lazy(() => import('./pages/evaluations.tsx').then((m) => ({ default: m.EvaluationsPage })));
const EvaluationComparePage = lazy(() => import('./pages/evaluation-compare.tsx').then((m) => ({ default: m.EvaluationComparePage })));
const ObjectPage = lazy(() => import('./pages/object.tsx').then((m) => ({ default: m.ObjectPage })));
const OverviewPage = lazy(() => import('./pages/overview.tsx').then((m) => ({ default: m.OverviewPage })));
const QueueReviewPage = lazy(() => import('./pages/queue-review.tsx').then((m) => ({ default: m.QueueReviewPage })));
const RunPage = lazy(() => import('./pages/run.tsx').then((m) => ({ default: m.RunPage })));
const RunsPage = lazy(() => import('./pages/runs.tsx').then((m) => ({ default: m.RunsPage })));
const TablePage = lazy(() => import('./pages/table.tsx').then((m) => ({ default: m.TablePage })));
const PlaygroundPage = lazy(() => import('./pages/playground.tsx').then((m) => ({ default: m.PlaygroundPage })));
const ThreadPage = lazy(() => import('./pages/thread.tsx').then((m) => ({ default: m.ThreadPage })));
const ThreadsPage = lazy(() => import('./pages/threads.tsx').then((m) => ({ default: m.ThreadsPage })));
const RouterModelsPage = lazy(() => import('./pages/router-models.tsx').then((m) => ({ default: m.RouterModelsPage })));

export function App() {
  return (
    <SessionProvider>
      <BrowserRouter>
        <SignedIn />
      </BrowserRouter>
    </SessionProvider>
  );
}

function SignedIn() {
  const { api, signOut } = useSession();
  // A key refused on any request (revoked, mistyped) ends the session with a clear message.
  const [queryClient] = useState(() => {
    const onError = (error: unknown) => {
      if (errorTypeOf(error) === 'Unauthorized') signOut('The server refused this API key. Sign in with another one.');
    };
    return new QueryClient({
      queryCache: new QueryCache({ onError }),
      mutationCache: new MutationCache({ onError }),
      defaultOptions: { queries: { retry: (count, error) => count < 2 && errorTypeOf(error) === undefined, staleTime: 10_000 } },
    });
  });
  // Nothing read with one key may be shown under another.
  useEffect(() => () => queryClient.clear(), [api, queryClient]);
  if (!api) return <SignInPage />;
  return (
    <QueryClientProvider client={queryClient}>
      <Routes>
        <Route element={<Layout />}>
          {/* No page may take a path of the spec (/projects is an operation): the operation wins. */}
          <Route index element={<ProjectsPage />} />
          <Route path="router-models" element={<RouterModelsPage />} />
          <Route path="playground" element={<PlaygroundPage />} />
          <Route path=":entity/:project" element={<Navigate to="traces" replace />} />
          <Route path=":entity/:project/overview" element={<OverviewPage />} />
          <Route path=":entity/:project/traces" element={<TracesPage />} />
          <Route path=":entity/:project/r/call/:callId" element={<TracePage />} />
          <Route path=":entity/:project/threads" element={<ThreadsPage />} />
          <Route path=":entity/:project/evaluations" element={<EvaluationsPage />} />
          <Route path=":entity/:project/judges" element={<JudgesPage />} />
          <Route path=":entity/:project/evaluations/compare" element={<EvaluationComparePage />} />
          <Route path=":entity/:project/threads/:threadId" element={<ThreadPage />} />
          <Route path=":entity/:project/objects" element={<ObjectsPage />} />
          <Route path=":entity/:project/objects/:objectId" element={<ObjectPage />} />
          <Route path=":entity/:project/tables/:digest" element={<TablePage />} />
          <Route path=":entity/:project/queues" element={<QueuesPage />} />
          <Route path=":entity/:project/queues/:queueId" element={<QueuePage />} />
          <Route path=":entity/:project/queues/:queueId/review" element={<QueueReviewPage />} />
          <Route path=":entity/:project/runs" element={<RunsPage />} />
          <Route path=":entity/:project/runs/:modelId" element={<RunPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </QueryClientProvider>
  );
}
