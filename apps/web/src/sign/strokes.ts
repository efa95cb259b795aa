// The drawn signature: pointer samples smoothed as they come, drawn as curves through the
// midpoints of the samples (a hand's jitter and the pointer's coarse steps both disappear).

export interface Point {
  x: number;
  y: number;
}

export interface Stroke {
  points: Point[];
  color: string;
  /** Line width in the pad's CSS pixels. */
  width: number;
}

/** How far each new sample pulls the pen (0..1): lower is smoother and lags more. */
const PEN_FOLLOW = 0.5;
/** Samples closer than this to the last kept one (CSS pixels) add nothing but noise. */
const MIN_STEP_PX = 1.5;

/** The stroke's points after a new pointer sample: the pen moves part of the way towards it. */
export function addSample(points: readonly Point[], sample: Point, follow = PEN_FOLLOW): Point[] {
  const last = points.at(-1);
  if (!last) return [sample];
  const next = { x: last.x + (sample.x - last.x) * follow, y: last.y + (sample.y - last.y) * follow };
  if (Math.hypot(next.x - last.x, next.y - last.y) < MIN_STEP_PX) return [...points];
  return [...points, next];
}

/** One piece of a drawn path: a move, or a quadratic curve to `to` bent towards `control`. */
export type PathStep = { kind: 'move'; to: Point } | { kind: 'curve'; control: Point; to: Point };

/**
 * The smooth path through a stroke's points: each sample is the control point of a curve between
 * the midpoints around it, so direction never jumps at a sample. One point is a dot.
 */
export function strokePath(points: readonly Point[]): PathStep[] {
  const first = points[0];
  if (!first) return [];
  if (points.length === 1)
    return [
      { kind: 'move', to: first },
      { kind: 'curve', control: first, to: first },
    ];
  const steps: PathStep[] = [{ kind: 'move', to: first }];
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i]!;
    const q = points[i + 1]!;
    steps.push({ kind: 'curve', control: p, to: { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 } });
  }
  const last = points.at(-1)!;
  steps.push({ kind: 'curve', control: last, to: last });
  return steps;
}

/** The box the strokes cover, their line width included; null when nothing is drawn. */
export function strokesBounds(strokes: readonly Stroke[]): { x: number; y: number; width: number; height: number } | null {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const s of strokes)
    for (const p of s.points) {
      const r = s.width / 2;
      left = Math.min(left, p.x - r);
      top = Math.min(top, p.y - r);
      right = Math.max(right, p.x + r);
      bottom = Math.max(bottom, p.y + r);
    }
  return right < left ? null : { x: left, y: top, width: right - left, height: bottom - top };
}

/** Draws the strokes on a 2D context (already scaled and translated by the caller). */
export function drawStrokes(ctx: CanvasRenderingContext2D, strokes: readonly Stroke[]) {
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const s of strokes) {
    ctx.strokeStyle = s.color;
    ctx.lineWidth = s.width;
    ctx.beginPath();
    for (const step of strokePath(s.points)) {
      if (step.kind === 'move') ctx.moveTo(step.to.x, step.to.y);
      else ctx.quadraticCurveTo(step.control.x, step.control.y, step.to.x, step.to.y);
    }
    ctx.stroke();
  }
}

/**
 * Makes near-white pixels of RGBA data transparent, fading those close to the threshold so the
 * ink's edges stay soft. `threshold`: the lightest channel minimum (0..255) still counted as ink.
 */
export function whiteToTransparent(rgba: Uint8ClampedArray, threshold = 235) {
  const fade = 25;
  for (let i = 0; i < rgba.length; i += 4) {
    const lightness = Math.min(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!);
    if (lightness >= threshold) rgba[i + 3] = 0;
    else if (lightness > threshold - fade) rgba[i + 3] = Math.round((rgba[i + 3]! * (threshold - lightness)) / fade);
  }
}
