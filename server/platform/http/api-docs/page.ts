import { isObject, type JsonObject, objectFields } from './json-schema';

/**
 * The reference page at /api/docs: the two generated documents drawn as HTML on the server, so it needs no script,
 * no stylesheet from elsewhere and no network. Every text that comes from a schema is escaped.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** A value inside a document, by its keys; undefined where any step is missing. */
function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (Array.isArray(current) && /^\d+$/.test(key)) current = current[Number(key)];
    else if (isObject(current)) current = current[key];
    else return undefined;
  }
  return current;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** A schema's type in a few words: `string`, `"buy" | "sell"`, `array of object`, `integer | null`. */
function typeOf(schema: JsonObject): string {
  if ('const' in schema) return text(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(text).join(' | ');
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (variants) return variants.map((v) => (isObject(v) ? typeOf(v) : '?')).join(' | ');
  if (schema.type === 'array') return `array of ${isObject(schema.items) ? typeOf(schema.items) : 'any'}`;
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.map(text).join(' | ');
  return 'any';
}

const RULES = ['pattern', 'format', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'default'];
/** The checks a schema states, as `maxLength 40, pattern ^\d+$`. */
function rulesOf(schema: JsonObject): string {
  return RULES.filter((rule) => rule in schema && !isHugeBound(schema[rule]))
    .map((rule) => `${rule} ${text(schema[rule])}`)
    .join(', ');
}
/** zod states every integer's safe range; saying so on each field would hide the bounds that matter. */
const isHugeBound = (value: unknown) => typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER;

/** The object whose fields a schema shows: itself, its array's items, or its one object variant. */
function fieldsHolder(schema: JsonObject): JsonObject | null {
  if (isObject(schema.properties)) return schema;
  if (schema.type === 'array' && isObject(schema.items)) return fieldsHolder(schema.items);
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : [];
  const objects = variants.filter((v): v is JsonObject => isObject(v) && isObject(v.properties));
  return objects.length === 1 ? (objects[0] ?? null) : null;
}

/** A table of an object schema's fields, nested objects within their row; variants one table each. */
function fieldsTable(schema: JsonObject, depth = 0): string {
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isObject) : [];
  if (!isObject(schema.properties) && variants.filter((v) => isObject(v.properties)).length > 1) {
    return variants.map((v, i) => `<p class="variant">one of (${i + 1})</p>${fieldsTable(v, depth)}`).join('');
  }
  const holder = fieldsHolder(schema);
  if (!holder) return `<p class="type">${escapeHtml(typeOf(schema))}</p>`;
  const { properties, required } = objectFields(holder);
  const names = Object.keys(properties);
  if (names.length === 0) return '<p class="none">no fields</p>';
  const rows = names.map((name) => {
    const field = properties[name] ?? {};
    const nested = depth < 3 ? fieldsHolder(field) : null;
    return (
      `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(typeOf(field))}</td>` +
      `<td>${required.has(name) ? 'yes' : ''}</td><td>${escapeHtml(rulesOf(field))}` +
      `${nested && nested !== schema ? fieldsTable(field, depth + 1) : ''}</td></tr>`
    );
  });
  return (
    '<table><thead><tr><th>field</th><th>type</th><th>required</th><th>rules</th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody></table>`
  );
}

const anchor = (id: string) => escapeHtml(id.replace(/[^A-Za-z0-9_-]+/g, '-'));

interface Operation {
  method: string;
  path: string;
  operation: JsonObject;
}

function operationsOf(openapi: JsonObject): Operation[] {
  const paths = isObject(openapi.paths) ? openapi.paths : {};
  return Object.entries(paths).flatMap(([path, item]) =>
    isObject(item)
      ? Object.entries(item).flatMap(([method, operation]) =>
          isObject(operation) ? [{ method: method.toUpperCase(), path, operation }] : [],
        )
      : [],
  );
}

function requestFields(operation: JsonObject): string {
  const body = at(operation, 'requestBody', 'content', 'application/x-www-form-urlencoded', 'schema');
  if (isObject(body)) return fieldsTable(body);
  const multipart = at(operation, 'requestBody', 'content', 'multipart/form-data', 'schema');
  if (isObject(multipart)) return fieldsTable(multipart);
  const query = Array.isArray(operation.parameters)
    ? operation.parameters.filter((p): p is JsonObject => isObject(p) && p.in === 'query')
    : [];
  const properties = Object.fromEntries(query.map((p) => [text(p.name), isObject(p.schema) ? p.schema : {}]));
  const required = query.filter((p) => p.required === true).map((p) => text(p.name));
  return fieldsTable({ type: 'object', properties, required });
}

function answerFields(operation: JsonObject): string {
  const data = at(
    operation,
    'responses',
    '200',
    'content',
    'application/json',
    'schema',
    'oneOf',
    '0',
    'properties',
    'data',
  );
  if (isObject(data)) return fieldsTable(data);
  return `<p class="type">${escapeHtml(text(at(operation, 'responses', '200', 'description') ?? ''))}</p>`;
}

function access(operation: JsonObject): string {
  if (typeof operation['x-ops-access'] === 'string') return `console: ${operation['x-ops-access']}`;
  return operation['x-session'] === 'required' ? 'session required' : 'no session needed';
}

