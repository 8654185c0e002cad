// The images exports build: the environment's language on a slim base, the
// Debian packages an export needs beside it, pytest for Python, and the
// environment's setup steps. One place for all three exports (Harbor,
// SWE-bench, SWE-smith), so their images stay alike.
import type { EnvironmentSpec } from '../env/spec.js';
import { withoutSystemPackages } from '../env/runners/system-packages.js';

/** The pytest Python images install: the version the exported grading was checked with here. */
export const EXPORT_PYTEST = '9.0.3';

/** FROM, the Debian packages asked for (python3 added on non-Python images, for the report reader), and pytest. */
export function baseImageLines(spec: EnvironmentSpec, packages: readonly string[]): string[] {
  const python = spec.language === 'python';
  const apt = [...packages, ...(python ? [] : ['python3'])];
  return [
    `FROM ${python ? 'python:3.11-slim' : 'node:20-slim'}`,
    ...(apt.length ? [`RUN apt-get update && apt-get install -y --no-install-recommends ${apt.join(' ')} && rm -rf /var/lib/apt/lists/*`] : []),
    ...(python ? [`RUN pip install --no-cache-dir pytest==${EXPORT_PYTEST}`] : []),
  ];
}

/** A command of the spec as the image runs it: its Python is the image's python3. */
export function inImage(command: string): string {
  return withoutSystemPackages(command).replaceAll('{python}', 'python3');
}

/** The environment's setup steps, each a RUN line. */
export function setupLines(spec: EnvironmentSpec): string[] {
  return spec.setup.map((s) => `RUN ${inImage(s)}`);
}
