import { z } from 'zod';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_MIN_LENGTH } from '../idempotency/idempotencyKey.js';
import { API_VERSION } from '../server/apiVersion.js';
import {
  API_ERROR_CODES,
  API_ERROR_CONDITIONS,
  API_ERROR_STATUS,
  type ApiErrorCode,
} from '../server/errors.js';
import { dataEnvelope, ErrorEnvelope } from './commonSchemas.js';
import { EXAMPLE_IDEMPOTENCY_KEY, EXAMPLE_REQUEST_ID, errorExample } from './examples.js';
import { IDEMPOTENT_REPLAY_HEADER } from './idempotentExecution.js';
import { WEBHOOKS_INTRODUCTION, webhookPathItems } from './openApiWebhooks.js';
import { type ApiRoute, isMutating } from './route.js';

type JsonSchema = Record<string, unknown>;

function codesOfStatus(status: number): ApiErrorCode[] {
  return API_ERROR_CODES.filter((code) => API_ERROR_STATUS[code] === status);
}

/**
 * The codes an operation may answer with `status`. Every `/v1` operation may be refused past
 * capacity (503 `service_unavailable`); only those listing 503 themselves also `source_unavailable`.
 */
function codesOfOperation(route: ApiRoute, status: number): ApiErrorCode[] {
  if (status === 503 && !route.errorStatuses.includes(503)) return ['service_unavailable'];
  return codesOfStatus(status);
}

/** An error response's description: its codes with their conditions (the spec's Errors table). */
function errorDescription(codes: readonly ApiErrorCode[]): string {
  if (codes.length === 0) return 'Error.';
  return codes.map((code) => `\`${code}\`: ${API_ERROR_CONDITIONS[code]}.`).join(' Or ');
}

/** One example body per code the status stands for (409: `idempotency_conflict` and `conflict`). */
function errorExamples(codes: readonly ApiErrorCode[]) {
  return Object.fromEntries(codes.map((code) => [code, { summary: code, value: errorExample(code) }]));
}

/** The first example a schema's `.meta({examples})` gives, if any. */
function exampleOf(schema: z.ZodType | undefined): unknown {
  const examples: unknown = schema && z.globalRegistry.get(schema)?.examples;
  return Array.isArray(examples) ? examples[0] : undefined;
}

const header = (description: string, schema: JsonSchema = { type: 'string' }) => ({ description, schema });

const COMMON_HEADERS = {
  'X-Request-Id': header("This request's id, also in `meta.request_id`."),
  'Service-Api-Version': header('The interface version that answered.', {
    type: 'string',
    const: API_VERSION,
  }),
};

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header('Requests allowed per 60-second window.', { type: 'integer' }),
  'RateLimit-Remaining': header('Requests left in the current window.', { type: 'integer' }),
  'RateLimit-Reset': header('Seconds until the current window ends.', { type: 'integer' }),
};

/**
 * Converts zod schemas to JSON Schema 2020-12 (OpenAPI 3.1's dialect) and gathers every named
 * schema (`.meta({id})`) into `components.schemas`, so a resource is described once however many
 * operations use it.
 */
class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
    }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = json;
    for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      this.components[name] = rewriteRefs(definition) as JsonSchema;
    }
    return rewriteRefs(rest) as JsonSchema;
  }
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) =>
      key === '$ref' && typeof item === 'string'
        ? [key, item.replace('#/$defs/', '#/components/schemas/')]
        : [key, rewriteRefs(item)],
    ),
  );
}

function parameters(collector: SchemaCollector, schema: z.ZodType | undefined, location: 'path' | 'query') {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const converted = collector.convert(field, 'input');
    // The example goes on the parameter, where the reference page fills it into "Try it out".
    const { description, examples, ...fieldSchema } = converted;
    return {
      name,
      in: location,
      required: location === 'path' || !field.safeParse(undefined).success,
      ...(typeof description === 'string' ? { description } : {}),
      schema: fieldSchema,
      ...(Array.isArray(examples) && examples.length > 0 ? { example: examples[0] } : {}),
    };
  });
}

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description:
    'A stable key from the upstream object. A retry with the same key, method, path and body returns the original response; keys are kept for at least 24 hours.',
  schema: { type: 'string', minLength: IDEMPOTENCY_KEY_MIN_LENGTH, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
  example: EXAMPLE_IDEMPOTENCY_KEY,
};

