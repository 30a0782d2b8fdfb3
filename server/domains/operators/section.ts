import type { z } from 'zod/mini';
import type { Lang } from '../../../protocol/lang';
import type { OpsCallSpec, OpsCallTable, OpsRole } from '../../../protocol/ops-console';
import type { OperatorPrincipal } from './principal';
import type { OpsViewEntry } from './views';

/*
 * What a console section is (a domain's console calls, handed to the console through the domain contract), apart from
 * the console that serves them (console.ts): the contract names these types without reaching the console's services.
 */

export interface OpsCallContext {
  lang: Lang;
  ip: string;
  /** The signed-in operator; null only in `public` calls (the login). */
  operator: OperatorPrincipal | null;
  sessionId: number | null;
}

/** For calls that need a session: the operator the gate already checked. */
export function requireOperator(ctx: OpsCallContext): { operator: OperatorPrincipal; sessionId: number } {
  if (!ctx.operator || ctx.sessionId === null) throw new Error('an operator call ran without its session');
  return { operator: ctx.operator, sessionId: ctx.sessionId };
}

export type OpsHandler<S extends OpsCallSpec> = (
  input: z.output<S['request']>,
  ctx: OpsCallContext,
) => Promise<z.input<S['response']>>;

/** One handler per call of a table: a call added to the table without a handler fails the type check. */
export type OpsHandlers<T extends OpsCallTable> = { [P in keyof T]: OpsHandler<T[P]> };

/**
 * What a call that shows users' data records when it answers (the operator and time are added): changes are audited
 * by their services in their own transaction; reads say here what they showed.
 */
export type OpsViews<T extends OpsCallTable> = {
  [P in keyof T]?: (input: z.output<T[P]['request']>, result: z.input<T[P]['response']>) => OpsViewEntry;
};

/** A module's console calls: its table (protocol/) and their handlers, and the images it shows operators. */
export interface OpsSection {
  table: OpsCallTable;
  handlers: Readonly<Record<string, (input: unknown, ctx: OpsCallContext) => Promise<unknown>>>;
  images?: readonly OpsImageRoute[];
  views?: Readonly<Record<string, (input: unknown, result: unknown) => OpsViewEntry>>;
}

/**
 * An image route of a section (GET /api/<path>): `image` says which upload the query names and what showing it
 * reveals (the audit view: whose image of what), or null when it names none the role may see (answered like a missing
 * one). Users' photos are their data: a shown image is recorded like the other reads, once per session and image.
 */
export interface OpsImageRoute {
  path: string;
  access: OpsRole;
  image(query: Record<string, unknown>): Promise<OpsImage | null>;
}

/** The upload an image route shows and the audit view of showing it. */
export interface OpsImage {
  uploadId: number;
  view: OpsViewEntry;
}

export const opsSection = <T extends OpsCallTable>(
  table: T,
  handlers: OpsHandlers<T>,
  images: readonly OpsImageRoute[] = [],
  views: OpsViews<T> = {},
): OpsSection => ({
  table,
  handlers: handlers as unknown as OpsSection['handlers'],
  images,
  views: views as unknown as NonNullable<OpsSection['views']>,
});
