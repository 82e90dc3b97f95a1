import { Link } from '@tanstack/react-router';
import { createColumnHelper } from '@tanstack/react-table';
import type { Frontier } from '../../../api/contract';
import { Badge } from '../../../components/ui/panel';

const column = createColumnHelper<Frontier>();

export const frontierColumns = [
  column.accessor('title', {
    header: 'Title',
    cell: (info) => (
      <Link to="/frontiers/$frontierId" params={{ frontierId: info.row.original.frontier_id }} className="font-medium text-brand-600 underline dark:text-brand-100">
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor('status', {
    header: 'Status',
    enableSorting: false,
    cell: (info) => <Badge tone={info.getValue() === 'ONLINE' ? 'good' : 'neutral'}>{info.getValue()}</Badge>,
  }),
  column.accessor('task_count', { header: 'Tasks', cell: (info) => info.getValue().toLocaleString() }),
  column.accessor('total_submissions', { header: 'Submissions', cell: (info) => info.getValue().toLocaleString() }),
  column.accessor('frontier_id', { header: 'ID', enableSorting: false, cell: (info) => <code className="text-xs">{info.getValue()}</code> }),
];
