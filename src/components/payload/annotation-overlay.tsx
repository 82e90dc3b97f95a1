import { memo, useMemo } from 'react';
import type { Shape } from '../../domain/payload';
import { labelColor } from './label-colors';

/** The box around a shape, in image pixels (a polygon's bounds). */
export function boundsOf(shape: Shape): { x: number; y: number; width: number; height: number } {
  if (shape.kind === 'box') return { x: shape.x, y: shape.y, width: shape.width, height: shape.height };
  const xs = shape.points.map((p) => p[0]);
  const ys = shape.points.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

const UNLABELLED = '(no label)';
const labelKey = (shape: Shape) => shape.label ?? UNLABELLED;

/** A shape's accessible name: its label and where it is, in image pixels. */
export function shapeName(shape: Shape): string {
  const b = boundsOf(shape);
  const r = Math.round;
  const kind = shape.kind === 'box' ? 'box' : `polygon of ${shape.points.length} points`;
  return `${shape.label ?? 'unlabelled'}, ${kind} at ${r(b.x)}, ${r(b.y)}, ${r(b.width)} × ${r(b.height)}`;
}

export interface LabelGroup {
  label: string;
  color: string;
  /** Indexes into the image's shapes. */
  indexes: number[];
}

/** Shapes grouped by label, most frequent first; a group's colour comes from its label alone. */
export function groupByLabel(shapes: Shape[]): LabelGroup[] {
  const groups = new Map<string, LabelGroup>();
  shapes.forEach((shape, index) => {
    const label = labelKey(shape);
    let group = groups.get(label);
    if (!group) groups.set(label, (group = { label, color: labelColor(shape.label), indexes: [] }));
    group.indexes.push(index);
  });
  return [...groups.values()].sort((a, b) => b.indexes.length - a.indexes.length || a.label.localeCompare(b.label));
}

/**
 * One label's shapes. Their elements are made once per item: hiding the label changes one
 * attribute of the group, and zooming or panning (a CSS transform on an ancestor) none at all.
 */
const ShapeGroup = memo(function ShapeGroup({
  group,
  shapes,
  hidden,
  describedBy,
}: {
  group: LabelGroup;
  shapes: Shape[];
  hidden: boolean;
  describedBy: string;
}) {
  const elements = useMemo(
    () =>
      group.indexes.map((index) => {
        const shape = shapes[index]!;
        const common = {
          'data-shape': index,
          role: 'img',
          tabIndex: -1,
          'aria-label': shapeName(shape),
          'aria-describedby': describedBy,
          className: 'cursor-help',
        } as const;
        return shape.kind === 'box' ? (
          <rect key={index} {...common} x={shape.x} y={shape.y} width={shape.width} height={shape.height} />
        ) : (
          <polygon key={index} {...common} points={shape.points.map((p) => p.join(',')).join(' ')} />
        );
      }),
    [group, shapes, describedBy],
  );
  return (
    <g data-label={group.label} visibility={hidden ? 'hidden' : undefined} fill={group.color} stroke={group.color}>
      {elements}
    </g>
  );
});

/**
 * Every shape of an image in one SVG, in image pixels. What the viewer's controls change is a
 * handful of attributes here: all hidden (`visibility`), opacity, outline only (the inherited
 * `fill-opacity`), one label hidden (its group's `visibility`). Hidden rather than undisplayed:
 * the shapes keep their layout objects, so showing 600 of them again is a repaint, not a rebuild;
 * and hidden shapes can be neither focused nor hovered. Made translucent, the SVG is a layer of its
 * own, so moving the opacity slider repaints nothing; opaque (as the review shows every item), it
 * is painted with the image: one composited layer less for each item shown.
 */
export const AnnotationOverlay = memo(function AnnotationOverlay({
  width,
  height,
  shapes,
  groups,
  hiddenLabels,
  allHidden,
  opacity,
  outlineOnly,
  scale,
  describedBy,
}: {
  width: number;
  height: number;
  shapes: Shape[];
  groups: LabelGroup[];
  hiddenLabels: ReadonlySet<string>;
  allHidden: boolean;
  opacity: number;
  outlineOnly: boolean;
  /** The view's zoom: strokes are 2 pixels wide on screen at any zoom (`non-scaling-stroke` ignores an HTML ancestor's transform). */
  scale: number;
  describedBy: string;
}) {
  return (
    <svg
      className="absolute inset-0 overflow-visible"
      style={opacity < 1 ? { willChange: 'opacity' } : undefined}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      opacity={opacity}
      role="group"
      aria-label="Annotations: ← and → move between them"
      tabIndex={0}
    >
      <g visibility={allHidden ? 'hidden' : undefined} fillOpacity={outlineOnly ? 0 : 0.18} strokeWidth={2 / scale}>
        {groups.map((group) => (
          <ShapeGroup key={group.label} group={group} shapes={shapes} hidden={hiddenLabels.has(group.label)} describedBy={describedBy} />
        ))}
      </g>
    </svg>
  );
});
