import { boundsOf, shapeName } from './annotation-overlay';
import type { Shape } from '../../domain/payload';
import type { Size, ViewTransform } from './view-transform';

/**
 * The hovered or focused shape's label, position and attributes, placed under the shape as it
 * is shown (zoomed and panned), inside the viewport. Always in the document, so every shape can
 * name it in `aria-describedby`.
 */
export function ShapeTooltip({ id, shape, transform, viewport }: { id: string; shape: Shape | null; transform: ViewTransform; viewport: Size }) {
  if (!shape) return <div id={id} role="tooltip" hidden />;
  const b = boundsOf(shape);
  const left = Math.max(0, Math.min(viewport.width - 220, b.x * transform.scale + transform.x));
  const below = (b.y + b.height) * transform.scale + transform.y + 4;
  const top = below > viewport.height - 60 ? Math.max(0, b.y * transform.scale + transform.y - 64) : below;
  return (
    <div
      id={id}
      role="tooltip"
      className="pointer-events-none absolute z-10 max-w-[220px] rounded bg-slate-900/90 px-2 py-1 text-xs text-white shadow [overflow-wrap:anywhere]"
      style={{ left: Math.max(0, left), top: Math.max(0, top) }}
    >
      <p className="font-semibold">{shapeName(shape)}</p>
      {shape.attributes && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-2">
          {shape.attributes.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="text-slate-300">{key}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
