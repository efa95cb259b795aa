// The drawing pad: pointer, pen and touch strokes, smoothed as they come, in a chosen ink.
import { useEffect, useRef, type PointerEvent } from 'react';
import { addSample, drawStrokes, type Point, type Stroke } from './strokes';

/** Line width of the pen in the pad's CSS pixels. */
const PEN_WIDTH_PX = 2.5;

interface SignaturePadProps {
  strokes: Stroke[];
  onStrokes(strokes: Stroke[]): void;
  colour: string;
  label: string;
}

export function SignaturePad({ strokes, onStrokes, colour, label }: SignaturePadProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const current = useRef<Stroke | null>(null);

  const paint = (all: readonly Stroke[]) => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    const ratio = window.devicePixelRatio || 1;
    const { width, height } = el.getBoundingClientRect();
    if (el.width !== Math.round(width * ratio)) el.width = Math.round(width * ratio);
    if (el.height !== Math.round(height * ratio)) el.height = Math.round(height * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    drawStrokes(ctx, all);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: paint reads only the canvas and its arguments
  useEffect(() => paint(strokes), [strokes]);

  const at = (e: PointerEvent<HTMLCanvasElement>): Point => {
    const box = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };
  const end = () => {
    const stroke = current.current;
    current.current = null;
    if (stroke) onStrokes([...strokes, stroke]);
  };

  return (
    <canvas
      ref={canvas}
      className="signature-pad"
      aria-label={label}
      data-testid="signature-pad"
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        e.currentTarget.setPointerCapture(e.pointerId);
        current.current = { points: addSample([], at(e)), color: colour, width: PEN_WIDTH_PX };
        paint([...strokes, current.current]);
      }}
      onPointerMove={(e) => {
        const stroke = current.current;
        if (!stroke) return;
        // A fast hand gives several samples per frame: each counts.
        const samples = e.nativeEvent.getCoalescedEvents?.() ?? [];
        let points = stroke.points;
        for (const sample of samples.length ? samples : [e.nativeEvent]) {
          const box = e.currentTarget.getBoundingClientRect();
          points = addSample(points, { x: sample.clientX - box.left, y: sample.clientY - box.top });
        }
        current.current = { ...stroke, points };
        paint([...strokes, current.current]);
      }}
      onPointerUp={end}
      onPointerCancel={end}
    />
  );
}
