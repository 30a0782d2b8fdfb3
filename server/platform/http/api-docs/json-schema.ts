import { z } from 'zod/mini';

/** A JSON value as the documents hold it. */
export type JsonObject = { [key: string]: unknown };

/**
 * A zod schema as JSON Schema for a published document. Requests are described as the client sends them (`input`:
 * before the transforms that turn digits into numbers), answers as the server sends them (`output`). A part zod
 * cannot express (a refinement's predicate, a custom check) becomes an open schema instead of failing the whole
 * document: the document says less there, the server still checks it.
 */
export function jsonSchemaOf(
  schema: z.ZodMiniType,
  io: 'input' | 'output',
  target: 'draft-2020-12' | 'draft-07' = 'draft-2020-12',
): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target, unrepresentable: 'any' });
  return rest;
}

/** The properties and required names of an object schema (nothing for other shapes). */
export function objectFields(schema: JsonObject): { properties: Record<string, JsonObject>; required: Set<string> } {
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, JsonObject>) : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  return { properties, required };
}

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
