// Cases of POST /graphql (the W&B GraphQL of the Weave Python SDK's init).
import { invalid, type OperationCase } from './case-types.ts';

export const graphqlCases = {
  graphqlQuery: {
    // GraphQL answers a forbidden project with 200 and `errors`, as W&B does, not with a 403.
    tenancy: { untested: "GraphQL refuses another entity's project in `errors` with status 200 (apps/server/test/graphql.test.ts)" },
    request: (api, _c, extra) =>
      api.POST('/graphql', { body: { query: 'query DefaultEntity { viewer { username defaultEntity { name } } }' }, ...extra }),
    invalid: [
      { name: 'a missing query', loc: ['body', 'query'], send: (api) => api.POST('/graphql', { body: invalid({ variables: {} }) }) },
      {
        name: 'an unknown top-level key',
        loc: ['body', 'extensions'],
        send: (api) => api.POST('/graphql', { body: invalid({ query: '{ viewer { username } }', extensions: {} }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
