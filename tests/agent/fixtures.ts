// A small hand-made trajectory for the trajectory and export tests: a native
// tool-calling episode with tokens on one turn and a malformed call on another.
import { DEFAULT_AGENT_LIMITS } from '../../src/agent/limits.js';
import type { Trajectory } from '../../src/agent/trajectory.js';

export function sampleTrajectory(): Trajectory {
  return {
    schema: 'frognano.trajectory/v1',
    meta: {
      taskId: 'calc.add-1',
      model: 'scripted:fixture',
      toolset: 'leaf',
      protocol: 'tools',
      startedAt: '2026-01-01T00:00:00.000Z',
      limits: { ...DEFAULT_AGENT_LIMITS },
    },
    messages: [
      { role: 'system', content: 'You are a careful software engineer.' },
      { role: 'user', content: 'add() subtracts' },
      {
        role: 'assistant',
        content: 'Let me look.',
        reasoning_content: 'check calc.py',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"calc.py"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '     1\tdef add(a, b):' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c2', type: 'function', function: { name: 'Edit', arguments: '{"file_path": "calc.py"' } }] },
      { role: 'tool', tool_call_id: 'c2', content: 'Format error: ...' },
      { role: 'assistant', content: 'Fixed.' },
    ],
    turns: [
      {
        index: 0,
        messageIndex: 2,
        startedAt: '2026-01-01T00:00:01.000Z',
        ms: 120,
        finishReason: 'tool_calls',
        usage: { promptTokens: 100, completionTokens: 20 },
        tokens: { promptIds: [1, 2, 3], ids: [9, 8], logprobs: [-0.1, -0.2] },
        logprob: -0.3,
      },
      {
        index: 1,
        messageIndex: 4,
        startedAt: '2026-01-01T00:00:02.000Z',
        ms: 80,
        finishReason: 'tool_calls',
        usage: { promptTokens: 150, completionTokens: 10 },
      },
      { index: 2, messageIndex: 6, startedAt: '2026-01-01T00:00:03.000Z', ms: 50, finishReason: 'stop' },
    ],
    stopReason: 'submitted',
    endedAt: '2026-01-01T00:00:04.000Z',
  };
}
