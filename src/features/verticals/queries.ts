import { queryOptions } from '@tanstack/react-query';
import { clientFor, publicQueryKey, type Connection } from '../../data';

/** Simulated verticals (spec 4.3): public, cached per base URL. */
export const verticalsQuery = (connection: Connection | null) =>
  queryOptions({
    queryKey: [...publicQueryKey(connection), 'verticals'],
    queryFn: ({ signal }) => clientFor(connection).listVerticals(signal),
    staleTime: 60_000,
  });
