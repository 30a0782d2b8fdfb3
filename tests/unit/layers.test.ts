// @vitest-environment node
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer rules of DESIGN.md are dependency-cruiser rules on resolved paths (.dependency-cruiser.cjs), run by
 * `npm run lint`. Each case here is a probe file with one import, laid out in a scratch copy of the repository's
 * folders (its own temporary directory, so parallel test files and the real tree never see it), and the project's
 * own configuration must refuse the import with the named rule, or accept it (no rule). Every import target exists
 * in the scratch tree, so each import resolves to a real file the way it would in the repository.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');

interface Probe {
  /** Where the probe file sits (its folder, as in the repository). */
  dir: string;
  specifier: string;
  /** The file the specifier lands on, when it is ours; derived from the specifier unless it names a folder. */
  target?: string;
  /** The rules that must refuse it; none means it is allowed. */
  refusedBy: string[];
}

const refused = (dir: string, specifier: string, ...refusedBy: string[]): Probe => ({ dir, specifier, refusedBy });
const accepted = (dir: string, specifier: string, target?: string): Probe => ({
  dir,
  specifier,
  refusedBy: [],
  ...(target ? { target } : {}),
});

const cases: Record<string, Probe[]> = {
  'server/platform never imports a domain': [
    refused('server/platform/http', '../../domains/funding', 'platform-not-to-domains'),
    refused('server/platform', '../domains/account/users', 'platform-not-to-domains', 'server-domain-via-index'),
    accepted('server/platform/http', '../db/connect'),
  ],
  'a domain reaches another domain only through its index.ts, however the path is spelled': [
    // Passed the glob rules of biome.json: its own `../../**` exemption let the longer spelling through.
    refused('server/domains/funding', '../../domains/account/users', 'server-domain-via-index'),
    refused('server/domains/funding', '../account/users', 'server-domain-via-index'),
    refused('server/domains/funding', '../account/users.js', 'server-domain-via-index'),
    refused('server/domains/funding/migrations', '../../account/users', 'server-domain-via-index'),
    refused('server/ops', '../domains/funding/review', 'server-domain-via-index'),
    accepted('server/domains/funding', '../account', 'server/domains/account/index.ts'),
    accepted('server/domains/funding', './withdrawals'),
    accepted('server/domains/funding', '../../platform/db/connect'),
    // Passed before: neither rule covered the files beside the domains (the list, the contract, the composition).
    refused('server/domains', './funding/review', 'server-domain-via-index'),
    refused('server/domains', './uploads/store', 'server-domain-via-index'),
    accepted('server/domains', './funding', 'server/domains/funding/index.ts'),
  ],
  'the ledger and the market are reached only through their index.ts': [
    // Passed before: a domain could import the ledger's internals.
    refused('server/domains/funding', '../../ledger/errors', 'ledger-via-index'),
    refused('server', './ledger/ledger', 'ledger-via-index'),
    accepted('server', './ledger', 'server/ledger/index.ts'),
    // Passed before: platform could import market internals.
    refused('server/platform', '../market/instruments', 'market-via-index'),
    refused('server/trading', '../market/feed', 'market-via-index'),
    accepted('server/trading', '../market', 'server/market/index.ts'),
  ],
  'the client never imports the server': [
    refused('src/features/market/pages', '../../../../server/market', 'client-not-to-server'),
    refused('core', '../server/platform/errors', 'client-not-to-server'),
    refused('protocol', '../server/platform/errors', 'client-not-to-server'),
  ],
  'protocol → core → streams → workers/machines → src: each imports only the layers below it': [
    refused('protocol', '../core/money', 'layer-protocol'),
    accepted('protocol', './fields'),
    refused('core', '../streams/socket', 'layer-core'),
    refused('core/api', '../../src/state/session', 'layer-core'),
    accepted('core/api', '../../protocol/market'),
    // Passed before: streams could import machines.
    refused('streams', '../machines/spot/order.machine', 'layer-streams'),
    refused('streams', '../src/lib/format', 'layer-streams'),
    refused('streams', '../workers/lever', 'layer-streams'),
    accepted('streams', '../core/money'),
    refused('workers', '../streams/market', 'layer-workers'),
    accepted('workers', '../protocol/rules/lever'),
    refused('machines/spot', '../../src/lib/format', 'layer-machines'),
    accepted('machines/spot', '../../protocol/spot'),
    accepted('machines/spot', '../../streams/spot'),
    accepted('machines/spot', '../../workers/lever'),
  ],
  'the layers below src/ use no React': [
    refused('core', 'react', 'no-react-below-src'),
    refused('core', 'valtio', 'no-react-below-src'),
    refused('streams', 'react', 'no-react-below-src'),
    refused('machines/spot', 'react', 'no-react-below-src'),
    refused('machines/spot', '@xstate/react', 'no-react-below-src'),
    accepted('machines/spot', 'xstate'),
    accepted('src/features/market/pages', 'react'),
  ],
  'src/components/ is presentational, below the features': [
    refused('src/components', '../features/market/components/Change', 'components-presentational'),
    refused('src/components', '../../core/api/wallet', 'components-presentational'),
    refused('src/components', '../state/session', 'components-presentational'),
    refused('src/components', '@tanstack/react-query', 'components-presentational'),
    accepted('src/components', '../../core/money'),
    accepted('src/components', '../lib/format'),
  ],
  'a feature reaches another feature only through its public.ts': [
    // Passed before: a feature could import another feature's internals.
    refused('src/features/spot/pages/trade', '../../../market/components/Change.tsx', 'feature-via-public-surface'),
    refused('src/features/options/components', '../../identity/hooks/useVerification', 'feature-via-public-surface'),
    accepted('src/features/spot/pages/trade', '../../../market/public'),
    accepted('src/features/leverdetail/pages/lever', '../../../lever/lever.css'),
    accepted('src/features/spot/pages/trade', '../../components/PairPicker.tsx'),
  ],
  'one place per library: ky, socket.io-client and decimal.js': [
    refused('src/features/wallet/pages', 'ky', 'ky-only-in-api-client'),
    refused('core/api', 'ky', 'ky-only-in-api-client'),
    refused('src/app', 'socket.io-client', 'socket-io-client-only-in-streams-socket'),
    refused('streams', 'socket.io-client', 'socket-io-client-only-in-streams-socket'),
    accepted('tests/integration', 'socket.io-client'),
    refused('src/features/market/components', 'decimal.js', 'decimal-only-in-core-money'),
    refused('machines/spot', 'decimal.js', 'decimal-only-in-core-money'),
    refused('server/ledger', 'decimal.js', 'decimal-only-in-core-money'),
    accepted('src/features/market/components', '../../../../core/money'),
  ],
  'a library is imported by its name or a listed public subpath, not a path into its build': [
    // Passed before: only the bare names were restricted.
    refused('src/lib', 'rxjs/internal/operators/map', 'no-deep-library-import'),
    refused('core', 'comlink/dist/esm/comlink.mjs', 'no-deep-library-import'),
    accepted('src/lib', 'rxjs'),
    accepted('machines/spot', 'xstate/graph'),
    accepted('src', 'react-dom/client'),
  ],
  "schemas use zod/mini; classic zod's whole method set never enters a bundle": [
    refused('protocol', 'zod', 'zod-mini-only'),
    refused('server/domains/spot', 'zod', 'zod-mini-only'),
    accepted('protocol', 'zod/mini'),
  ],
};

