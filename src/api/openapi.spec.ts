import { Validator } from '@seriousme/openapi-schema-validator';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { invalidExamples, missingExamples } from '../../test/support/openApiExamples.js';
import type { EventStore } from '../eventStore/eventStore.js';
import { API_ERROR_CODES, API_ERROR_STATUS } from '../server/errors.js';
import { systemClock } from '../shared/clock.js';
import { publicRoutes } from './apiServer.js';
import { dataEnvelope, ErrorEnvelope } from './commonSchemas.js';
import { buildOpenApiDocument, openApiPath } from './openapi.js';

// The handlers never run here: the document is built from the routes' contracts alone.
const routes = publicRoutes({
  pool: {} as pg.Pool,
  store: {} as EventStore,
  sourceStaleAfterMs: 0,
  clock: systemClock,
});
const document = buildOpenApiDocument(routes);
const json = JSON.parse(JSON.stringify(document)) as Record<string, unknown>;

interface MediaType {
  schema: unknown;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  parameters: { name: string; in: string; example?: unknown }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

function operationOf(method: string, path: string): Operation {
  const paths = json.paths as Record<string, Record<string, Operation>>;
  const operation = paths[openApiPath(path)]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${path} is not in the document`);
  return operation;
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 in the default dialect, which the reference page renders without a warning', async () => {
    const validation = await new Validator().validate(json as never);
    expect(validation.errors ?? []).toEqual([]);
    expect(validation.valid).toBe(true);
    // Swagger UI warns about any other jsonSchemaDialect; zod's 2020-12 output needs no other.
    expect(json).not.toHaveProperty('jsonSchemaDialect');
  });

  it('has an example for every component schema, required parameter, request body and response', () => {
    expect(missingExamples(json)).toEqual([]);
  });

  it('has only examples that their JSON Schemas accept', () => {
    expect(invalidExamples(json)).toEqual([]);
  });

  it("has request and response examples that the routes' own zod schemas accept, refinements included", () => {
    for (const route of routes) {
      const operation = operationOf(route.method, route.path);
      const where = `${route.method} ${route.path}`;
      if (route.body) {
        const example = operation.requestBody?.content['application/json']?.example;
        expect(route.body.safeParse(example).error?.issues ?? [], where).toEqual([]);
      }
      for (const status of route.successStatuses) {
        const example = operation.responses[String(status)]?.content?.['application/json']?.example;
        expect(dataEnvelope(route.response).safeParse(example).error?.issues ?? [], where).toEqual([]);
      }
      for (const parameter of operation.parameters.filter((p) => p.in === 'path')) {
        const field = (
          route.params as unknown as { shape: Record<string, { safeParse(v: unknown): unknown }> }
        ).shape[parameter.name];
        expect(field?.safeParse(parameter.example), `${where} ${parameter.name}`).toMatchObject({
          success: true,
        });
      }
    }
  });

  it('lists every error code with its status, and gives each error response examples of its own codes only', () => {
    const envelope = (json.components as { schemas: Record<string, unknown> }).schemas.ErrorEnvelope as {
      properties: { error: { properties: { code: { enum: string[]; description: string } } } };
    };
    const code = envelope.properties.error.properties.code;
    expect(code.enum).toEqual(API_ERROR_CODES);
    for (const name of API_ERROR_CODES) {
      expect(code.description).toContain(`| \`${name}\` | ${API_ERROR_STATUS[name]} |`);
    }

    const seen = new Set<string>();
    for (const route of routes) {
      const operation = operationOf(route.method, route.path);
      for (const status of route.errorStatuses) {
        const examples = operation.responses[String(status)]?.content?.['application/json']?.examples ?? {};
        const codes = Object.values(examples).map((example) => {
          expect(ErrorEnvelope.safeParse(example.value).success).toBe(true);
          return (example.value as { error: { code: keyof typeof API_ERROR_STATUS } }).error.code;
        });
        expect(codes.length, `${route.method} ${route.path} ${status}`).toBeGreaterThan(0);
        for (const name of codes) {
          expect(API_ERROR_STATUS[name]).toBe(status);
          seen.add(name);
        }
      }
    }
    // 409 shows both of its codes.
    expect(seen).toContain('idempotency_conflict');
    expect(seen).toContain('conflict');
  });

  it('shows POST /v1/cases answering with queued checks, and GET /v1/cases/{ref} with a screened case', () => {
    const created = operationOf('POST', '/v1/cases').responses['201']?.content?.['application/json']
      ?.example as { data: { checks: { lifecycle_status: string }[] } };
    expect(created.data.checks.map((check) => check.lifecycle_status)).toEqual(['queued']);
    const read = operationOf('GET', '/v1/cases/:case_reference').responses['200']?.content?.[
      'application/json'
    ]?.example as { data: { checks: { lifecycle_status: string; match_count: number }[] } };
    expect(read.data.checks[0]).toMatchObject({ lifecycle_status: 'completed', match_count: 1 });
  });
});
