import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PALETTE, linePlot, niceTicks } from '../../src/util/svg-plot.js';

/** Checks that tags nest and close properly (a small XML well-formedness check). */
function assertBalanced(svg: string): void {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g)) {
    const [, close, name, self] = m;
    if (self) continue;
    if (close) assert.equal(stack.pop(), name, `unexpected </${name}>`);
    else stack.push(name!);
  }
  assert.deepEqual(stack, []);
  assert.ok(!/&(?!amp;|lt;|gt;|quot;|#39;)/.test(svg), 'raw ampersand');
  const texts = [...svg.matchAll(/>([^<]*)</g)].map((m) => m[1]!);
  assert.ok(texts.every((t) => !t.includes('>')));
}

const curve = (f: (x: number) => number): [number, number][] => Array.from({ length: 11 }, (_, i) => [i * 1000, f(i * 1000)]);

describe('linePlot', () => {
  const series = [
    { name: 'frontier seed 1', group: 'frontier', faint: true, points: curve((x) => x / 12000) },
    { name: 'frontier seed 2', group: 'frontier', faint: true, points: curve((x) => x / 11000) },
    { name: 'frontier (mean)', group: 'frontier', bold: true, points: curve((x) => x / 11500) },
    { name: 'uniform', points: curve((x) => x / 20000) },
    { name: 'DAPO filter & <resample>', dashed: true, points: curve((x) => x / 15000) },
  ];
  const svg = linePlot({ title: 'Held-out solve rate', xLabel: 'rollouts', yLabel: 'solve rate', series, yDomain: [0, 1] });

  it('is well-formed and names every series', () => {
    assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
    assertBalanced(svg);
    for (const name of ['frontier seed 1', 'frontier seed 2', 'frontier (mean)', 'uniform', 'DAPO filter &amp; &lt;resample&gt;'])
      assert.ok(svg.includes(name), name);
    for (const t of ['Held-out solve rate', 'rollouts', 'solve rate']) assert.ok(svg.includes(`>${t}<`));
  });

  it('gives each group its own colour, faint seeds the colour of their mean', () => {
    const lines = [...svg.matchAll(/<polyline[^>]*stroke="(#\w+)"[^>]*>(?:<title>([^<]*)<\/title>)/g)].map((m) => [m[2]!, m[1]!] as const);
    const colour = new Map(lines);
    assert.equal(lines.length, 5);
    assert.equal(colour.get('frontier seed 1'), colour.get('frontier (mean)'));
    assert.equal(new Set([colour.get('frontier (mean)'), colour.get('uniform'), colour.get('DAPO filter &amp; &lt;resample&gt;')]).size, 3);
    assert.ok([...colour.values()].every((c) => PALETTE.includes(c)));
    assert.equal((svg.match(/stroke-opacity="0.3"/g) ?? []).length, 2, 'two faint lines');
    assert.ok(/stroke-width="3"[^>]*points/.test(svg), 'bold mean');
    assert.ok(svg.includes('stroke-dasharray'), 'dashed series');
  });

  it('draws ticks and keeps points inside the plot area', () => {
    assert.ok(svg.includes('>10k<') && svg.includes('>0.6<'));
    const coords = [...svg.matchAll(/points="([^"]*)"/g)].flatMap((m) => m[1]!.split(' ').map((p) => p.split(',').map(Number)));
    assert.ok(coords.every(([x, y]) => x! >= 64 && x! <= 720 - 170 && y! >= 40 && y! <= 440 - 56));
  });

  it('copes with empty and flat data', () => {
    assertBalanced(linePlot({ title: 't', xLabel: 'x', yLabel: 'y', series: [] }));
    const flat = linePlot({ title: 't', xLabel: 'x', yLabel: 'y', series: [{ name: 'one', points: [[1, 2]] }] });
    assertBalanced(flat);
    assert.ok(!flat.includes('NaN'));
  });
});

describe('niceTicks', () => {
  it('picks round steps covering the range', () => {
    assert.deepEqual(niceTicks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
    assert.deepEqual(niceTicks(0, 10000), [0, 2000, 4000, 6000, 8000, 10000]);
    assert.deepEqual(niceTicks(0.13, 0.87), [0.2, 0.4, 0.6, 0.8]);
    assert.deepEqual(niceTicks(3, 3), [3]);
  });
});
