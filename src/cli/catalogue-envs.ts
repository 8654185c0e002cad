// `--envs catalogue:FILTER` (train): the catalogue's entries that match, each
// registered (cloned at its pinned commit) and checked on first use, so
// training draws from the catalogue without an `env add` per repository.
import { catalogueEntry, filterCatalogue, loadCatalogue, type CatalogueFilter } from '../env/catalogue.js';
import { addEnvironment, findEnvironment, registeredEnvironment } from '../env/registry.js';
import { checkEnvironment, checkRecord } from '../grading/env-check.js';
import type { Runtime } from '../runtime/types.js';
import type { Store } from '../store/store.js';
import { UserError } from '../util/errors.js';
import { catalogueAdd } from './env-catalogue.js';

/** "python", "pytest", "all", or several joined by "+" ("typescript+vitest"): a language, a runner, or every entry. */
export function parseCatalogueFilter(text: string): CatalogueFilter {
  const f: CatalogueFilter = {};
  const entries = loadCatalogue();
  const languages = new Set<string>(entries.map((e) => e.language));
  const runners = new Set<string>(entries.map((e) => e.runner));
  for (const part of text.split('+').filter((p) => p && p !== 'all')) {
    if (languages.has(part)) f.language = part;
    else if (runners.has(part)) f.runner = part;
    else
      throw new UserError(
        `catalogue:${text}: "${part}" is neither a language nor a runner of the catalogue`,
        `use all, ${[...languages, ...runners].join(', ')}`,
      );
  }
  return f;
}

/**
 * The environment names of a list with every `catalogue:FILTER` expanded;
 * an entry not yet registered is added from its repository at its commit,
 * and one never checked here is checked (`say` reports each).
 */
export async function expandCatalogueEnvs(
  names: string[],
  opts: { store: Store; dataDir: string; runtime: Runtime; say: (line: string) => void },
): Promise<string[]> {
  const out: string[] = [];
  for (const name of names) {
    if (!name.startsWith('catalogue:')) {
      out.push(name);
      continue;
    }
    const matched = filterCatalogue(loadCatalogue(), parseCatalogueFilter(name.slice('catalogue:'.length)));
    if (matched.length === 0) throw new UserError(`${name} matches no catalogue entry`, 'frognano env catalogue lists them');
    for (const e of matched) {
      if (!registeredEnvironment(opts.store, e.name)) {
        opts.say(`${name}: adding ${e.name} from ${e.git} at ${e.commit.slice(0, 10)}`);
        const { target, options } = catalogueAdd(catalogueEntry(e.name).name);
        await addEnvironment(opts.store, target, options);
      }
      if (!opts.store.latestChecks().has(e.name)) {
        opts.say(`${name}: checking ${e.name}`);
        opts.store.recordCheck(checkRecord(await checkEnvironment(findEnvironment(opts.store, e.name), { dataDir: opts.dataDir, runtime: opts.runtime })));
      }
      out.push(e.name);
    }
  }
  return [...new Set(out)];
}
