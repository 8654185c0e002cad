// npm's prepare step (and `npm run build`): compiles src/ into dist/ unless
// dist/ is already newer than every source. `npx frognano` in a checkout
// installs the checkout into npx's cache and runs this again; skipping a
// build that changes nothing makes that call take seconds, not a minute.
import { buildIfStale } from '../bin/build.js';

process.exitCode = buildIfStale(process.cwd());
