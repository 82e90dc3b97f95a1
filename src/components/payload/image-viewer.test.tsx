import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubResizeObserver } from '../../test/resize-observer';
import { PayloadViewer } from './payload-viewer';

const BASE = 'https://dds.example.com';

// jsdom lays nothing out: the viewport reports 320 × 240, as a browser would for this figure, to
// its observer and to a measure alike.
const VIEWPORT = { width: 320, height: 240, x: 0, y: 0, top: 0, left: 0, right: 320, bottom: 240, toJSON: () => ({}) } as DOMRect;
beforeAll(() => {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(VIEWPORT);
  stubResizeObserver(VIEWPORT);
});
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const SCENE = {
  image: { url: '/media/scenes/1.svg', width: 640, height: 480 },
  annotations: [
    { label: 'car', bbox: { x: 10, y: 20, width: 100, height: 50 }, occluded: true },
    { label: 'car', bbox: { x: 300, y: 200, width: 80, height: 40 } },
    {
      label: 'pedestrian',
      polygon: [
        [500, 300],
        [520, 300],
        [520, 400],
      ],
    },
  ],
};

const layer = () => document.querySelector<HTMLElement>('[data-view-layer]')!.style.transform;
/** The shapes drawn: neither the whole overlay nor their label's group hidden. */
const visibleShapes = () =>
  [...document.querySelectorAll('[data-shape]')].filter((shape) => !shape.closest('[visibility="hidden"]')).map((s) => s.getAttribute('aria-label'));

function renderViewer(shortcuts = true) {
  return render(<PayloadViewer value={SCENE} baseUrl={BASE} eagerImage={shortcuts} />);
}