interface Cycle {
  name: string;
  files: Record<string, string>;
}

/** Two small cycles: nothing in the old rules saw either. */
const cycles: Cycle[] = [
  {
    name: 'a run-time cycle',
    files: {
      'src/lib/quote-a.ts': "import { b } from './quote-b';\nexport const a = (): number => b + 1;\n",
      'src/lib/quote-b.ts':
        "import { a } from './quote-a';\nexport const b = 1;\nexport const later = (): number => a();\n",
    },
  },
  {
    name: 'a type-only cycle',
    files: {
      'protocol/order-a.ts': "import type { B } from './order-b';\nexport interface A {\n  b?: B;\n}\n",
      'protocol/order-b.ts': "import type { A } from './order-a';\nexport interface B {\n  a?: A;\n}\n",
    },
  },
  {
    name: 'a cycle through schema.ts that leaves out the ledger',
    files: {
      'server/platform/db/schema.ts':
        "import type { Pool } from './connect';\nexport interface Database {\n  pool?: Pool;\n}\n",
      'server/platform/db/connect.ts':
        "import type { Database } from './schema';\nexport interface Pool {\n  db?: Database;\n}\n",
    },
  },
];

/** The file a relative specifier lands on (a `.js` suffix names the `.ts` file, as TypeScript reads it). */
function targetOf(probe: Probe, file: string): string | undefined {
  if (probe.target) return probe.target;
  if (!probe.specifier.startsWith('.')) return undefined;
  const joined = path.posix.join(path.posix.dirname(file), probe.specifier);
  if (joined.endsWith('.js')) return `${joined.slice(0, -3)}.ts`;
  return /\.(tsx?|css)$/.test(joined) ? joined : `${joined}.ts`;
}

