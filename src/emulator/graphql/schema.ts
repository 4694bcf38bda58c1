/**
 * GitHub's GraphQL schema (npm `@octokit/graphql-schema`, GitHub's published introspection), loaded on the
 * first `/graphql` request only: the emulator's REST routes never pay for its ~5 MB of JSON.
 */
import type { GraphQLSchema } from 'graphql';

let loading: Promise<GraphQLSchema> | undefined;

/**
 * The schema, built once per process.
 *
 * @example
 * const schema = await githubSchema();
 * schema.getQueryType()?.getFields().repository; // the `repository(owner:, name:)` field
 */
export function githubSchema(): Promise<GraphQLSchema> {
  loading ??= (async () => {
    const [{ buildClientSchema }, { schema }] = await Promise.all([
      import('graphql'),
      import('@octokit/graphql-schema'),
    ]);
    // biome-ignore lint/suspicious/noExplicitAny: the package types the introspection JSON loosely
    return buildClientSchema(schema.json as any);
  })();
  return loading;
}

/**
 * Whether the schema was asked for yet (false for an emulator that has only served REST).
 *
 * @example
 * githubSchemaRequested(); // false until the first POST /graphql
 */
export function githubSchemaRequested(): boolean {
  return loading !== undefined;
}

let withoutUpdateRefs: Promise<GraphQLSchema> | undefined;

/**
 * GitHub's schema as a host that predates `updateRefs` has it: no such mutation, no `UpdateRefsInput`,
 * `UpdateRefsPayload` or `RefUpdate` (so `__type(name: "UpdateRefsInput")` is null there, as it would be).
 *
 * @example
 * const old = await githubSchemaWithoutUpdateRefs();
 * old.getMutationType()?.getFields().updateRefs; // undefined
 */
export function githubSchemaWithoutUpdateRefs(): Promise<GraphQLSchema> {
  withoutUpdateRefs ??= (async () => {
    const { GraphQLObjectType, GraphQLSchema } = await import('graphql');
    const config = (await githubSchema()).toConfig();
    const gone = new Set(['UpdateRefsInput', 'UpdateRefsPayload', 'RefUpdate']);
    const mutation = config.mutation?.toConfig();
    if (!mutation) throw new Error('GitHub schema without a Mutation type');
    const { updateRefs: _, ...fields } = mutation.fields;
    const Mutation = new GraphQLObjectType({ ...mutation, fields });
    return new GraphQLSchema({
      ...config,
      mutation: Mutation,
      types: config.types.filter((t) => !gone.has(t.name) && t.name !== 'Mutation'),
    });
  })();
  return withoutUpdateRefs;
}
