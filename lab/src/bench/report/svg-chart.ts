/**
 * Small self-contained SVG charts for benchmark reports: line charts (curves over pages fetched,
 * linear or log y axis) and scatter charts (a Pareto plot with its front drawn as a line). Output
 * is plain SVG 1.1 with a title, labelled axes with "nice" ticks, and a legend; it opens in any
 * browser and renders inline on GitHub. No dependencies.
 */

/** One line of a line chart. */
export interface ChartSeries {
  /** Legend text. */
  name: string;
  /** [x, y] pairs, in drawing order. Non-finite pairs (and y <= 0 on a log axis) are skipped. */
  points: readonly (readonly [number, number])[];
  /** CSS colour. @default the palette colour of the series' index */
  color?: string;
  /** Draw dashed (e.g. a second measure of the same strategy). @default false */
  isDashed?: boolean;
}

/** Options shared by both chart kinds. */
export interface ChartFrame {
  title: string;
  xLabel: string;
  yLabel: string;
  /** Whole image width in pixels (legend included). @default 820 */
  width?: number;
  /** Whole image height in pixels. @default 440 */
  height?: number;
  /** Formats tick labels of the x axis. @default compact numbers (1.5k) */
  xFormat?: (value: number) => string;
  /** Formats tick labels of the y axis. @default compact numbers */
  yFormat?: (value: number) => string;
  /** Lower end of the y axis. @default 0 (linear) or the smallest value (log) */
  yMin?: number;
  /** Upper end of the y axis. @default the largest value, rounded up to a tick */
  yMax?: number;
}

/** Options of {@link lineChart}. */
export interface LineChartOptions extends ChartFrame {
  series: readonly ChartSeries[];
  /** `log` for quantities spanning orders of magnitude (frontier size). @default 'linear' */
  yScale?: 'linear' | 'log';
}

/** One point of a scatter chart. */
export interface ScatterPoint {
  x: number;
  y: number;
  /** Text written next to the point. */
  label: string;
  /** Legend group; points of one group share a colour. */
  group: string;
  /** CSS colour of the group. @default the palette colour of the group's first appearance */
  color?: string;
  /** Marker group (e.g. the domain limit); each gets its own shape, listed in the legend. @default one circle for all */
  marker?: string;
  /** Drawn larger, outlined, labelled, and joined by the front line. @default false */
  isHighlighted?: boolean;
  /** Drawn as an outline only (a point that does not count, e.g. an incomplete run). @default false */
  isHollow?: boolean;
}

/** Options of {@link scatterChart}. */
export interface ScatterChartOptions extends ChartFrame {
  points: readonly ScatterPoint[];
  /** Legend text of the line through the highlighted points; false for no line. @default false */
  frontLabel?: string | false;
  /** Which points get their label written next to them. @default 'all' */
  labels?: 'all' | 'highlighted';
  /** Legend text of hollow points, when there are any. @default 'hollow' */
  hollowLabel?: string;
}

/** Colour-blind-safe palette (Okabe and Ito, 2008, plus greys), in series order. */
export const CHART_PALETTE = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#000000',
  '#882255',
  '#999999',
  '#F0E442', // yellow last: hard to see on white
] as const;

const LEGEND_WIDTH = 190;
const MARGIN = { top: 44, right: 16, bottom: 52, left: 64 };

