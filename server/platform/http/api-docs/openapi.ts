import { z } from 'zod/mini';
import type { CallSpec, CallTable } from '../../../../protocol/call-spec';
import { errorEnvelope, okEnvelope, sessionExpiredEnvelope } from '../../../../protocol/envelope';
import { ALL_LANGS } from '../../../../protocol/lang';
import {
  OPS_DEPOSIT_PROOF_PATH,
  OPS_KYC_PHOTO_PATH,
  type OpsCallSpec,
  opsConsoleCalls,
  opsIdRequest,
  opsKycPhotoRequest,
} from '../../../../protocol/ops-console';
import { opsInspectionCalls } from '../../../../protocol/ops-inspection';
import { opsNewsCalls } from '../../../../protocol/ops-news';
import {
  OPS_ORDER_IMAGE_PATH,
  OPS_SUPPORT_IMAGE_PATH,
  OPS_UPLOAD_PATH,
  opsAppealCalls,
  opsHelpCalls,
  opsSupportCalls,
} from '../../../../protocol/ops-support';
import {
  MAX_UPLOAD_BYTES,
  UPLOAD_FILE_PATH,
  UPLOAD_IMAGE_PATH,
  UPLOAD_MIMES,
  uploadResponse,
} from '../../../../protocol/uploads';
import { type JsonObject, jsonSchemaOf, objectFields } from './json-schema';

/** The console's calls, each table as its domain registers it (their own scope, header and roles). */
export const opsCalls: Readonly<Record<string, OpsCallSpec>> = {
  ...opsConsoleCalls,
  ...opsSupportCalls,
  ...opsAppealCalls,
  ...opsHelpCalls,
  ...opsNewsCalls,
  ...opsInspectionCalls,
};

export interface DocsInfo {
  version: string;
  /** Every key `reason` can take (the errors table). */
  reasons: readonly string[];
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: JsonObject) => ({ 'application/json': { schema } });

/** The tag of a call: its area, the first part of its path (`ops` calls by their second). */
const tagOf = (path: string): string => {
  const [first = path, second] = path.split('/');
  // The account's oldest calls (SPEC 7's email_send, area_code, ...) have no area in their path.
  if (second === undefined) return 'account';
  return first === 'ops' ? `ops/${second}` : first;
};

const operationId = (method: string, path: string) => `${method.toLowerCase()}_${path.replace(/[^A-Za-z0-9]+/g, '_')}`;

const LANG_PARAMETER = { $ref: '#/components/parameters/lang' };

/**
 * Fields as OpenAPI wants them: query parameters for a GET (the router reads its form from the query string), a
 * form-encoded body otherwise (a JSON body of strings and booleans is read the same way). Every call takes `lang`.
 */
function requestParts(method: string, request: z.ZodMiniType): JsonObject {
  const schema = jsonSchemaOf(request, 'input');
  if (method === 'GET') {
    const { properties, required } = objectFields(schema);
    const query = Object.entries(properties).map(([name, field]) => ({
      name,
      in: 'query',
      required: required.has(name),
      schema: field,
    }));
    return { parameters: [LANG_PARAMETER, ...query] };
  }
  return {
    parameters: [LANG_PARAMETER],
    requestBody: {
      required: objectFields(schema).required.size > 0,
      content: {
        'application/x-www-form-urlencoded': { schema },
        // A JSON number has lost its exact text by the time it is parsed, so only strings and booleans are read.
        'application/json': { schema },
      },
    },
  };
}

/** Every answer of a call: the ok envelope with its data, a refusal, and (with a session) the 999 envelope. */
function responses(response: z.ZodMiniType, sessionChecked: boolean): JsonObject {
  const answers: JsonObject[] = [jsonSchemaOf(okEnvelope(response), 'output'), ref('ErrorEnvelope')];
  if (sessionChecked) answers.push(ref('SessionExpiredEnvelope'));
  return {
    '200': {
      description:
        'The envelope: `ok` with the data; `error` with the message in the `lang` language and its `reason` key' +
        (sessionChecked ? '; type 999 without a live session' : ''),
      content: jsonContent({ oneOf: answers }),
    },
    '400': {
      description: 'A body that is no form at all (bodyMalformed, bodyTooDeep, jsonNumberRefused)',
      content: jsonContent(ref('ErrorEnvelope')),
    },
  };
}

function userCall(path: string, spec: CallSpec): JsonObject {
  return {
    operationId: operationId(spec.method, path),
    tags: [tagOf(path)],
    summary: path,
    // A call without `auth` still uses a session when one is sent (favourites, read flags).
    security: spec.auth ? [{ session: [] }] : [{}, { session: [] }],
    ...requestParts(spec.method, spec.request),
    responses: responses(spec.response, spec.auth),
    'x-session': spec.auth ? 'required' : 'optional',
  };
}

function opsCallOperation(path: string, spec: OpsCallSpec): JsonObject {
  return {
    operationId: operationId(spec.method, path),
    tags: [tagOf(path)],
    summary: path,
    security: spec.access === 'public' ? [] : [{ opsSession: [] }],
    ...requestParts(spec.method, spec.request),
    responses: responses(spec.response, spec.access !== 'public'),
    'x-ops-access': spec.access,
  };
}

interface FileRoute {
  path: string;
  /** undefined: a user's session; else the console role. */
  opsAccess?: OpsCallSpec['access'];
  description: string;
}

