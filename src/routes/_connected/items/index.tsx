import { createFileRoute } from '@tanstack/react-router';
import { ItemsIndex } from '../../../features/items';

export const Route = createFileRoute('/_connected/items/')({
  component: function ItemsIndexRoute() {
    return <ItemsIndex connection={Route.useRouteContext().connection} />;
  },
});
