/**
 * The layer rules of DESIGN.md ("The data flow, one way", "Layout"), held on RESOLVED paths: an import is judged by the
 * file it lands on, however its specifier is spelled (`../account/users`, `../../domains/account/users`, a `.js`
 * suffix, a deep library subpath). `npm run lint` runs this after biome; tests/unit/layers.test.ts shows each rule
 * refusing a real violation. There are no known exceptions: a rule that fails is fixed in the import, not here.
 */
const fs = require('node:fs');
const path = require('node:path');
const { CachedInputFileSystem, ResolverFactory } = require('enhanced-resolve');

/** How libraries are resolved: the cruise and the entry look-up below must agree, so both read these. */
const resolution = {
  exportsFields: ['exports'],
  conditionNames: ['import', 'require', 'node', 'default'],
};

/** The client: everything the browser runs. It shares code with the server only through protocol/. */
const CLIENT = '^(protocol|core|streams|workers|machines|src)/';
/** Below the React app (DESIGN: these import no React and nothing of src/). */
const BELOW_SRC = '^(protocol|core|streams|workers|machines)/';
/** React and the libraries that exist for it; only src/ uses them. */
const REACT_LIBRARIES =
  '^node_modules/(react|react-dom|react-i18next|@xstate/react|valtio|@tanstack/react-[^/]+|@testing-library/react)/';
const TEST_FILE = '\\.test\\.tsx?$';

/**
 * Library subpaths that are a documented public entry point of their library (`xstate/graph` is where XState ships its
 * graph tools, `react-dom/client` is React's root API, @noble ships one module per algorithm). Any other subpath reaches
 * into a library's build layout, and walks around the one-place-per-library rules.
 */
const PUBLIC_SUBPATHS = [
  'xstate/graph',
  'react-dom/client',
  'valtio/utils',
  'viem/accounts',
  'viem/siwe',
  '@noble/hashes/sha2.js',
  '@noble/hashes/sha3.js',
  '@noble/hashes/hmac.js',
  '@noble/hashes/hkdf.js',
  '@noble/hashes/utils.js',
  '@noble/ciphers/chacha.js',
  '@noble/ciphers/utils.js',
  'zod/mini',
  'vitest/config',
  'vitest/node',
  'elkjs/lib/elk.bundled.js',
  'elkjs/lib/elk-api',
  'dependency-cruiser/config-utl/extract-depcruise-options',
];

const asRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The files a library's bare name and its public subpaths resolve to, as `^node_modules/…$` patterns. A dependency
 * into node_modules that lands anywhere else came through a deep subpath. Names that do not resolve (type-only
 * packages such as @types/node) have no entry file, so nothing can import them at run time anyway.
 */
