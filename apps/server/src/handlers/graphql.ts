// POST /graphql: the W&B GraphQL of weave.init (graphql/wandb-graphql.ts). GraphQL errors are
// answered 200 with `errors`, as W&B's server does and as the SDK's gql client expects.
import { runWandbGraphql } from '../graphql/wandb-graphql.ts';
import { handlers, type Deps } from './handler.ts';

export function graphqlHandlers({ auth }: Deps) {
  return handlers({
    async graphqlQuery({ body, principal }) {
      const result = await runWandbGraphql(body, { principal, auth });
      return {
        ...(result.data !== undefined && { data: result.data as Record<string, never> | null }),
        // Message, where and which field: W&B's shape, without graphql-js' internal extensions.
        ...(result.errors && {
          errors: result.errors.map(({ message, locations, path }) => ({
            message,
            ...(locations && { locations: locations.map(({ line, column }) => ({ line, column })) }),
            ...(path && { path: [...path] }),
          })),
        }),
      };
    },
  });
}
