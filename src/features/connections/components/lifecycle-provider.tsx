import type { ReactNode } from 'react';
import { ConnectionLifecycleContext } from '../../../data';
import { useConnectionLifecycle } from '../lifecycle';

/** Hands the one connection lifecycle to every page below (the shell wraps the app in it). */
export function ConnectionLifecycleProvider({ children }: { children: ReactNode }) {
  return <ConnectionLifecycleContext value={useConnectionLifecycle()}>{children}</ConnectionLifecycleContext>;
}
