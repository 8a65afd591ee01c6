// The header's project switcher (Weave's and Phoenix's project menu): every project the key can
// see; choosing one opens the same section of it. The current project is remembered for this tab,
// so pages of no project (router models, the playground) keep the project's links.
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { projectPath } from '../project-path.ts';
import { useApi } from '../session.tsx';

const KEY = 'weft.project';

/** The project of the URL, else the one this tab last visited. */
export function useCurrentProject(entity: string | undefined, project: string | undefined): string | undefined {
  const fromUrl = entity && project ? `${entity}/${project}` : undefined;
  useEffect(() => {
    if (fromUrl) sessionStorage.setItem(KEY, fromUrl);
  }, [fromUrl]);
  return fromUrl ?? sessionStorage.getItem(KEY) ?? undefined;
}

export function ProjectSwitcher({ current, inProject }: { current: string | undefined; inProject: boolean }) {
  const { $api } = useApi();
  const { data } = $api.useQuery('get', '/projects');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const ids = data?.projects.map((p) => p.project_id) ?? [];
  if (current && !ids.includes(current)) ids.unshift(current);
  return (
    <select
      className="project-switcher"
      aria-label="Project"
      value={current ?? ''}
      onChange={(e) => e.target.value && navigate(projectPath(pathname, e.target.value, inProject))}
    >
      {!current && <option value="">Choose a project…</option>}
      {ids.map((id) => (
        <option key={id} value={id}>
          {id}
        </option>
      ))}
    </select>
  );
}