const probes = Object.entries(cases).flatMap(([group, list], g) =>
  list.map((probe, i) => ({ group, probe, file: `${probe.dir}/probe-${g}-${i}.ts` })),
);

let scratch = '';
let violations: IViolation[] = [];

function write(file: string, text: string): void {
  const full = path.join(scratch, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

function isResult(output: ICruiseResult | string): output is ICruiseResult {
  return typeof output !== 'string';
}

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tradewave-layers-'));
  // Libraries resolve from the repository's own node_modules, seen under the scratch root (symlinks preserved, so
  // their resolved paths read node_modules/… as in the repository).
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
  const targets = new Set<string>();
  for (const { probe, file } of probes) {
    write(file, `import * as probe from '${probe.specifier}';\nexport const used = probe;\n`);
    const target = targetOf(probe, file);
    if (target) targets.add(target);
  }
  for (const target of targets) {
    write(target, target.endsWith('.css') ? '.probe {\n}\n' : 'export const stub = 1;\n');
  }
  for (const cycle of cycles) for (const [file, text] of Object.entries(cycle.files)) write(file, text);

  const options = await extractDepcruiseOptions(path.join(ROOT, '.dependency-cruiser.cjs'));
  const roots = fs.readdirSync(scratch).filter((entry) => entry !== 'node_modules');
  const { output } = await cruise(roots, {
    ...options,
    baseDir: scratch,
    preserveSymlinks: true,
    cache: false,
    outputType: 'json',
  });
  const result = isResult(output) ? output : (JSON.parse(output) as ICruiseResult);
  violations = result.summary.violations;
}, 120_000);

afterAll(() => {
  if (!scratch) return;
  // The link first, on its own: removing the scratch tree must never walk into the real node_modules.
  fs.rmSync(path.join(scratch, 'node_modules'), { force: true });
  fs.rmSync(scratch, { recursive: true, force: true });
});

const rulesFrom = (file: string): string[] =>
  [...new Set(violations.filter((v) => v.from === file).map((v) => v.rule.name))].sort();

describe('layer rules held by lint (dependency-cruiser on resolved paths)', () => {
  for (const group of Object.keys(cases)) {
    it(group, () => {
      for (const { probe, file } of probes.filter((p) => p.group === group)) {
        expect({ import: `${probe.dir} → ${probe.specifier}`, refusedBy: rulesFrom(file) }).toEqual({
          import: `${probe.dir} → ${probe.specifier}`,
          refusedBy: [...probe.refusedBy].sort(),
        });
      }
    });
  }

  for (const cycle of cycles) {
    it(`refuses ${cycle.name}`, () => {
      const files = Object.keys(cycle.files);
      const found = violations.filter((v) => files.includes(v.from) && files.includes(v.to));
      expect(found.map((v) => v.rule.name)).toContain('no-circular');
      expect(found.every((v) => v.rule.name === 'no-circular')).toBe(true);
    });
  }
});
