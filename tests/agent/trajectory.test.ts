import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadTrajectory, parseTrajectoryLines, Recorder, type TrajectoryEvent } from '../../src/agent/trajectory.js';
import { tempDir } from '../helpers/workspace.js';
import { sampleTrajectory } from './fixtures.js';

/** The events that rebuild a trajectory, in order. */
function eventsOf(t = sampleTrajectory()): TrajectoryEvent[] {
  const events: TrajectoryEvent[] = [{ type: 'start', schema: t.schema, meta: t.meta }];
  t.messages.forEach((message, i) => {
    const turn = t.turns.find((x) => x.messageIndex === i);
    if (turn) events.push({ type: 'turn', turn });
    events.push({ type: 'message', message });
  });
  events.push({ type: 'end', stopReason: t.stopReason!, endedAt: t.endedAt! });
  return events;
}

describe('trajectory recorder', () => {
  it('writes one JSON line per event and loads back the same trajectory, tokens included', () => {
    const path = join(tempDir(), 'sub', 't.jsonl');
    const rec = new Recorder(path);
    const events = eventsOf();
    events.forEach((e) => rec.record(e));
    assert.equal(readFileSync(path, 'utf8').trimEnd().split('\n').length, events.length);
    const t = loadTrajectory(path);
    assert.deepEqual(t, sampleTrajectory());
    assert.deepEqual(t.turns[0]!.tokens!.logprobs, [-0.1, -0.2]);
  });

  it('starts a fresh file when constructed on an existing path', () => {
    const path = join(tempDir(), 't.jsonl');
    writeFileSync(path, 'old junk\n');
    const rec = new Recorder(path);
    rec.record(eventsOf()[0]!);
    assert.equal(loadTrajectory(path).messages.length, 0);
  });

  it('ignores a torn last line but rejects corruption elsewhere', () => {
    const lines = eventsOf()
      .slice(0, 4)
      .map((e) => JSON.stringify(e));
    const torn = parseTrajectoryLines(lines.join('\n') + '\n{"type":"message","mess');
    assert.equal(torn.messages.length, 2);
    assert.equal(torn.turns.length, 1);
    assert.equal(torn.stopReason, undefined);
    assert.throws(() => parseTrajectoryLines([lines[0], '{broken', lines[1]].join('\n')), /line 2 is not JSON/);
    assert.throws(() => parseTrajectoryLines(lines.slice(1).join('\n')), /does not begin with a start event/);
    assert.throws(() => parseTrajectoryLines(''), /no start event/);
    const other = JSON.stringify({ ...eventsOf()[0], schema: 'other/v9' });
    assert.throws(() => parseTrajectoryLines(other), /unknown trajectory schema/);
  });

  it('keeps every line written before a crash', () => {
    const path = join(tempDir(), 't.jsonl');
    const rec = new Recorder(path);
    eventsOf()
      .slice(0, 5)
      .forEach((e) => rec.record(e));
    appendFileSync(path, '{"type":"turn","tu'); // the process died mid-write
    const t = loadTrajectory(path);
    assert.equal(t.messages.length, 3);
    assert.equal(t.messages[2]!.role, 'assistant');
  });
});
