import { z } from 'zod/mini';
import { ALL_LANGS } from './lang';

/** The logged-in user as every answer that carries it shows it (and as the client keeps it between visits). */
export const user = z.object({
  id: z.number(),
  username: z.string(),
  email: z.nullable(z.string()),
  mobile: z.nullable(z.string()),
  area_code: z.nullable(z.string()),
  invite_code: z.string(),
  lang: z.enum(ALL_LANGS),
  has_fund_password: z.boolean(),
  created_at: z.number(),
});
export type User = z.infer<typeof user>;
