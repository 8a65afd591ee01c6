// The validators of a trajectory log's pieces (Trajectory, TrajectoryGroup, ModelLogReq, the
// model_id path parameter), from the bundled spec with the ajv every route's validation uses.
import { spec } from '../spec.ts';
import { inlineValidator, specValidator } from '../spec-ajv.ts';

export { check, type ValidateFunction, type ValidatorItem } from '../spec-ajv.ts';

interface Doc {
  components: { schemas: Record<string, { properties?: Record<string, unknown> }>; parameters: Record<string, { schema: unknown }> };
}

function compile() {
  const doc = spec as unknown as Doc;
  const get = (name: string) => specValidator(`/components/schemas/${name}`);
  return {
    trajectory: get('Trajectory'),
    group: get('TrajectoryGroup'),
    request: get('ModelLogReq'),
    requestKeys: Object.keys(doc.components.schemas.ModelLogReq?.properties ?? {}),
    modelId: inlineValidator(doc.components.parameters.ModelIdPath!.schema as object),
  };
}

let compiled: ReturnType<typeof compile> | undefined;
/** Compiled on first use (once per process), like the middleware's own cache. */
export function logValidators() {
  return (compiled ??= compile());
}
