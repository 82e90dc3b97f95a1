import { Button } from '../../../components/ui/button';
import { ErrorPanel } from '../../../components/ui/error-panel';
import { Time } from '../../../components/ui/time';
import type { ReviewSource } from './use-review-source';

const plural = (count: number, noun: string) => `${count.toLocaleString()} ${noun}${count === 1 ? '' : 's'}`;

/**
 * What the local store knows about this subscription's pulls: answers that were lost (with
 * Recover), the progress of Pull all new or Recover (with Cancel), and how the last one ended.
 */
export function StoreStatus({ source }: { source: ReviewSource }) {
  const { losses, task, lastTask } = source;
  return (
    <>
      {losses.length > 0 && !task && !source.refusal && (
        <section
          role="alert"
          aria-label="Lost answers"
          className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950"
        >
          <span className="min-w-0 flex-1">
            <strong>Answer lost: the service may have moved forward.</strong> {losses.length === 1 ? 'One pull' : `${losses.length} pulls`} (last at{' '}
            <Time value={new Date(losses.at(-1)!.at).toISOString()} />) got no usable answer, so items it delivered may never have reached this console. Recover
            re-reads from the beginning and keeps each item not received yet.
          </span>
          <Button size="sm" variant="primary" onClick={source.recover}>
            Recover
          </Button>
        </section>
      )}
      {task && (
        <section aria-label={task.kind === 'recover' ? 'Recovering' : 'Pulling all new items'} className="flex flex-wrap items-center gap-3 text-sm">
          <progress className="w-48" aria-label={task.kind === 'recover' ? 'Recover progress' : 'Pull all new progress'} />
          <span role="status">
            {task.kind === 'recover'
              ? `Recovering: ${task.progress.read.toLocaleString()} items read, ${task.progress.added.toLocaleString()} recovered`
              : `Pulling all new items: ${plural(task.progress.pages, 'page')}, ${plural(task.progress.added, 'new item')}`}
          </span>
          <Button size="sm" onClick={task.cancel}>
            Cancel
          </Button>
        </section>
      )}
      {!task && lastTask && lastTask.error === null && (
        <p role="status" className="text-sm">
          {lastTask.kind === 'recover'
            ? `${lastTask.cancelled ? 'Recover cancelled' : 'Recover finished'}: ${lastTask.progress.read.toLocaleString()} items read, ${lastTask.progress.added.toLocaleString()} recovered.`
            : `${lastTask.cancelled ? 'Pull all new cancelled' : 'Up to date'}: ${plural(lastTask.progress.added, 'new item')} from ${plural(lastTask.progress.pages, 'page')}.`}
        </p>
      )}
      {!task && lastTask?.error ? <ErrorPanel error={lastTask.error} /> : null}
    </>
  );
}
