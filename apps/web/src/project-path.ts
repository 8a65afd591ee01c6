// Where the project switcher goes: the same section of the other project (its traces for a
// trace, its threads for a thread, its queues for a queue), or its traces from a page of no project.
const SECTIONS = new Map([
  ['overview', 'overview'],
  ['traces', 'traces'],
  ['r', 'traces'],
  ['threads', 'threads'],
  ['evaluations', 'evaluations'],
  ['objects', 'objects'],
  ['tables', 'objects'],
  ['queues', 'queues'],
  ['judges', 'judges'],
  ['runs', 'runs'],
]);

/** The path of `projectId` ("entity/project") matching the section of `pathname`, if it is a project's page. */
export function projectPath(pathname: string, projectId: string, inProject: boolean): string {
  const section = inProject ? SECTIONS.get(pathname.split('/')[3] ?? '') : undefined;
  return `/${projectId}/${section ?? 'traces'}`;
}
