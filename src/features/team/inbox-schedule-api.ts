import { inboxSchedulesResponse, type InboxSchedule } from '../../api/contract/hub-inbox';
import { call } from './api';
import { LEASES_KEY } from './leases-api';

/* The team's scheduled pulls (/hub/v1/inbox/schedules): any member reads them, an admin sets one. */

/** Under the queue's key: a pull (v1.pull, inbox.*) refreshes the queue page, schedules included (src/app/live-refresh.ts). */
export const schedulesQuery = () => ({
  queryKey: [...LEASES_KEY, 'schedules'],
  queryFn: () => call(inboxSchedulesResponse, '/inbox/schedules').then((r) => r.schedules),
});

/** Sets one subscription's schedule (null: off); the answer is every schedule. */
export const setSchedule = (subscriptionId: string, everyMinutes: InboxSchedule['every_minutes']) =>
  call(inboxSchedulesResponse, `/inbox/schedules/${encodeURIComponent(subscriptionId)}`, { method: 'PUT', body: { every_minutes: everyMinutes } }).then(
    (r) => r.schedules,
  );
