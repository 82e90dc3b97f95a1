import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Badge, PageHeader } from '../../../components/ui/panel';
import { useActiveConnection } from '../../connections';
import { frontiersQuery, tasksQuery } from '../queries';

/** One frontier's tasks (spec 4.2), each linking to its preview. */
export function FrontierPage({ frontierId }: { frontierId: string }) {
  const connection = useActiveConnection();
  const { data: tasks } = useSuspenseQuery(tasksQuery(connection, frontierId));
  const { data: frontiers } = useSuspenseQuery(frontiersQuery(connection, 'all'));
  const frontier = frontiers.find((f) => f.frontier_id === frontierId);
  return (
    <div>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link to="/frontiers" className="text-brand-600 underline dark:text-brand-100">
          Frontiers
        </Link>{' '}
        / {frontier?.title ?? frontierId}
      </nav>
      <PageHeader
        title={frontier?.title ?? `Frontier ${frontierId}`}
        description={frontier ? `${frontier.status} · ${frontier.total_submissions.toLocaleString()} submissions` : undefined}
      />
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Tasks of {frontier?.title ?? frontierId}</caption>
          <thead className="bg-slate-50 dark:bg-slate-800">
            <tr>
              {['Task', 'Type', 'Status', 'Submissions', 'Preview'].map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {tasks.length === 0 && (
              <tr>
                <td colSpan={5} className="px-3 py-6 text-center text-slate-500">
                  This frontier has no tasks.
                </td>
              </tr>
            )}
            {tasks.map((task) => (
              <tr key={task.task_id} className="border-t border-slate-200 dark:border-slate-700">
                <td className="px-3 py-2">
                  <div className="font-medium">{task.name}</div>
                  <code className="text-xs text-slate-500">{task.task_id}</code>
                </td>
                <td className="px-3 py-2">{task.task_type}</td>
                <td className="px-3 py-2">
                  <Badge tone={task.status === 'COLLECTING' ? 'good' : 'neutral'}>{task.status}</Badge>
                </td>
                <td className="px-3 py-2">{task.submission_count.toLocaleString()}</td>
                <td className="px-3 py-2">
                  <Link
                    to="/frontiers/$frontierId/tasks/$taskId/preview"
                    params={{ frontierId, taskId: task.task_id }}
                    search={{ limit: 5 }}
                    className="text-brand-600 underline dark:text-brand-100"
                    aria-label={`Preview ${task.name}`}
                  >
                    Preview
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
