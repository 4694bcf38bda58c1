/**
 * GitHub's GraphQL limits, computed before a query runs
 * (https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api):
 * - every connection needs `first` or `last`, 1–100 (MISSING_PAGINATION_BOUNDARIES, EXCESSIVE_PAGINATION);
 * - nodes: the sum over connections of `first` × the nodes of their parents, at most 500,000 (MAX_NODE_LIMIT_EXCEEDED);
 * - cost: the requests needed to fill every connection (each parent node's connection is one request),
 *   divided by 100 and rounded, at least 1 point.
 */
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

export const NODE_LIMIT = 500_000;

export interface LimitError {
  type: 'MISSING_PAGINATION_BOUNDARIES' | 'EXCESSIVE_PAGINATION' | 'MAX_NODE_LIMIT_EXCEEDED';
  message: string;
}

export interface QueryCost {
  cost: number;
  nodeCount: number;
  errors: LimitError[];
}

function intValue(node: ValueNode | undefined, variables: Record<string, unknown>): number | undefined {
  if (!node) return undefined;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    const v = variables[node.name.value];
    return typeof v === 'number' ? v : undefined;
  }
  return undefined;
}

/** One walk over an operation: what it reads, and the running totals it adds to. */
interface Walk {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** Requests needed to fill every connection (each parent node's connection is one). */
  requests: number;
  nodes: number;
  errors: LimitError[];
}

/**
 * Cost, node count and limit violations of an operation.
 *
 * @example
 * queryCost(schema, operation, {}, { first: 100 }); // { cost: 1, nodeCount: 100, errors: [] }
 */
export function queryCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): QueryCost {
  const w: Walk = { schema, fragments, variables, requests: 0, nodes: 0, errors: [] };
  const root = schema.getQueryType();
  if (root) walk(w, operation.selectionSet, root, 1, new Set());
  return { cost: Math.max(1, Math.round(w.requests / 100)), nodeCount: w.nodes, errors: w.errors };
}

/** Every selection of `set` under `parent`, each of whose nodes stands for `multiplier` nodes of the result. */
function walk(w: Walk, set: SelectionSetNode, parent: GraphQLCompositeType, multiplier: number, seen: Set<string>) {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FRAGMENT_SPREAD) {
      const frag = w.fragments[sel.name.value];
      if (!frag || seen.has(sel.name.value)) continue;
      const type = w.schema.getType(frag.typeCondition.name.value);
      if (type && isCompositeType(type))
        walk(w, frag.selectionSet, type, multiplier, new Set([...seen, sel.name.value]));
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const type = sel.typeCondition ? w.schema.getType(sel.typeCondition.name.value) : parent;
      if (type && isCompositeType(type)) walk(w, sel.selectionSet, type, multiplier, seen);
    } else {
      walkField(w, sel, parent, multiplier, seen);
    }
  }
}

function walkField(w: Walk, sel: FieldNode, parent: GraphQLCompositeType, multiplier: number, seen: Set<string>) {
  if (sel.name.value.startsWith('__') || !(isObjectType(parent) || isInterfaceType(parent))) return;
  const def = parent.getFields()[sel.name.value];
  if (!def) return;
  const named = getNamedType(def.type);
  let child = multiplier;
  if (named.name.endsWith('Connection')) {
    const n = pageSize(w, sel);
    // A connection without valid bounds is reported and not descended into.
    if (n === undefined) return;
    w.requests += multiplier;
    w.nodes += multiplier * n;
    child = multiplier * n;
    if (w.nodes > NODE_LIMIT && !w.errors.some((e) => e.type === 'MAX_NODE_LIMIT_EXCEEDED')) {
      w.errors.push({
        type: 'MAX_NODE_LIMIT_EXCEEDED',
        message: `By the time this query traverses to the ${sel.name.value} connection, it is requesting up to ${w.nodes.toLocaleString('en-US')} possible nodes which exceeds the maximum limit of ${NODE_LIMIT.toLocaleString('en-US')}.`,
      });
    }
  }
  if (sel.selectionSet && isCompositeType(named)) walk(w, sel.selectionSet, named, child, seen);
}

/** A connection's `first` or `last`, 0–100; otherwise the error is recorded and the result is undefined. */
function pageSize(w: Walk, sel: FieldNode): number | undefined {
  const arg = (n: string) => sel.arguments?.find((a) => a.name.value === n)?.value;
  const first = intValue(arg('first'), w.variables);
  const last = intValue(arg('last'), w.variables);
  const n = first ?? last;
  if (n === undefined) {
    w.errors.push({
      type: 'MISSING_PAGINATION_BOUNDARIES',
      message: `You must provide a \`first\` or \`last\` value to properly paginate the \`${sel.name.value}\` connection.`,
    });
    return undefined;
  }
  if (n < 0 || n > 100) {
    w.errors.push({
      type: 'EXCESSIVE_PAGINATION',
      message: `Requesting ${n} records on the \`${sel.name.value}\` connection exceeds the \`${first !== undefined ? 'first' : 'last'}\` limit of 100 records.`,
    });
    return undefined;
  }
  return n;
}
