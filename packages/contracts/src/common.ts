import { z } from 'zod';

/** Body of every 4xx/5xx answer. `errors` is present on 422 only: field → list of messages. */
export const errorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  error_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 100;

export const idParam = z.coerce.number().int().positive();

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  // Larger pages are capped, not refused: a client asking for 1000 rows gets 100 and sees per_page: 100.
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_PER_PAGE)
    .transform((n) => Math.min(n, MAX_PER_PAGE)),
});

export const sortDirection = z
  .string()
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(['ASC', 'DESC']));

/** The list envelope of every paged answer. */
export function paged<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    current_page: z.number().int(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
  });
}
export type Paged<T> = {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
};

export const messageBody = z.object({ message: z.string() });
