import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Checks a value against a schema of an OpenAPI 3.1 document (its `#/components/schemas/...` refs resolved). */
export function responseChecker(document: Json): (schema: unknown, value: unknown) => string | null {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  const defs = ((document.components as Json).schemas ?? {}) as Json;
  const rewrite = (schema: unknown): Json => JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', '#/$defs/')) as Json;
  return (schema, value) => {
    const validate = ajv.compile({ ...rewrite(schema), $defs: rewrite(defs) });
    return validate(value) ? null : ajv.errorsText(validate.errors);
  };
}

/** The operation of a document for a method and OpenAPI path, if documented. */
export function operationOf(document: Json, method: string, path: string): Json | undefined {
  return ((document.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
}

/** The schema the document gives a response status of an operation (exact status, then `2XX`). */
export function responseSchema(operation: Json, status: number): unknown {
  const responses = operation.responses as Json;
  const entry = (responses[String(status)] ?? (status < 300 ? responses['2XX'] : responses.default)) as Json | undefined;
  const content = entry?.content as Json | undefined;
  const json = (content?.['application/json'] ?? undefined) as Json | undefined;
  return json?.schema;
}