function libraryEntries(root) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const names = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
  const resolver = ResolverFactory.createResolver({
    ...resolution,
    fileSystem: new CachedInputFileSystem(fs, 4000),
    useSyncFileSystemCalls: true,
    extensions: ['.js', '.mjs', '.cjs', '.json'],
  });
  const entries = new Set();
  for (const specifier of [...names, ...PUBLIC_SUBPATHS]) {
    try {
      const file = resolver.resolveSync({}, root, specifier);
      if (file) entries.add(`^${asRegExp(path.relative(root, file).split(path.sep).join('/'))}$`);
    } catch {
      // Not importable by name: nothing to allow.
    }
  }
  return [...entries];
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'layer-protocol',
      comment: 'protocol/ is the bottom layer, the contract both sides import: it imports nothing of ours outside it.',
      severity: 'error',
      from: { path: '^protocol/' },
      to: { dependencyTypes: ['local'], pathNot: '^(protocol|server)/' },
    },
    {
      name: 'layer-core',
      comment: 'core/ (api, money, clock) sits on protocol/ only: streams, workers, machines and src/ build on it.',
      severity: 'error',
      from: { path: '^core/' },
      to: { dependencyTypes: ['local'], pathNot: '^(core|protocol|server)/' },
    },
    {
      name: 'layer-streams',
      comment: 'streams/ imports core/ and protocol/ only: machines/ run on streams, never the other way.',
      severity: 'error',
      from: { path: '^streams/' },
      to: { dependencyTypes: ['local'], pathNot: '^(streams|core|protocol|server)/' },
    },
    {
      name: 'layer-workers',
      comment: 'workers/ (Comlink maths) imports core/ and protocol/ only.',
      severity: 'error',
      from: { path: '^workers/' },
      to: { dependencyTypes: ['local'], pathNot: '^(workers|core|protocol|server)/' },
    },
    {
      name: 'layer-machines',
      comment: 'machines/ may import streams/, workers/, core/ and protocol/, never src/.',
      severity: 'error',
      from: { path: '^machines/' },
      to: { dependencyTypes: ['local'], pathNot: '^(machines|streams|workers|core|protocol|server)/' },
    },
    {
      name: 'no-react-below-src',
      comment: 'Only src/ (the React app) uses React and its libraries; the layers below it stay framework-free.',
      severity: 'error',
      from: { path: BELOW_SRC },
      to: { path: REACT_LIBRARIES },
    },
    {
      name: 'client-not-to-server',
      comment: 'The client never imports the server: what both need lives in protocol/.',
      severity: 'error',
      from: { path: CLIENT },
      to: { path: '^server/' },
    },
    {
      name: 'components-presentational',
      comment:
        'src/components/ sits below the features: props in, JSX out. No feature, shell, store, query, call, stream or ' +
        'machine (exact decimal maths from core/money and core/decimal-text is fine).',
      severity: 'error',
      from: { path: '^src/components/' },
      to: {
        path: [
          '^src/(features|app|console|state|data|pwa)/',
          '^(streams|machines|workers)/',
          '^core/(?!money\\.ts$|decimal-text\\.ts$)',
          '^node_modules/(valtio|@tanstack/react-query)/',
        ],
      },
    },
    {
      name: 'feature-via-public-surface',
      comment:
        "A feature reaches another feature only through that feature's public.ts (and its root stylesheet, which " +
        'carries no code).',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: {
        path: '^src/features/',
        pathNot: ['^src/features/$1/', '^src/features/[^/]+/public\\.ts$', '^src/features/[^/]+/[^/]+\\.css$'],
      },
    },
    {
      name: 'ky-only-in-api-client',
      comment: 'One place per library: only core/api/client.ts imports ky; everything else calls core/api.',
      severity: 'error',
      from: { pathNot: '^core/api/client\\.ts$' },
      to: { path: '^node_modules/ky/' },
    },
    {
      name: 'socket-io-client-only-in-streams-socket',
      comment:
        'One place per library: in the client only streams/socket.ts imports socket.io-client (tests may drive a ' +
        'real server with it).',
      severity: 'error',
      from: { path: CLIENT, pathNot: '^streams/socket\\.ts$' },
      to: { path: '^node_modules/(socket\\.io-client|engine\\.io-client)/' },
    },
    {
      name: 'decimal-only-in-core-money',
      comment:
        'Decimals are built from raw input only in core/money.ts (DESIGN); protocol/rules and the server count in ' +
        'bigint units. Import Decimal and toDecimal from core/money.',
      severity: 'error',
      from: { pathNot: '^core/money\\.ts$' },
      to: { path: '^node_modules/decimal\\.js/' },
    },
    {
      name: 'server-domain-via-index',
      comment: "Another domain is reached only through its index.ts, the domain's public surface.",
      severity: 'error',
      from: { path: '^server/domains/([^/]+)/', pathNot: TEST_FILE },
      // The domain contract (defineDomain and what start gives a domain) is no domain: every domain names itself with it.
      to: {
        path: '^server/domains/',
        pathNot: ['^server/domains/$1/', '^server/domains/[^/]+/index\\.ts$', '^server/domains/contract\\.ts$'],
      },
    },
    {
      name: 'server-domain-via-index',
      comment:
        'The files beside the domains (the list, the composition) reach a domain only through its index.ts; the ' +
        "contract alone names the five types a domain's start is given, type-only (a domain's index imports the " +
        'contract, so an import of that index back would close a cycle).',
      severity: 'error',
      from: { path: '^server/domains/[^/]+\\.ts$', pathNot: TEST_FILE },
      to: {
        path: '^server/domains/[^/]+/',
        pathNot: [
          '^server/domains/[^/]+/index\\.ts$',
          '^server/domains/(account/passwords|account/services|bank-cards/ops|operators/section|uploads/store)\\.ts$',
        ],
      },
    },
    {
      name: 'server-domain-via-index',
      comment: 'Only the domain contract may name those five types; another file beside the domains may not.',
      severity: 'error',
      from: { path: '^server/domains/[^/]+\\.ts$', pathNot: ['^server/domains/contract\\.ts$', TEST_FILE] },
      to: { path: '^server/domains/[^/]+/', pathNot: '^server/domains/[^/]+/index\\.ts$' },
    },
    {
      name: 'server-domain-via-index',
      comment: "Code outside the domains reaches a domain only through its index.ts, the domain's public surface.",
      severity: 'error',
      from: { path: '^server/(?!domains/)', pathNot: TEST_FILE },
      to: { path: '^server/domains/[^/]+/', pathNot: '^server/domains/[^/]+/index\\.ts$' },
    },
    {
      name: 'platform-not-to-domains',
      comment:
        'server/platform is infrastructure: it never imports a domain, the trading engine or the operator CLI. Let ' +
        'them register with it instead.',
      severity: 'error',
      from: { path: '^server/platform/' },
      to: { path: '^server/(domains|trading|ops)/' },
    },
    {
      name: 'ledger-via-index',
      comment: 'The ledger is reached only through server/ledger/index.ts.',
      severity: 'error',
      from: { path: '^server/(?!ledger/)', pathNot: TEST_FILE },
      to: { path: '^server/ledger/', pathNot: '^server/ledger/index\\.ts$' },
    },
    {
      name: 'market-via-index',
      comment: 'The market (feed, candles, price record) is reached only through server/market/index.ts.',
      severity: 'error',
      from: { path: '^server/(?!market/)', pathNot: TEST_FILE },
      to: { path: '^server/market/', pathNot: '^server/market/index\\.ts$' },
    },
    {
      name: 'no-deep-library-import',
      comment:
        'A library is imported by its name or by a public subpath listed in PUBLIC_SUBPATHS, never by a path into its ' +
        'build.',
      severity: 'error',
      from: {},
      to: { path: '^node_modules/', pathNot: libraryEntries(__dirname) },
    },
    {
      name: 'zod-mini-only',
      comment:
        "Schemas are written with zod/mini, whose functions a bundle keeps only when used; classic zod's methods come " +
        'whole (about 20 KB gzipped more in every route). One style on both sides, since protocol/ is shared.',
      severity: 'error',
      from: {},
      to: { path: '^node_modules/zod/(index\\.js|v4/classic/)' },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'Every import resolves to a file, so every rule above can judge it (virtual: modules are made by Vite plugins; ' +
        'vite-plugin-pwa/vanillajs is a types-only reference).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: ['^virtual:', '^vite-plugin-pwa/vanillajs$'] },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included: dependencies point one way.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: '^node_modules/' },
    // Type-only imports are dependencies too: a type-only cycle is still a cycle, and a type import still couples.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: resolution,
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content', compress: false },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
