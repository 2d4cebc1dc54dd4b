import { Validator } from '@seriousme/openapi-schema-validator';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { EventStore } from '../eventStore/eventStore.js';
import { API_ERROR_CODES, API_ERROR_STATUS } from '../http/errors.js';
import { publicRoutes } from './apiServer.js';
import { buildOpenApiDocument } from './openapi.js';

// The handlers never run here: the document is built from the routes' contracts alone.
const routes = publicRoutes({ pool: {} as pg.Pool, store: {} as EventStore, sourceStaleAfterMs: 0 });
const document = buildOpenApiDocument(routes);
const json = JSON.parse(JSON.stringify(document)) as Record<string, unknown>;

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 in the default dialect, which the reference page renders without a warning', async () => {
    const validation = await new Validator().validate(json as never);
    expect(validation.errors ?? []).toEqual([]);
    expect(validation.valid).toBe(true);
    // Swagger UI warns about any other jsonSchemaDialect; zod's 2020-12 output needs no other.
    expect(json).not.toHaveProperty('jsonSchemaDialect');
  });

  it('lists every error code with its status in the error envelope', () => {
    const envelope = (json.components as { schemas: Record<string, unknown> }).schemas.ErrorEnvelope as {
      properties: { error: { properties: { code: { enum: string[]; description: string } } } };
    };
    const code = envelope.properties.error.properties.code;
    expect(code.enum).toEqual(API_ERROR_CODES);
    for (const name of API_ERROR_CODES) {
      expect(code.description).toContain(`| \`${name}\` | ${API_ERROR_STATUS[name]} |`);
    }
  });
});