describe('the image viewer', () => {
  it('starts fitted, zooms in steps about the centre, pans with Shift+arrows, and fits again', async () => {
    const user = userEvent.setup();
    renderViewer();
    // Fitted, the layer is painted with the page (2D); zoomed in, it is composited (3D).
    expect(layer()).toBe('translate(0px, 0px) scale(0.5)');
    expect(screen.getByRole('status', { name: 'Zoom' })).toHaveTextContent('50%');
    await user.keyboard('+');
    // 0.5 × 1.25, the centre (160, 120) kept in place.
    expect(layer()).toBe('translate3d(-40px, -30px, 0px) scale(0.625)');
    await user.keyboard('{Shift>}{ArrowRight}{/Shift}');
    // A tenth of the viewport to the right: the image moves 32 px left.
    expect(layer()).toBe('translate3d(-72px, -30px, 0px) scale(0.625)');
    await user.keyboard('{Shift>}{ArrowRight}{ArrowRight}{ArrowRight}{/Shift}');
    // Never past the image's edge: 640 × 0.625 = 400 px shown in 320.
    expect(layer()).toBe('translate3d(-80px, -30px, 0px) scale(0.625)');
    await user.keyboard('0');
    expect(layer()).toBe('translate(0px, 0px) scale(0.5)');
    await user.keyboard('1');
    expect(layer()).toBe('translate3d(-160px, -120px, 0px) scale(1)');
    await user.keyboard('-');
    expect(layer()).toBe('translate3d(-96px, -72px, 0px) scale(0.8)');
    // Zooming out stops at the fitted view.
    await user.keyboard('----');
    expect(layer()).toBe('translate(0px, 0px) scale(0.5)');
    // The buttons do the same.
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(layer()).toBe('translate3d(-40px, -30px, 0px) scale(0.625)');
    await user.click(screen.getByRole('button', { name: 'Fit' }));
    expect(layer()).toBe('translate(0px, 0px) scale(0.5)');
  });

  it('pans by dragging and zooms with Ctrl+wheel at the pointer', () => {
    renderViewer();
    const viewport = document.querySelector('[data-view-layer]')!.parentElement!;
    fireEvent.wheel(viewport, { deltaY: -100, ctrlKey: true, clientX: 0, clientY: 0 });
    const zoomed = /scale\(([\d.]+)\)/.exec(layer())![1]!;
    expect(Number(zoomed)).toBeGreaterThan(0.5);
    // At the pointer (the corner): the corner stays put.
    expect(layer()).toMatch(/^translate3d\(0px, 0px, 0px\)/);
    fireEvent.pointerDown(viewport, { pointerId: 1, button: 0, clientX: 100, clientY: 100 });
    fireEvent.pointerMove(viewport, { pointerId: 1, clientX: 80, clientY: 90 });
    fireEvent.pointerUp(viewport, { pointerId: 1 });
    expect(layer()).toBe(`translate3d(-20px, -10px, 0px) scale(${zoomed})`);
    // A plain wheel scrolls the page, not the image.
    fireEvent.wheel(viewport, { deltaY: -100 });
    expect(layer()).toBe(`translate3d(-20px, -10px, 0px) scale(${zoomed})`);
  });

  it('h hides every annotation and shows them again; the legend counts each label and hides it', async () => {
    const user = userEvent.setup();
    renderViewer();
    expect(visibleShapes()).toHaveLength(3);
    await user.keyboard('h');
    expect(visibleShapes()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Hide annotations' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText(/0 of 3 annotations shown/)).toBeInTheDocument();
    await user.keyboard('h');
    expect(visibleShapes()).toHaveLength(3);

    const legend = screen.getByRole('list', { name: 'Labels' });
    const car = within(legend).getByRole('button', { name: 'car 2' });
    expect(within(legend).getByRole('button', { name: 'pedestrian 1' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(car);
    expect(car).toHaveAttribute('aria-pressed', 'false');
    expect(visibleShapes()).toEqual(['pedestrian, polygon of 3 points at 500, 300, 20 × 100']);
    expect(screen.getByText(/1 of 3 annotations shown/)).toBeInTheDocument();
    await user.click(car);
    expect(visibleShapes()).toHaveLength(3);
  });

  it('colours each label the same in every item; outline only and opacity change one attribute each', async () => {
    const user = userEvent.setup();
    const { unmount } = renderViewer();
    const colour = (label: string) => document.querySelector(`[data-label="${label}"]`)!.getAttribute('stroke');
    const car = colour('car');
    expect(car).not.toBe(colour('pedestrian'));
    // Strokes stay 2 pixels wide on screen: at 50%, 4 image pixels.
    expect(document.querySelector('svg[role="group"] > g')).toHaveAttribute('stroke-width', '4');
    await user.click(screen.getByRole('checkbox', { name: 'Outline only' }));
    expect(document.querySelector('svg[role="group"] > g')).toHaveAttribute('fill-opacity', '0');
    fireEvent.change(screen.getByRole('slider', { name: 'Opacity' }), { target: { value: '0.3' } });
    expect(screen.getByRole('group', { name: /^Annotations/ })).toHaveAttribute('opacity', '0.3');
    unmount();
    render(<PayloadViewer value={{ image_url: '/x.png', width: 10, height: 10, objects: [{ label: 'car', bbox: [0, 0, 1, 1] }] }} baseUrl={BASE} />);
    expect(colour('car')).toBe(car);
  });

  it('reaches each shape by keyboard, names it by label and position, and shows its attributes', async () => {
    const user = userEvent.setup();
    renderViewer();
    const overlay = screen.getByRole('group', { name: /^Annotations/ });
    act(() => overlay.focus());
    await user.keyboard('{ArrowRight}');
    const first = screen.getByRole('img', { name: 'car, box at 10, 20, 100 × 50' });
    expect(first).toHaveFocus();
    const tooltip = screen.getByRole('tooltip');
    expect(first).toHaveAttribute('aria-describedby', tooltip.id);
    expect(tooltip).toHaveTextContent('car, box at 10, 20, 100 × 50');
    expect(tooltip).toHaveTextContent('occludedtrue');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('img', { name: 'car, box at 300, 200, 80 × 40' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('img', { name: /^pedestrian, polygon/ })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(first).toHaveFocus();
    // Hovering shows the same.
    fireEvent.pointerOver(screen.getByRole('img', { name: /^pedestrian/ }));
    expect(screen.getByRole('tooltip')).toHaveTextContent(/^pedestrian, polygon of 3 points/);
  });

  it('answers no key unless it is the focused item’s viewer (a preview elsewhere does not)', async () => {
    const user = userEvent.setup();
    renderViewer(false);
    await user.keyboard('+h');
    expect(layer()).toBe('translate(0px, 0px) scale(0.5)');
    expect(visibleShapes()).toHaveLength(3);
  });

  it('a hidden viewer (the next item, rendered ahead) answers no key', async () => {
    const user = userEvent.setup();
    render(
      <div hidden>
        <PayloadViewer value={SCENE} baseUrl={BASE} eagerImage />
      </div>,
    );
    await user.keyboard('+h');
    expect(layer()).toBe('translate(0px, 0px) scale(0.5)');
  });

  it('leaves keys typed in a field, on a list option or with Ctrl to them, and answers once the focus is back', async () => {
    const user = userEvent.setup();
    render(
      <>
        <input aria-label="Note" />
        <div role="option" aria-selected tabIndex={0}>
          An item
        </div>
        <PayloadViewer value={SCENE} baseUrl={BASE} eagerImage />
      </>,
    );
    await user.click(screen.getByRole('textbox', { name: 'Note' }));
    await user.keyboard('+1h');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('+1h');
    screen.getByRole('option').focus();
    await user.keyboard('+1h{Control>}={/Control}');
    expect(layer()).toBe('translate(0px, 0px) scale(0.5)');
    expect(visibleShapes()).toHaveLength(3);
    screen.getByRole('option').blur();
    await user.keyboard('1');
    expect(layer()).toBe('translate3d(-160px, -120px, 0px) scale(1)');
  });

  it('fits an image already in memory (fetched ahead) in the commit that mounts it, and its load event changes nothing', () => {
    // A payload without the image's size: the viewer reads it from the image. One fetched ahead is
    // complete as the viewer mounts; it is fitted then, before any load event.
    const complete = vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(true);
    const width = vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(640);
    const height = vi.spyOn(HTMLImageElement.prototype, 'naturalHeight', 'get').mockReturnValue(480);
    try {
      const { container } = render(<PayloadViewer value={{ ...SCENE, image: { url: SCENE.image.url } }} baseUrl={BASE} eagerImage />);
      const img = screen.getByRole('img', { name: /Delivered image/ });
      expect(img).toHaveAttribute('width', '640');
      expect(layer()).toBe('translate(0px, 0px) scale(0.5)');
      // No change to the page, so the browser has no frame to make for it.
      const changes = new MutationObserver(() => undefined);
      changes.observe(container, { subtree: true, childList: true, attributes: true, characterData: true });
      fireEvent.load(img);
      expect(changes.takeRecords()).toEqual([]);
      changes.disconnect();
    } finally {
      complete.mockRestore();
      width.mockRestore();
      height.mockRestore();
    }
  });

  it('fits an image in memory to the box of its own shape, not to the 4:3 placeholder, without waiting for the observer', () => {
    // A 2:1 image without a size in its payload, complete as the viewer mounts. The box, 320 wide,
    // is 4:3 until the image's aspect ratio applies. The observer has not reported yet (a browser's
    // reports after the frame's layout): the fit must come from the box as that frame shows it.
    stubResizeObserver(null);
    const box = vi.mocked(HTMLElement.prototype.getBoundingClientRect).mockImplementation(function (this: HTMLElement) {
      const [w, h] = (this.style.aspectRatio || '1 / 1').split('/').map(Number);
      return { ...VIEWPORT, height: (320 * h!) / w! };
    });
    const complete = vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(true);
    const width = vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(640);
    const height = vi.spyOn(HTMLImageElement.prototype, 'naturalHeight', 'get').mockReturnValue(320);
    try {
      render(<PayloadViewer value={{ ...SCENE, image: { url: SCENE.image.url } }} baseUrl={BASE} eagerImage />);
      // Fitted to 320 × 160, not centred in the 320 × 240 placeholder.
      expect(layer()).toBe('translate(0px, 0px) scale(0.5)');
    } finally {
      stubResizeObserver(VIEWPORT);
      box.mockReturnValue(VIEWPORT);
      for (const spy of [complete, width, height]) spy.mockRestore();
    }
  });

  it('takes the size of an image that was not in memory from its load event', () => {
    render(<PayloadViewer value={{ ...SCENE, image: { url: SCENE.image.url } }} baseUrl={BASE} eagerImage />);
    const img = screen.getByRole('img', { name: /Delivered image/ });
    expect(img).not.toHaveAttribute('width');
    const width = vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(640);
    const height = vi.spyOn(HTMLImageElement.prototype, 'naturalHeight', 'get').mockReturnValue(480);
    try {
      fireEvent.load(img);
      expect(img).toHaveAttribute('width', '640');
      expect(layer()).toBe('translate(0px, 0px) scale(0.5)');
    } finally {
      width.mockRestore();
      height.mockRestore();
    }
  });
});
