import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with its function as the default export.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type Json = Record<string, unknown>;

const COMPONENTS_URI = 'https://casescreen.invalid/openapi/components/schemas/';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `#/components/schemas/Case` → an absolute URI ajv knows, so any schema of the document compiles alone. */
function absoluteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(absoluteRefs);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) =>
      key === '$ref' && typeof item === 'string'
        ? [key, item.replace('#/components/schemas/', COMPONENTS_URI)]
        : [key, absoluteRefs(item)],
    ),
  );
}

interface Example {
  where: string;
  value: unknown;
  schema: Json;
}

/**
 * Every example of an OpenAPI 3.1 document with the schema it illustrates: `examples` arrays of
 * Schema Objects (an array there, a map everywhere else), and `example` and the `examples` map of
 * Media Type and Parameter Objects against their `schema`.
 */
function examplesOf(node: unknown, where: string, found: Example[] = []): Example[] {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) examplesOf(item, `${where}/${index}`, found);
    return found;
  }
  if (!isObject(node)) return found;
  if (Array.isArray(node.examples)) {
    node.examples.forEach((value, index) => {
      found.push({ where: `${where}/examples/${index}`, value, schema: node });
    });
  }
  if (isObject(node.schema)) {
    const schema = node.schema;
    if ('example' in node) found.push({ where: `${where}/example`, value: node.example, schema });
    if (isObject(node.examples)) {
      for (const [name, example] of Object.entries(node.examples)) {
        found.push({ where: `${where}/examples/${name}`, value: (example as Json).value, schema });
      }
    }
  }
  for (const [key, child] of Object.entries(node)) {
    if (key !== 'examples' && key !== 'example') examplesOf(child, `${where}/${key}`, found);
  }
  return found;
}

/**
 * A validator of values against the schemas of `document` (JSON Schema 2020-12, formats checked,
 * `$ref`s to its components resolved): each call answers ajv's reasons, none when the value fits.
 */
export function schemaValidator(document: Json): (schema: Json, value: unknown) => string[] {
  // strictTypes off: zod puts `format` beside a nullable's anyOf, which is valid JSON Schema.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv);
  const components = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  for (const [name, schema] of Object.entries(components)) {
    const { examples: _examples, ...rest } = schema;
    ajv.addSchema({ ...(absoluteRefs(rest) as Json), $id: `${COMPONENTS_URI}${name}` });
  }
  const compiled = new Map<Json, ValidateFunction>();
  return (schema, value) => {
    let validate = compiled.get(schema);
    if (!validate) {
      const { examples: _examples, ...rest } = schema;
      validate = ajv.compile(absoluteRefs(rest) as Json);
      compiled.set(schema, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}

/**
 * Each example of the document that its schema refuses, with ajv's reasons. A document without
 * examples passes: check `missingExamples` as well.
 */
export function invalidExamples(document: Json): string[] {
  const validate = schemaValidator(document);
  const problems: string[] = [];
  for (const { where, value, schema } of examplesOf(document, '#')) {
    const reasons = validate(schema, value);
    if (reasons.length > 0) problems.push(`${where}: ${reasons.join('; ')}`);
  }
  return problems;
}

/**
 * Where the document lacks an example: a component schema, a parameter, a request body or a
 * response without one, in `paths` and in `webhooks` (keyed by event type).
 */
export function missingExamples(document: Json): string[] {
  const missing: string[] = [];
  const components = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  for (const [name, schema] of Object.entries(components)) {
    if (!Array.isArray(schema.examples) || schema.examples.length === 0) {
      missing.push(`#/components/schemas/${name}`);
    }
  }
  const mediaTypeHasExample = (mediaType: Json) =>
    'example' in mediaType || (isObject(mediaType.examples) && Object.keys(mediaType.examples).length > 0);
  const pathItems = [
    ...Object.entries(document.paths as Record<string, Json>),
    ...Object.entries((document.webhooks ?? {}) as Record<string, Json>),
  ];
  for (const [path, item] of pathItems) {
    for (const method of METHODS.filter((m) => m in item)) {
      const operation = item[method] as Json;
      const where = `${method.toUpperCase()} ${path}`;
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (parameter.required && !('example' in parameter)) {
          missing.push(`${where} parameter ${String(parameter.name)}`);
        }
      }
      const body = operation.requestBody as Json | undefined;
      for (const [type, mediaType] of Object.entries((body?.content ?? {}) as Record<string, Json>)) {
        if (!mediaTypeHasExample(mediaType)) missing.push(`${where} request body ${type}`);
      }
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        for (const [type, mediaType] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
          if (!mediaTypeHasExample(mediaType)) missing.push(`${where} response ${status} ${type}`);
        }
      }
    }
  }
  return missing;
}
