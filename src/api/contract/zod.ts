import { z } from 'zod';

/*
 * The one place zod is imported from in src/. Zod's JIT probes new Function() when an
 * object schema is created; in browsers our Content-Security-Policy forbids eval (and
 * reports even a caught probe), so zod is configured jitless there before any schema
 * exists. The service (no window) keeps the JIT.
 */
if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
