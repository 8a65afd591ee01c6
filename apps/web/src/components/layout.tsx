import { Suspense } from 'react';
import { NavLink, Outlet, useParams } from 'react-router';
import { Loading } from './query-state.tsx';
import { useSession } from '../session.tsx';

export function Layout() {
  const { signOut } = useSession();
  const { entity, project } = useParams();
  return (
    <div className="shell">
      <header className="topbar">
        <NavLink to="/" className="brand">
          Weft Studio
        </NavLink>
        <nav aria-label="Main">
          <NavLink to="/" end>
            Projects
          </NavLink>
          {entity && project && (
            <>
              <NavLink to={`/${entity}/${project}/overview`}>Overview</NavLink>
              <NavLink to={`/${entity}/${project}/traces`}>Traces</NavLink>
              <NavLink to={`/${entity}/${project}/threads`}>Threads</NavLink>
              <NavLink to={`/${entity}/${project}/evaluations`}>Evaluations</NavLink>
              <NavLink to={`/${entity}/${project}/objects`}>Objects</NavLink>
              <NavLink to={`/${entity}/${project}/queues`}>Queues</NavLink>
              <NavLink to={`/${entity}/${project}/judges`}>Judges</NavLink>
              <NavLink to={`/${entity}/${project}/runs`}>RL runs</NavLink>
            </>
          )}
          <NavLink to="/playground">Playground</NavLink>
          <NavLink to="/router-models">Router models</NavLink>
          <a href="/docs">API reference</a>
        </nav>
        <button type="button" className="link" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main>
        <Suspense fallback={<Loading what="the page" />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
