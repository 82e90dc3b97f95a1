import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { LIMITS } from '../../../api/contract';
import { inputClass } from '../../../components/ui/field';
import { Time } from '../../../components/ui/time';
import { Badge, PageHeader, Panel } from '../../../components/ui/panel';
import { Breadcrumb } from '../../../components/ui/breadcrumb';
import { type Connection } from '../../../data';
import { JwtStatus } from '../../../components/connection/jwt-status';
import { PayloadViewer } from '../../../components/payload';
import { previewBlocker } from '../preview-blocker';
import { frontiersQuery, previewQuery, tasksQuery } from '../queries';
import { previewLimit } from '../search';

interface Props {
  frontierId: string;
  taskId: string;
  limit: number;
}

function PreviewList({ connection, frontierId, taskId, limit }: Props & { connection: Connection }) {
  const { data } = useSuspenseQuery(previewQuery(connection, frontierId, taskId, limit));
  if (data.length === 0) return <p className="text-sm text-slate-600">This task has no adopted submissions to preview yet.</p>;
  return (
    <ol aria-label="Preview samples" className="flex flex-col gap-4">
      {data.map((submission) => (
        <li key={submission.submission_id}>
          <Panel aria-label={`Submission ${submission.submission_id}`}>
            <div className="mb-3 flex flex-wrap items-center gap-2 text-sm">
              <h2 className="font-semibold">Submission {submission.submission_id}</h2>
              <Badge tone="info">
                Quality {submission.quality_score} ({submission.quality_grade})
              </Badge>
              <Badge>Source {submission.source}</Badge>
              <Badge>
                <Time value={submission.created_at} />
              </Badge>
              <Badge tone={submission.audit_rating >= 4 ? 'good' : submission.audit_rating <= 2 ? 'bad' : 'neutral'}>
                Audit rating {submission.audit_rating}
              </Badge>
              {submission.audit_reason && <span className="text-slate-600 dark:text-slate-400">Audit reason: {submission.audit_reason}</span>}
            </div>
            <PayloadViewer value={submission.data} baseUrl={connection.baseUrl} />
          </Panel>
        </li>
      ))}
    </ol>
  );
}

/** Task preview (spec 4.4): sample adopted submissions, with the shared payload viewer. */
export function PreviewPage({ connection, ...props }: Props & { connection: Connection | null }) {
  const navigate = useNavigate({ from: '/frontiers/$frontierId/tasks/$taskId/preview' });
  const blocker = previewBlocker(connection);
  // Names for the trail and title, from the lists the frontier pages read (cached; IDs meanwhile).
  const frontier = useQuery({ ...frontiersQuery(connection, 'all'), enabled: !!connection }).data?.find((f) => f.frontier_id === props.frontierId);
  const task = useQuery({ ...tasksQuery(connection, props.frontierId), enabled: !!connection }).data?.find((t) => t.task_id === props.taskId);
  const taskName = task?.name ?? `task ${props.taskId}`;
  // A limit out of range in the URL is named, and the nearest one shown.
  const { limit, problem } = previewLimit(props.limit);
  return (
    <div>
      <Breadcrumb
        trail={[
          { label: 'Frontiers', link: { to: '/frontiers' } },
          { label: frontier?.title ?? `Frontier ${props.frontierId}`, link: { to: '/frontiers/$frontierId', params: { frontierId: props.frontierId } } },
        ]}
        current={task?.name ?? `Task ${props.taskId}`}
      />
      <PageHeader
        title={`Preview of ${taskName}`}
        description="Sample adopted submissions of this task. Previews are not deliveries: nothing is charged."
        actions={
          <>
            {connection && !connection.hub && <JwtStatus token={connection.jwt} />}
            <label htmlFor="preview-limit" className="text-sm font-medium">
              Samples
            </label>
            <select
              id="preview-limit"
              className={inputClass}
              value={limit}
              onChange={(e) => void navigate({ search: { limit: Number(e.target.value) }, replace: true })}
            >
              {Array.from({ length: LIMITS.preview.max }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </>
        }
      />
      {problem && (
        <p
          role="alert"
          className="mb-3 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          {problem}
        </p>
      )}
      {blocker || !connection ? (
        <Panel>
          <p className="text-sm">{blocker}</p>
          <p className="mt-2 text-sm">
            <Link to="/connection" search={connection ? { edit: connection.id } : {}} className="font-semibold text-brand-600 underline dark:text-brand-100">
              Add a dashboard JWT
            </Link>
          </p>
        </Panel>
      ) : (
        <PreviewList connection={connection} {...props} limit={limit} />
      )}
    </div>
  );
}
