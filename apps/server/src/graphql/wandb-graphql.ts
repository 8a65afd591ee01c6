// The W&B GraphQL that the Weave Python SDK's `weave.init` sends: the project lookup, the
// project upsert and the viewer.
// Parsed, validated and executed by graphql-js against the small schema below, so any other
// document (an unknown field, a syntax error, a subscription) is a GraphQL error from the library,
// never a guess. Answers come from Weft's users and entities, under the same authorization as
// every other operation.
import { buildSchema, execute, parse, specifiedRules, validate, type ExecutionResult, type GraphQLError } from 'graphql';
import type { Authenticator, Principal } from '../auth/index.ts';

const SCHEMA = buildSchema(/* GraphQL */ `
  type Query {
    "A project of an entity the key may access. Weft creates a project on its first write, so every such project exists."
    project(name: String!, entityName: String!): Project
    viewer: User
  }
  type Mutation {
    upsertModel(input: UpsertModelInput!): UpsertModelPayload
  }
  type Project {
    id: ID!
    name: String!
    entityName: String!
    "Weft keeps no project descriptions: always null."
    description: String
    entity: Entity!
  }
  type Entity {
    name: String!
  }
  type User {
    username: String!
    "The entity used when none is named."
    entity: String!
    defaultEntity: Entity!
  }
  input UpsertModelInput {
    id: String
    name: String!
    entityName: String
    description: String
    repo: String
  }
  type UpsertModelPayload {
    model: Project
    inserted: Boolean
  }
`);

/** Bounds the parser's work on a hostile document (the request body is capped at 100,000 characters too). */
const MAX_TOKENS = 5000;

interface Context {
  principal: Principal;
  auth: Authenticator;
}

function project(ctx: Context, entity: string, name: string) {
  const allowed = ctx.auth.authorizeProject(ctx.principal, `${entity}/${name}`);
  if (!allowed.ok) throw new Error(allowed.reason);
  if (name.includes('/') || name.trim() === '') throw new Error(`Invalid project name "${name}"`);
  return { id: `${entity}/${name}`, name, entityName: entity, description: null, entity: { name: entity } };
}

const ROOT = {
  project: (args: { name: string; entityName: string }, ctx: Context) => project(ctx, args.entityName, args.name),
  viewer: (_args: unknown, ctx: Context) => {
    const entity = ctx.auth.defaultEntity(ctx.principal);
    return { username: ctx.principal.username, entity, defaultEntity: { name: entity } };
  },
  upsertModel: (
    args: { input: { id?: string | null; name: string; entityName?: string | null; description?: string | null; repo?: string | null } },
    ctx: Context,
  ) => {
    const { input } = args;
    // What Weft cannot keep is refused rather than dropped (the SDK sends all three as null).
    for (const field of ['id', 'description', 'repo'] as const)
      if (input[field] != null) throw new Error(`upsertModel: Weft does not store a project's ${field}; send it as null`);
    const entity = input.entityName ?? ctx.auth.defaultEntity(ctx.principal);
    return { model: project(ctx, entity, input.name), inserted: false };
  },
};

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown> | null | undefined;
  operationName?: string | null | undefined;
}

export async function runWandbGraphql(req: GraphqlRequest, ctx: Context): Promise<ExecutionResult> {
  let document;
  try {
    document = parse(req.query, { maxTokens: MAX_TOKENS });
  } catch (err) {
    return { errors: [err as GraphQLError] };
  }
  const problems = validate(SCHEMA, document, specifiedRules);
  if (problems.length > 0) return { errors: problems };
  return execute({
    schema: SCHEMA,
    document,
    rootValue: ROOT,
    contextValue: ctx,
    variableValues: req.variables ?? undefined,
    operationName: req.operationName ?? undefined,
  });
}
