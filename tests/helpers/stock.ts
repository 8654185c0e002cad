// A Stocker on its own, for tests of stocking and probing: a fresh pool and
// controller, a budget counted here, no supply unless given; the rollouts are
// the caller's (scripted).
import { DifficultyController } from '../../src/curriculum/controller.js';
import { TaskPool } from '../../src/curriculum/pool.js';
import { TRAIN_DEFAULTS } from '../../src/train/config.js';
import { Stocker, type StockDeps } from '../../src/train/stock.js';
import type { TaskSupply } from '../../src/train/supply.js';

export function bareStocker(o: Partial<StockDeps<unknown>> & Pick<StockDeps<unknown>, 'runOne'> & { budget: number }) {
  const pool = new TaskPool();
  const controller = new DifficultyController({ target: 0.5 });
  let spent = 0;
  const { budget, ...given } = o;
  const s = new Stocker<unknown>({
    cfg: TRAIN_DEFAULTS,
    supply: {} as TaskSupply,
    pool,
    controller,
    used: new Set(),
    phase: () => {},
    spend: () => void spent++,
    budgetLeft: () => budget - spent,
    ...given,
  });
  return { s, pool, controller, spent: () => spent };
}
