import { Random } from './random';

/**
 * Generated street scenes: the demo's images are drawn by the service itself from a
 * number, and the same number gives the annotations that match what is drawn.
 */
interface SceneObject {
  label: 'car' | 'pedestrian' | 'bicycle' | 'traffic_sign' | 'traffic_light';
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Scene {
  width: number;
  height: number;
  sky: string;
  objects: SceneObject[];
}

const SKIES = ['#bfdbfe', '#fde68a', '#c7d2fe', '#fecaca', '#a7f3d0'];
const LABELS: SceneObject['label'][] = ['car', 'pedestrian', 'bicycle', 'traffic_sign', 'traffic_light'];
const SIZES: Record<SceneObject['label'], [number, number]> = {
  car: [150, 80],
  pedestrian: [40, 110],
  bicycle: [90, 60],
  traffic_sign: [50, 50],
  traffic_light: [30, 90],
};

export function sceneFor(n: number): Scene {
  const random = new Random(n * 7919 + 17);
  const width = 640;
  const height = 480;
  const objects: SceneObject[] = [];
  const count = random.int(1, 4);
  for (let i = 0; i < count; i++) {
    const label = random.pick(LABELS);
    const [w, h] = SIZES[label];
    const scale = 0.8 + random.next() * 0.6;
    const objectWidth = Math.round(w * scale);
    const objectHeight = Math.round(h * scale);
    objects.push({
      label,
      width: objectWidth,
      height: objectHeight,
      x: random.int(10, width - objectWidth - 10),
      y: random.int(200, height - objectHeight - 10),
    });
  }
  return { width, height, sky: random.pick(SKIES), objects };
}

function drawObject(o: SceneObject): string {
  const { x, y, width: w, height: h } = o;
  switch (o.label) {
    case 'car':
      return `<rect x="${x}" y="${y + h * 0.3}" width="${w}" height="${h * 0.5}" rx="8" fill="#dc2626"/>
<rect x="${x + w * 0.2}" y="${y}" width="${w * 0.6}" height="${h * 0.4}" rx="6" fill="#ef4444"/>
<circle cx="${x + w * 0.22}" cy="${y + h * 0.85}" r="${h * 0.15}" fill="#111827"/>
<circle cx="${x + w * 0.78}" cy="${y + h * 0.85}" r="${h * 0.15}" fill="#111827"/>`;
    case 'pedestrian':
      return `<circle cx="${x + w / 2}" cy="${y + w * 0.35}" r="${w * 0.3}" fill="#f59e0b"/>
<rect x="${x + w * 0.2}" y="${y + w * 0.7}" width="${w * 0.6}" height="${h - w * 0.7}" rx="6" fill="#2563eb"/>`;
    case 'bicycle':
      return `<circle cx="${x + h * 0.35}" cy="${y + h * 0.6}" r="${h * 0.35}" fill="none" stroke="#065f46" stroke-width="5"/>
<circle cx="${x + w - h * 0.35}" cy="${y + h * 0.6}" r="${h * 0.35}" fill="none" stroke="#065f46" stroke-width="5"/>
<line x1="${x + h * 0.35}" y1="${y + h * 0.6}" x2="${x + w - h * 0.35}" y2="${y + h * 0.2}" stroke="#065f46" stroke-width="5"/>`;
    case 'traffic_sign':
      return `<circle cx="${x + w / 2}" cy="${y + h / 2}" r="${w / 2}" fill="#fef2f2" stroke="#b91c1c" stroke-width="6"/>`;
    case 'traffic_light':
      return `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="5" fill="#1f2937"/>
<circle cx="${x + w / 2}" cy="${y + h * 0.2}" r="${w * 0.3}" fill="#ef4444"/>
<circle cx="${x + w / 2}" cy="${y + h * 0.5}" r="${w * 0.3}" fill="#facc15"/>
<circle cx="${x + w / 2}" cy="${y + h * 0.8}" r="${w * 0.3}" fill="#22c55e"/>`;
  }
}

export function renderSceneSvg(scene: Scene): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}" viewBox="0 0 ${scene.width} ${scene.height}">
<rect width="${scene.width}" height="${scene.height}" fill="${scene.sky}"/>
<rect y="${scene.height * 0.4}" width="${scene.width}" height="${scene.height * 0.6}" fill="#6b7280"/>
<rect y="${scene.height * 0.7}" width="${scene.width}" height="6" fill="#f9fafb"/>
${scene.objects.map(drawObject).join('\n')}
</svg>`;
}
