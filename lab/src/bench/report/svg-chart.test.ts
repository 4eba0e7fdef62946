import { describe, expect, it } from 'vitest';
import { xmlProblems } from '../crawl/crawl-bench-test-utils.js';
import { compactNumber, escapeXml, lineChart, niceTicks, scatterChart } from './svg-chart.js';

const seriesNames = (svg: string) => [...svg.matchAll(/<polyline data-series="([^"]*)"/g)].map((m) => m[1]);

describe('xmlProblems (the checker the chart tests rely on)', () => {
  it('accepts well-formed XML and names what is wrong otherwise', () => {
    expect(
      xmlProblems('<?xml version="1.0"?>\n<svg a="1"><g><text>a &amp; b</text></g><line/></svg>'),
    ).toEqual([]);
    expect(xmlProblems('<svg><g></svg>')).toContain('</svg> closes <g>');
    expect(xmlProblems('<svg><text>a & b</text></svg>').join()).toContain("bare '&'");
    expect(xmlProblems('<svg x=1></svg>').join()).toContain('malformed attributes');
    expect(xmlProblems('<svg></svg><svg></svg>')).toContain('2 root elements');
  });
});

describe('niceTicks', () => {
  it('covers the range with steps of 1, 2 or 5 times a power of ten', () => {
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0, 3000)).toEqual([0, 1000, 2000, 3000]);
    expect(niceTicks(0, 37)).toEqual([0, 10, 20, 30]);
  });

  it('formats compact labels', () => {
    expect([compactNumber(1500), compactNumber(2_000_000), compactNumber(0.25)]).toEqual([
      '1.5k',
      '2M',
      '0.25',
    ]);
  });
});

describe('lineChart', () => {
  const svg = lineChart({
    title: 'Harvest <rate> & more',
    xLabel: 'pages fetched',
    yLabel: 'harvest rate',
    series: [
      {
        name: 'bfs',
        points: [
          [10, 0.5],
          [20, 0.4],
        ],
      },
      {
        name: 'a<b>',
        isDashed: true,
        points: [
          [10, 0.2],
          [20, Number.NaN],
        ],
      },
      { name: 'empty', points: [] },
    ],
  });

  it('is well-formed XML with its title, axis labels, one line per non-empty series and a legend entry each', () => {
    expect(xmlProblems(svg)).toEqual([]);
    expect(svg).toContain(`<title>${escapeXml('Harvest <rate> & more')}</title>`);
    expect(svg).toContain('>pages fetched</text>');
    expect(svg).toContain('>harvest rate</text>');
    expect(seriesNames(svg)).toEqual(['bfs', 'a&lt;b&gt;']);
    expect(svg).toContain('>empty</text>');
    expect(svg.match(/stroke-dasharray="6 3"/g)).toHaveLength(2); // the dashed line and its legend sample
  });

  it('maps larger values higher up and skips non-finite points', () => {
    const line = /data-series="bfs" points="([^"]*)"/.exec(svg)![1]!.split(' ');
    const [[x1, y1], [x2, y2]] = line.map((p) => p.split(',').map(Number)) as [
      [number, number],
      [number, number],
    ];
    expect(x2).toBeGreaterThan(x1);
    expect(y2).toBeGreaterThan(y1); // 0.4 is below 0.5: larger pixel y
    expect(/data-series="a&lt;b&gt;" points="([^"]*)"/.exec(svg)![1]!.split(' ')).toHaveLength(1);
  });

  it('draws a log axis over decades and leaves out values <= 0', () => {
    const log = lineChart({
      title: 'frontier',
      xLabel: 'x',
      yLabel: 'y',
      yScale: 'log',
      series: [
        {
          name: 'frontier',
          points: [
            [1, 0],
            [2, 50],
            [3, 5000],
          ],
        },
      ],
    });
    expect(xmlProblems(log)).toEqual([]);
    expect(/data-series="frontier" points="([^"]*)"/.exec(log)![1]!.split(' ')).toHaveLength(2);
    for (const label of ['10', '100', '1k', '10k']) expect(log).toContain(`>${label}</text>`);
  });
});

describe('scatterChart', () => {
  const svg = scatterChart({
    title: 'Pareto',
    xLabel: 'domains',
    yLabel: 'HR',
    frontLabel: 'Pareto front',
    labels: 'highlighted',
    points: [
      { x: 10, y: 0.9, label: 'tres', group: 'tres', marker: 'b = none', isHighlighted: true },
      { x: 40, y: 0.5, label: 'tres_5', group: 'tres', marker: 'b = 5', isHighlighted: true },
      { x: 5, y: 0.3, label: 'bfs', group: 'bfs', marker: 'b = none' },
      { x: 2, y: 0.95, label: 'bfs_5', group: 'bfs', marker: 'b = 5', isHollow: true },
    ],
    hollowLabel: 'ran dry',
  });

  it('is well-formed, draws every point, labels only the front, and joins the front from left to right', () => {
    expect(xmlProblems(svg)).toEqual([]);
    expect([...svg.matchAll(/data-point="([^"]*)"/g)].map((m) => m[1]).sort()).toEqual([
      'bfs',
      'bfs_5',
      'tres',
      'tres_5',
    ]);
    expect(svg).toMatch(/data-point="bfs_5" fill="#ffffff"/); // hollow
    const count = (text: string) => svg.split(`>${text}</text>`).length - 1;
    expect([count('tres'), count('tres_5'), count('bfs')]).toEqual([2, 1, 1]); // bfs: legend only
    const front = /data-series="Pareto front" points="([^"]*)"/.exec(svg)![1]!.split(' ');
    expect(front).toHaveLength(2);
    expect(Number(front[0]!.split(',')[0])).toBeLessThan(Number(front[1]!.split(',')[0]));
    for (const entry of ['tres', 'bfs', 'b = none', 'b = 5', 'ran dry', 'Pareto front'])
      expect(svg).toContain(`>${entry}</text>`);
  });
});
