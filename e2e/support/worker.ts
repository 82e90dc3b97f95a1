import { join } from 'node:path';

/**
 * Each Playwright worker has a service of its own: its own port and data directory, so specs in
 * different workers never see each other's decisions, receipts or keys (reconciliation checks a whole
 * organization's books). The slot is Playwright's parallel index (0 … workers − 1), which a worker
 * started after a failure keeps: it finds its predecessor's service and data, as one worker did before.
 * This module reads only the environment, so the config, the global setup, the workers and the specs
 * (through `E2E_DATA` and the helpers in `service.ts`) agree without a fixture.
 */
const BASE_PORT = Number(process.env.E2E_PORT ?? 8788);

/** The slot of this process: the worker's parallel index, 0 in the runner. */
export const workerSlot = (): number => Number(process.env.TEST_PARALLEL_INDEX ?? 0);

export const slotPort = (slot: number): number => BASE_PORT + slot;

export const slotDataDir = (slot: number): string => join('.e2e-data', `w${slot}`);

export const slotURL = (slot: number): string => `http://127.0.0.1:${slotPort(slot)}`;
