import { z } from './zod';

/** Spec section 8, plus our decisions for usage and deliveries (docs/contract.md). */
export const LIMITS = {
  livePull: { min: 1, max: 200, default: 50 },
  simulatedPull: { min: 1, max: 200, default: 50 },
  preview: { min: 1, max: 20, default: 5 },
  usage: { min: 1, max: 200, default: 50 },
  deliveries: { min: 1, max: 200, default: 50 },
} as const;

export type LimitName = keyof typeof LIMITS;

/** Request bodies above this size are refused with 413 BODY_TOO_LARGE. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * A `limit` query parameter as it arrives on the wire (text). Anything but a plain
 * integer inside the range is rejected, never clamped: 0, 201, -1, 1.5 and `abc` all fail.
 */
export function limitParam(name: LimitName) {
  const { min, max, default: fallback } = LIMITS[name];
  const message = `limit must be an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^[0-9]{1,6}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message))
    .optional()
    .transform((value) => value ?? fallback);
}
