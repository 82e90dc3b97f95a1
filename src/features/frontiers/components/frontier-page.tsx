import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Badge, PageHeader } from '../../../components/ui/panel';
import { SimpleTable } from '../../../components/ui/table';
import { Breadcrumb } from '../../../components/ui/breadcrumb';
import { frontiersQuery, tasksQuery } from '../queries';
import type { Connection } from '../../../data';

/** One frontier's tasks (spec 4.2), each linking to its preview. */
export function FrontierPage({ connection, frontierId }: { connection: Connection | null; frontierId: string }) {
  const { data: tasks } = useSuspenseQuery(tasksQuery(connection, frontierId));
  const { data: frontiers } = useSuspenseQuery(frontiersQuery(connection, 'all'));
  const frontier = frontiers.find((f) => f.frontier_id === frontierId);
  return (
    <div>
      <Breadcrumb trail={[{ label: 'Frontiers', link: { to: '/frontiers' } }]} current={frontier?.title ?? frontierId} />
      <PageHeader
        title={frontier?.title ?? `Frontier ${frontierId}`}
        description={frontier ? `${frontier.status} · ${frontier.total_submissions.toLocaleString()} submissions` : undefined}
      />
      <SimpleTable
        caption={`Tasks of ${frontier?.title ?? frontierId}`}
        headers={['Task', 'Type', 'Status', 'Submissions', 'Preview']}
        empty="This frontier has no tasks."
        isEmpty={tasks.length === 0}
      >
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
      </SimpleTable>
    </div>
  );
}
