import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
export const randomToken = (bytes: number): string => randomBytes(bytes).toString('base64url');
export const newId = (prefix: string): string => `${prefix}_${randomBytes(8).toString('hex')}`;
export const newUuid = (): string => randomUUID();