/** What the key needs beyond the scope, for the operation's description. */
function scopeConditions(route: ApiRoute): string {
  if (route.requiresFinalDecision) return ' plus the final-decision permission (never an agent key)';
  return route.refusesAgents ? ' (never an agent key)' : '';
}

function operation(collector: SchemaCollector, route: ApiRoute) {
  const responses: Record<string, unknown> = {};
  const dataSchema = collector.convert(dataEnvelope(route.response), 'output');
  const responseExample = route.examples?.response ?? exampleOf(route.response);
  const bodyExample = route.examples?.body ?? exampleOf(route.body);
  for (const status of route.successStatuses) {
    responses[String(status)] = {
      description: status === 201 ? 'Created.' : 'OK.',
      headers: {
        ...COMMON_HEADERS,
        ...RATE_LIMIT_HEADERS,
        ...(isMutating(route.method)
          ? {
              [IDEMPOTENT_REPLAY_HEADER]: header(
                '`true` when this is the stored response of an earlier request with the same Idempotency-Key.',
              ),
            }
          : {}),
      },
      content: {
        'application/json': {
          schema: dataSchema,
          ...(responseExample === undefined
            ? {}
            : { example: { data: responseExample, meta: { request_id: EXAMPLE_REQUEST_ID } } }),
        },
      },
    };
  }
  for (const status of new Set([...route.errorStatuses, 503])) {
    const codes = codesOfOperation(route, status);
    const headers: Record<string, unknown> = { ...COMMON_HEADERS };
    if (status !== 401) Object.assign(headers, RATE_LIMIT_HEADERS);
    if (status === 429)
      headers['Retry-After'] = header('Seconds to wait before retrying.', { type: 'integer' });
    if (status === 503)
      headers['Retry-After'] = header('With `service_unavailable`: seconds to wait before retrying.', {
        type: 'integer',
      });
    if (status === 401) headers['WWW-Authenticate'] = header('`Bearer realm="casescreen"`.');
    responses[String(status)] = {
      description: errorDescription(codes),
      headers,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorEnvelope' },
          examples: errorExamples(codes),
        },
      },
    };
  }
  const scopes = route.scopes.map((scope) => `\`${scope}\``).join(' or ');
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [route.description, `Scope: ${scopes}${scopeConditions(route)}.`]
      .filter(Boolean)
      .join('\n\n'),
    tags: [route.tag],
    parameters: [
      ...parameters(collector, route.params, 'path'),
      ...parameters(collector, route.query, 'query'),
      ...(isMutating(route.method) ? [IDEMPOTENCY_HEADER] : []),
    ],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: collector.convert(route.body, 'input'),
                ...(bodyExample === undefined ? {} : { example: bodyExample }),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** `/v1/cases/:case_reference` → `/v1/cases/{case_reference}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

/** The OpenAPI 3.1 document of the given routes, generated from the schemas that validate them. */
export function buildOpenApiDocument(routes: readonly ApiRoute[]) {
  const collector = new SchemaCollector();
  collector.convert(ErrorEnvelope, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(collector, route) };
  }
  const webhooks = webhookPathItems((schema) => collector.convert(schema, 'output'));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Case Screening Service API',
      version: API_VERSION,
      description: [
        'Server-to-server compliance screening: cases, asynchronous sanctions, PEP and business-risk checks, match reviews, decisions, materials, case events and monitoring. Every response carries `X-Request-Id` and `Service-Api-Version`; errors use the envelope `{error: {code, message, details}, meta: {request_id}}`.',
        WEBHOOKS_INTRODUCTION,
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    webhooks,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key issued by `casescreen keys create`: `Authorization: Bearer <API_KEY>`.',
        },
      },
      schemas: collector.components,
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