function callsSection(openapi: JsonObject): { toc: string; body: string } {
  const byTag = new Map<string, Operation[]>();
  for (const op of operationsOf(openapi)) {
    const tag = text(at(op.operation, 'tags', '0') ?? 'other');
    byTag.set(tag, [...(byTag.get(tag) ?? []), op]);
  }
  const toc: string[] = [];
  const body: string[] = [];
  for (const [tag, ops] of byTag) {
    toc.push(`<li><a href="#tag-${anchor(tag)}">${escapeHtml(tag)}</a> (${ops.length})</li>`);
    body.push(`<h2 id="tag-${anchor(tag)}">${escapeHtml(tag)}</h2>`);
    for (const { method, path, operation } of ops) {
      const description =
        typeof operation.description === 'string' ? `<p>${escapeHtml(operation.description)}</p>` : '';
      body.push(
        `<section class="call" id="${anchor(`${method}-${path}`)}"><h3><span class="method">${escapeHtml(method)}</span> ` +
          `<code>${escapeHtml(path)}</code> <small>${escapeHtml(access(operation))}</small></h3>${description}` +
          `<h4>Request</h4>${requestFields(operation)}<h4>Answer <code>data</code></h4>${answerFields(operation)}</section>`,
      );
    }
  }
  return { toc: toc.join(''), body: body.join('') };
}

function socketSection(asyncapi: JsonObject): string {
  const channels = isObject(asyncapi.channels) ? asyncapi.channels : {};
  const parts = Object.entries(channels).map(([key, channel]) => {
    if (!isObject(channel)) return '';
    const messages = isObject(channel.messages) ? channel.messages : {};
    const event = text(channel['x-socketio-event'] ?? '');
    const shown = Object.entries(messages).map(([name, message]) => {
      const schema = at(message, 'payload');
      return `<h4>${escapeHtml(name)}</h4>${isObject(schema) ? fieldsTable(schema) : ''}`;
    });
    return (
      `<section class="call" id="socket-${anchor(key)}"><h3><code>${escapeHtml(text(channel.title ?? channel.address))}</code> ` +
      `<small>event ${escapeHtml(event)}, address ${escapeHtml(text(channel.address))}</small></h3>` +
      `<p>${escapeHtml(text(channel.summary ?? ''))}</p>${shown.join('')}</section>`
    );
  });
  return parts.join('');
}

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem;color:#1b1f24;background:#fff}
code{font:13px ui-monospace,monospace}h2{margin-top:2.5rem;border-bottom:1px solid #ccd}
.call{border:1px solid #dde;border-radius:6px;padding:.25rem .75rem;margin:.75rem 0}
.method{display:inline-block;min-width:3.5rem;font:600 12px ui-monospace,monospace;color:#fff;background:#345;
border-radius:3px;padding:2px 6px;text-align:center}small{color:#556;font-weight:400}
table{border-collapse:collapse;width:100%;margin:.25rem 0}td,th{border:1px solid #e3e3ea;padding:2px 6px;
text-align:left;vertical-align:top;overflow-wrap:anywhere}th{background:#f4f5f8}nav ul{columns:4 12rem}.variant,.none,.type{color:#556}
@media (prefers-color-scheme:dark){body{background:#111418;color:#e6e8eb}th{background:#1d222a}
td,th,.call{border-color:#2c323c}small,.variant,.none,.type{color:#9aa3ad}}`;

/** The whole page. `reasons`: every error key with its English message. */
export function renderReferencePage(
  openapi: JsonObject,
  asyncapi: JsonObject,
  reasons: readonly (readonly [string, string])[],
): string {
  const calls = callsSection(openapi);
  const reasonRows = reasons
    .map(([key, message]) => `<tr><td><code>${escapeHtml(key)}</code></td><td>${escapeHtml(message)}</td></tr>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(text(at(openapi, 'info', 'title')))} reference</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(text(at(openapi, 'info', 'title')))} ${escapeHtml(text(at(openapi, 'info', 'version')))}</h1>
<p>${escapeHtml(text(at(openapi, 'info', 'description')))}</p>
<p>${escapeHtml(text(at(asyncapi, 'info', 'description')))}</p>
<p>Machine-readable: <a href="/api/docs/openapi.json">OpenAPI 3.1</a> (calls),
<a href="/api/docs/asyncapi.json">AsyncAPI 3.0</a> (socket).</p>
<nav><h2>Calls</h2><ul>${calls.toc}</ul><p><a href="#socket">Socket topics and commands</a> ·
<a href="#reasons">Refusal reasons</a></p></nav>
<main>${calls.body}<h2 id="socket">Socket topics and commands</h2>${socketSection(asyncapi)}
<h2 id="reasons">Refusal reasons</h2><p>An error envelope's <code>reason</code> (and a command's
<code>error</code>) is one of these keys; <code>message</code> is its text in the <code>lang</code> language
(English here).</p><table><thead><tr><th>reason</th><th>message (en)</th></tr></thead><tbody>${reasonRows}</tbody></table>
</main></body></html>`;
}
