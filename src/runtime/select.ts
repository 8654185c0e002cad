import { UserError } from '../util/errors.js';
import { BwrapRuntime } from './bwrap.js';
import { DockerRuntime, dockerUnavailableReason } from './docker.js';
import { bwrapAvailable } from './host.js';
import { LOCAL_WARNING, LocalRuntime } from './local.js';
import type { Runtime, RuntimeName } from './types.js';

export interface RuntimeChoice {
  /** A RuntimeName or 'auto'; any other text (a flag's, an environment variable's) is refused here. */
  name?: RuntimeName | 'auto' | (string & {});
  /** Image for the docker runtime. */
  image?: string;
  /** Where to say that the local runtime is unisolated (default: stderr). */
  warn?: (message: string) => void;
}

/** bwrap when it works here, else local with a loud warning; docker on request. */
export function selectRuntime(choice: RuntimeChoice = {}): Runtime {
  const name = choice.name ?? process.env.FROGNANO_RUNTIME ?? 'auto';
  const warn = choice.warn ?? ((m: string) => process.stderr.write(`${m}\n`));
  switch (name) {
    case 'bwrap':
      if (!bwrapAvailable()) {
        throw new UserError(
          'runtime "bwrap" cannot start a sandbox here',
          'install it with `apt-get install bubblewrap`, or pass --runtime local to run unisolated',
        );
      }
      return new BwrapRuntime();
    case 'local':
      warn(LOCAL_WARNING);
      return new LocalRuntime();
    case 'docker': {
      const why = dockerUnavailableReason();
      if (why) throw new UserError(`runtime "docker" is unavailable: ${why}`, 'start a Docker engine or use --runtime bwrap');
      if (!choice.image) throw new UserError('runtime "docker" needs an image', 'pass --image <name>');
      return new DockerRuntime(choice.image);
    }
    case 'auto':
      if (bwrapAvailable()) return new BwrapRuntime();
      warn(LOCAL_WARNING);
      return new LocalRuntime();
    default:
      throw new UserError(`unknown runtime "${String(name)}"`, 'use bwrap, local or docker');
  }
}
