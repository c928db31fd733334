import type { Validation } from '../domain/resource/decider.js';
import { nonObjectLocalizables } from '../domain/resource/localizable.js';
import { schema } from '../domain/schema/decider.js';
import type { CommandBus } from './command-bus.js';
import type { DataValidator } from './data-validator.js';
import { streams } from './streams.js';

/**
 * Checks a payload against the collection's published schema, read from the schema stream:
 * localizable fields first, then ajv. `wanted` false: not validated (errors null).
 */
export async function validation(bus: CommandBus, validator: DataValidator, folder: string, data: unknown, wanted: boolean): Promise<Validation> {
  const { state } = await bus.load(schema, streams.schema(folder));
  if (state.published === null || state.publishedSchema === null) return { schema_version: null, errors: null, localizable: [] };
  if (!wanted) return { schema_version: state.published, errors: null, localizable: [] };
  const localizable = nonObjectLocalizables(state.publishedSchema, data);
  if (localizable.length > 0) return { schema_version: state.published, errors: [], localizable };
  return { schema_version: state.published, errors: validator.validate(state.published, state.publishedSchema, data), localizable };
}

export const payloadSize = (data: unknown): number => Buffer.byteLength(JSON.stringify(data));
