// The project's human-annotation scorers (latest version of each AnnotationSpec object): the
// fields reviewers fill in, which the traces list shows as score columns and filters on.
import type { ObjSchema } from '@weft/types';
import { useApi } from './session.tsx';

export function useAnnotationSpecs(projectId: string): { specs: ObjSchema[]; error: unknown } {
  const { $api } = useApi();
  const query = $api.useQuery('post', '/objs/query', {
    body: { project_id: projectId, filter: { base_object_classes: ['AnnotationSpec'], latest_only: true }, limit: 1000 },
  });
  return { specs: query.data?.objs ?? [], error: query.error };
}