const securityOf = (route: FileRoute) =>
  route.opsAccess === undefined
    ? { security: [{ session: [] }], 'x-session': 'required' }
    : { security: [{ opsSession: [] }], 'x-ops-access': route.opsAccess };

/** A multipart upload of one image, answered in the envelope. */
function uploadOperation(route: FileRoute): JsonObject {
  return {
    operationId: operationId('POST', route.path),
    tags: [tagOf(route.path)],
    summary: route.path,
    description: route.description,
    parameters: [LANG_PARAMETER],
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
            required: ['file'],
          },
        },
      },
    },
    responses: responses(uploadResponse, true),
    ...securityOf(route),
  };
}

/** An image's bytes, or the same 404 for a missing image and one the caller may not see. */
function imageOperation(route: FileRoute, query: z.ZodMiniType): JsonObject {
  return {
    operationId: operationId('GET', route.path),
    tags: [tagOf(route.path)],
    summary: route.path,
    description: route.description,
    ...requestParts('GET', query),
    responses: {
      '200': {
        description: 'The image',
        content: Object.fromEntries(
          UPLOAD_MIMES.map((mime) => [mime, { schema: { type: 'string', contentMediaType: mime } }]),
        ),
      },
      '404': {
        description: 'No such image, or not one the caller may see',
        content: jsonContent(ref('ErrorEnvelope')),
      },
    },
    ...securityOf(route),
  };
}

const imageIdField = z.string().check(z.regex(/^[1-9]\d{0,11}$/));
/** A conversation's image: the conversation and the image's upload id. */
const conversationImageQuery = z.object({ conversation: imageIdField, id: imageIdField });

/** Uploads and image reads: routes of their own beside the call tables (multipart in, bytes out). */
function fileRoutes(): Record<string, JsonObject> {
  const image = `One image (${UPLOAD_MIMES.join(', ')}, told by its first bytes) of at most ${MAX_UPLOAD_BYTES} bytes`;
  const get = (route: FileRoute, query: z.ZodMiniType) => ({ get: imageOperation(route, query) });
  return {
    [`/api/${UPLOAD_IMAGE_PATH}`]: { post: uploadOperation({ path: UPLOAD_IMAGE_PATH, description: `${image}.` }) },
    [`/api/${UPLOAD_FILE_PATH}`]: get(
      { path: UPLOAD_FILE_PATH, description: "An image's bytes, to its owner (and a chat's members) only." },
      z.object({ id: imageIdField }),
    ),
    [`/api/${OPS_UPLOAD_PATH}`]: {
      post: uploadOperation({
        path: OPS_UPLOAD_PATH,
        opsAccess: 'support',
        description: `${image}, owned by the platform until ops/support/send attaches it to a conversation.`,
      }),
    },
    [`/api/${OPS_KYC_PHOTO_PATH}`]: get(
      {
        path: OPS_KYC_PHOTO_PATH,
        opsAccess: 'reviewer',
        description: 'A photo of an identity verification under review.',
      },
      opsKycPhotoRequest,
    ),
    [`/api/${OPS_DEPOSIT_PROOF_PATH}`]: get(
      {
        path: OPS_DEPOSIT_PROOF_PATH,
        opsAccess: 'reviewer',
        description: "A deposit's proof while it is under review.",
      },
      opsIdRequest,
    ),
    [`/api/${OPS_SUPPORT_IMAGE_PATH}`]: get(
      { path: OPS_SUPPORT_IMAGE_PATH, opsAccess: 'support', description: 'A photo in a support conversation.' },
      conversationImageQuery,
    ),
    [`/api/${OPS_ORDER_IMAGE_PATH}`]: get(
      {
        path: OPS_ORDER_IMAGE_PATH,
        opsAccess: 'reviewer',
        description: "A photo in an order's chat while its appeal is open.",
      },
      conversationImageQuery,
    ),
  };
}

/** OpenAPI 3.1 of every /api route: the composed call table (every domain's), the support console's calls, uploads and image reads. */
export function buildOpenApi(info: DocsInfo, calls: CallTable): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  const add = (path: string, method: string, operation: JsonObject) => {
    paths[`/api/${path}`] = { ...paths[`/api/${path}`], [method.toLowerCase()]: operation };
  };
  for (const [path, spec] of Object.entries(calls)) add(path, spec.method, userCall(path, spec));
  for (const [path, spec] of Object.entries(opsCalls)) add(path, spec.method, opsCallOperation(path, spec));
  const error = z.extend(errorEnvelope, {
    reason: z.enum(info.reasons),
    data: z.optional(z.record(z.string(), z.unknown())),
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tradewave API',
      version: info.version,
      description:
        'Every call is /api/<path> with its fields as a form (GET: the query string) and its answer in the envelope. ' +
        'Decimal amounts are strings, never JSON numbers. Requests carry `Authorization: <token>` (a session from ' +
        'user/login) and `lang`. Generated from the zod schemas of protocol/.',
    },
    servers: [{ url: '/' }],
    paths: { ...paths, ...fileRoutes() },
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The session token, as given by user/login.',
        },
        opsSession: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Ops-Token',
          description: "The support console's session token (ops/login).",
        },
      },
      parameters: {
        lang: {
          name: 'lang',
          in: 'header',
          required: false,
          description: 'The language of `message` in every answer.',
          schema: { type: 'string', enum: [...ALL_LANGS] },
        },
      },
      schemas: {
        ErrorEnvelope: jsonSchemaOf(error, 'output'),
        SessionExpiredEnvelope: jsonSchemaOf(sessionExpiredEnvelope, 'output'),
      },
    },
  };
}