/** Escapes text for an SVG text node or attribute. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Compact number: 1234 -> 1.2k, 0.25 -> 0.25. */
export function compactNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${trim(value / 1e6)}M`;
  if (abs >= 1e3) return `${trim(value / 1e3)}k`;
  return trim(value);
}

function trim(value: number): string {
  return Number(value.toPrecision(3)).toString();
}

/** About `count` round tick values covering [min, max] (1, 2 or 5 times a power of ten apart). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step)
    ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** A linear or log mapping from data values to pixels. */
interface Axis {
  min: number;
  max: number;
  ticks: number[];
  toPixel(value: number): number;
}

function linearAxis(min: number, max: number, from: number, to: number): Axis {
  const first = niceTicks(min, max);
  const step = first.length > 1 ? first[1]! - first[0]! : Math.abs(min) || 1;
  // Widen to whole steps so the axis starts and ends on a tick.
  const lo = Math.floor(min / step + 1e-9) * step;
  const hi = Math.max(lo + step, Math.ceil(max / step - 1e-9) * step);
  const ticks: number[] = [];
  for (let i = 0; lo + i * step <= hi + step * 1e-9; i++) ticks.push(Number((lo + i * step).toPrecision(12)));
  return { min: lo, max: hi, ticks, toPixel: (v) => from + ((v - lo) / (hi - lo)) * (to - from) };
}

function logAxis(min: number, max: number, from: number, to: number): Axis {
  const lo = Math.floor(Math.log10(min));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(max)));
  const ticks: number[] = [];
  for (let e = lo; e <= hi; e++) ticks.push(10 ** e);
  return {
    min: 10 ** lo,
    max: 10 ** hi,
    ticks,
    toPixel: (v) => from + ((Math.log10(v) - lo) / (hi - lo)) * (to - from),
  };
}

function extent(values: number[], fallback: [number, number]): [number, number] {
  if (values.length === 0) return fallback;
  return [Math.min(...values), Math.max(...values)];
}

/** Frame, grid, tick labels, axis titles and chart title; returns the SVG body and the plot box. */
function drawFrame(frame: ChartFrame, x: Axis, y: Axis, plot: Box): string[] {
  const fx = frame.xFormat ?? compactNumber;
  const fy = frame.yFormat ?? compactNumber;
  const out: string[] = [];
  out.push(
    `<text x="${plot.left + (plot.right - plot.left) / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">${escapeXml(frame.title)}</text>`,
  );
  for (const t of y.ticks) {
    const py = round(y.toPixel(t));
    out.push(`<line x1="${plot.left}" y1="${py}" x2="${plot.right}" y2="${py}" stroke="#e3e3e3"/>`);
    out.push(
      `<text x="${plot.left - 6}" y="${py + 4}" text-anchor="end" font-size="11">${escapeXml(fy(t))}</text>`,
    );
  }
  for (const t of x.ticks) {
    const px = round(x.toPixel(t));
    out.push(`<line x1="${px}" y1="${plot.top}" x2="${px}" y2="${plot.bottom}" stroke="#f0f0f0"/>`);
    out.push(
      `<text x="${px}" y="${plot.bottom + 16}" text-anchor="middle" font-size="11">${escapeXml(fx(t))}</text>`,
    );
  }
  out.push(
    `<rect x="${plot.left}" y="${plot.top}" width="${plot.right - plot.left}" height="${plot.bottom - plot.top}" fill="none" stroke="#444"/>`,
  );
  out.push(
    `<text x="${plot.left + (plot.right - plot.left) / 2}" y="${plot.bottom + 38}" text-anchor="middle" font-size="12">${escapeXml(frame.xLabel)}</text>`,
  );
  const midY = plot.top + (plot.bottom - plot.top) / 2;
  out.push(
    `<text x="16" y="${midY}" text-anchor="middle" font-size="12" transform="rotate(-90 16 ${midY})">${escapeXml(frame.yLabel)}</text>`,
  );
  return out;
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

interface LegendEntry {
  name: string;
  color: string;
  kind: 'line' | 'dashed' | 'dot';
  /** Marker shape of a 'dot' entry. @default 'circle' */
  shape?: (typeof SHAPES)[number];
  /** Outline-only marker. @default false */
  isHollow?: boolean;
}

function drawLegend(entries: LegendEntry[], left: number, top: number): string[] {
  const out = [`<g class="legend" font-size="11">`];
  entries.forEach((e, i) => {
    const y = top + 8 + i * 18;
    if (e.kind === 'dot') {
      const fill = e.isHollow ? `fill="#ffffff" stroke="${e.color}" stroke-width="1.5"` : `fill="${e.color}"`;
      out.push(marker(e.shape ?? 'circle', left + 12, y, 4.5, fill));
    } else
      out.push(
        `<line x1="${left}" y1="${y}" x2="${left + 24}" y2="${y}" stroke="${e.color}" stroke-width="2"${e.kind === 'dashed' ? ' stroke-dasharray="6 3"' : ''}/>`,
      );
    out.push(`<text x="${left + 30}" y="${y + 4}">${escapeXml(e.name)}</text>`);
  });
  out.push('</g>');
  return out;
}

const round = (v: number) => Math.round(v * 10) / 10;

function svgDocument(width: number, height: number, title: string, body: string[]): string {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

function plotBox(frame: ChartFrame): { width: number; height: number; plot: Box } {
  const width = frame.width ?? 820;
  const height = frame.height ?? 440;
  return {
    width,
    height,
    plot: {
      left: MARGIN.left,
      right: width - LEGEND_WIDTH - MARGIN.right,
      top: MARGIN.top,
      bottom: height - MARGIN.bottom,
    },
  };
}

/** A line chart as an SVG document (one `<polyline>` per series with at least one point). */
export function lineChart(options: LineChartOptions): string {
  const isLog = options.yScale === 'log';
  const series = options.series.map((s, i) => ({
    ...s,
    color: s.color ?? CHART_PALETTE[i % CHART_PALETTE.length]!,
    points: s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!isLog || y > 0)),
  }));
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const { width, height, plot } = plotBox(options);
  const [x0, x1] = extent(xs, [0, 1]);
  const [y0, y1] = extent(ys, isLog ? [1, 10] : [0, 1]);
  const x = linearAxis(Math.min(0, x0), x1, plot.left, plot.right);
  const y = isLog
    ? logAxis(options.yMin ?? y0, options.yMax ?? y1, plot.bottom, plot.top)
    : linearAxis(options.yMin ?? Math.min(0, y0), options.yMax ?? Math.max(y1, 1e-9), plot.bottom, plot.top);
  const body = drawFrame(options, x, y, plot);
  for (const s of series) {
    if (s.points.length === 0) continue;
    const path = s.points.map(([px, py]) => `${round(x.toPixel(px))},${round(y.toPixel(py))}`).join(' ');
    body.push(
      `<polyline data-series="${escapeXml(s.name)}" points="${path}" fill="none" stroke="${s.color}" stroke-width="2"${s.isDashed ? ' stroke-dasharray="6 3"' : ''}/>`,
    );
  }
  body.push(
    ...drawLegend(
      series.map((s) => ({ name: s.name, color: s.color, kind: s.isDashed ? 'dashed' : 'line' })),
      plot.right + 14,
      plot.top,
    ),
  );
  return svgDocument(width, height, options.title, body);
}

const SHAPES = ['circle', 'square', 'triangle', 'diamond', 'down', 'cross'] as const;

/** Polygon corners of the marker shapes, in units of the marker radius. */
const SHAPE_POINTS: Record<Exclude<(typeof SHAPES)[number], 'circle'>, string> = {
  square: '-0.9,-0.9 0.9,-0.9 0.9,0.9 -0.9,0.9',
  triangle: '0,-1.2 1.1,0.8 -1.1,0.8',
  diamond: '0,-1.25 1.1,0 0,1.25 -1.1,0',
  down: '0,1.2 1.1,-0.8 -1.1,-0.8',
  cross:
    '-0.35,-1 0.35,-1 0.35,-0.35 1,-0.35 1,0.35 0.35,0.35 0.35,1 -0.35,1 -0.35,0.35 -1,0.35 -1,-0.35 -0.35,-0.35',
};

/** A marker of `shape` centred on (x, y) with radius r. */
function marker(shape: (typeof SHAPES)[number], x: number, y: number, r: number, attrs: string): string {
  if (shape === 'circle') return `<circle cx="${x}" cy="${y}" r="${r}" ${attrs}/>`;
  const points = SHAPE_POINTS[shape]
    .split(' ')
    .map((pair) => pair.split(',').map(Number) as [number, number])
    .map(([a, b]) => `${round(x + a * r)},${round(y + b * r)}`);
  return `<polygon points="${points.join(' ')}" ${attrs}/>`;
}

/** Places labels right of their points, moving a label down while it would overlap an earlier one. */
function placeLabels(
  items: { x: number; y: number; text: string }[],
): { x: number; y: number; text: string }[] {
  const placed: { x: number; y: number; w: number; text: string }[] = [];
  for (const item of [...items].sort((a, b) => a.y - b.y || a.x - b.x)) {
    const w = item.text.length * 5.6;
    let y = item.y - 6;
    while (placed.some((p) => Math.abs(p.y - y) < 11 && item.x + 7 < p.x + p.w && p.x < item.x + 7 + w))
      y += 11;
    placed.push({ x: item.x + 7, y, w, text: item.text });
  }
  return placed;
}

/** A scatter chart as an SVG document; highlighted points are labelled and joined by the front line. */
export function scatterChart(options: ScatterChartOptions): string {
  const points = options.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  const groups = [...new Set(points.map((p) => p.group))];
  const markers = [...new Set(points.map((p) => p.marker).filter((m): m is string => m !== undefined))];
  const colorOf = (g: string) =>
    points.find((p) => p.group === g && p.color)?.color ??
    CHART_PALETTE[groups.indexOf(g) % CHART_PALETTE.length]!;
  const shapeOf = (m: string | undefined) => SHAPES[Math.max(0, markers.indexOf(m ?? '')) % SHAPES.length]!;
  const { width, height, plot } = plotBox(options);
  const [x0, x1] = extent(
    points.map((p) => p.x),
    [0, 1],
  );
  const [y0, y1] = extent(
    points.map((p) => p.y),
    [0, 1],
  );
  // Room for the labels at the right edge.
  const x = linearAxis(Math.min(0, x0), x1 * 1.1 || 1, plot.left, plot.right);
  const y = linearAxis(options.yMin ?? Math.min(0, y0), options.yMax ?? (y1 || 1), plot.bottom, plot.top);
  const body = drawFrame(options, x, y, plot);
  const front = points.filter((p) => p.isHighlighted).sort((a, b) => a.x - b.x || b.y - a.y);
  if (options.frontLabel && front.length > 0) {
    const path = front.map((p) => `${round(x.toPixel(p.x))},${round(y.toPixel(p.y))}`).join(' ');
    body.push(
      `<polyline data-series="${escapeXml(options.frontLabel)}" points="${path}" fill="none" stroke="#333" stroke-width="1.5" stroke-dasharray="4 3"/>`,
    );
  }
  // Highlighted points last, so they are drawn on top.
  const ordered = [...points.filter((p) => !p.isHighlighted), ...front];
  for (const p of ordered) {
    const fill = p.isHollow
      ? `fill="#ffffff" stroke="${colorOf(p.group)}" stroke-width="1.5"`
      : `fill="${colorOf(p.group)}"${p.isHighlighted ? ' stroke="#000" stroke-width="2"' : ' fill-opacity="0.85"'}`;
    const attrs = `data-point="${escapeXml(p.label)}" ${fill}`;
    body.push(
      marker(
        shapeOf(p.marker),
        round(x.toPixel(p.x)),
        round(y.toPixel(p.y)),
        p.isHighlighted ? 6 : 4.5,
        attrs,
      ),
    );
  }
  const labelled = options.labels === 'highlighted' ? front : points;
  for (const l of placeLabels(labelled.map((p) => ({ x: x.toPixel(p.x), y: y.toPixel(p.y), text: p.label }))))
    body.push(`<text x="${round(l.x)}" y="${round(l.y)}" font-size="10">${escapeXml(l.text)}</text>`);
  const legend: LegendEntry[] = groups.map((g) => ({ name: g, color: colorOf(g), kind: 'dot' }));
  for (const m of markers) legend.push({ name: m, color: '#777', kind: 'dot', shape: shapeOf(m) });
  if (points.some((p) => p.isHollow))
    legend.push({ name: options.hollowLabel ?? 'hollow', color: '#777', kind: 'dot', isHollow: true });
  if (options.frontLabel) legend.push({ name: options.frontLabel, color: '#333', kind: 'dashed' });
  body.push(...drawLegend(legend, plot.right + 14, plot.top));
  return svgDocument(width, height, options.title, body);
}
