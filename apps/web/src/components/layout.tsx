import { Suspense } from 'react';
import { NavLink, Outlet, useParams } from 'react-router';
import { CommandPalette } from './command-palette.tsx';
import { ProjectSwitcher, useCurrentProject } from './project-switcher.tsx';
import { Loading } from './query-state.tsx';
import { ThemeMenu } from './theme-menu.tsx';
import { useSession } from '../session.tsx';
import { useRowKeys } from '../use-row-keys.ts';

export function Layout() {
  const { signOut } = useSession();
  const { entity, project } = useParams();
  // The project's links stay on pages of no project (router models, playground): the last one visited.
  const current = useCurrentProject(entity, project);
  useRowKeys();
  return (
    <div className="shell">
      <header className="topbar">
        <NavLink to="/" className="brand">
          Weft Studio
        </NavLink>
        <ProjectSwitcher current={current} inProject={entity !== undefined && project !== undefined} />
        <nav aria-label="Main">
          <NavLink to="/" end>
            Projects
          </NavLink>
          {current && (
            <>
              <NavLink to={`/${current}/overview`}>Overview</NavLink>
              <NavLink to={`/${current}/traces`}>Traces</NavLink>
              <NavLink to={`/${current}/threads`}>Threads</NavLink>
              <NavLink to={`/${current}/evaluations`}>Evaluations</NavLink>
              <NavLink to={`/${current}/objects`}>Objects</NavLink>
              <NavLink to={`/${current}/queues`}>Queues</NavLink>
              <NavLink to={`/${current}/judges`}>Judges</NavLink>
              <NavLink to={`/${current}/runs`}>RL runs</NavLink>
            </>
          )}
          <NavLink to="/playground">Playground</NavLink>
          <NavLink to="/router-models">Router models</NavLink>
          <a href="/docs">API reference</a>
        </nav>
        <CommandPalette projectId={current} />
        <ThemeMenu />
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
