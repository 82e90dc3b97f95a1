import { createFileRoute } from '@tanstack/react-router';
import { AuditPage, auditQuery, auditSearchSchema, auditView, NotForRole } from '../../features/team';

const mayRead = (role: string | undefined) => role === 'admin' || role === 'viewer';

export const Route = createFileRoute('/team/audit')({
  validateSearch: auditSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    if (!mayRead(context.me?.role)) return undefined;
    const { filters, cursor } = auditView(deps);
    return context.queryClient.ensureQueryData(auditQuery(filters, cursor));
  },
  component: function TeamAuditRoute() {
    const { me } = Route.useRouteContext();
    const navigate = Route.useNavigate();
    const search = Route.useSearch();
    if (!me) return null;
    if (!mayRead(me.role)) return <NotForRole page="Audit" who="Admins and viewers read the audit log." />;
    return <AuditPage me={me} search={search} onSearch={(search) => void navigate({ search })} />;
  },
});
