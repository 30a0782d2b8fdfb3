// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layer rules of DESIGN.md are lint rules (biome.json, noRestrictedImports), not memory. Each case writes a
 * probe file with one import at a place in the tree, lints it with the project's own configuration, and expects
 * the import to be refused, or accepted.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIOME = path.join(ROOT, 'node_modules', '.bin', 'biome');

function lintProbe(dir: string, source: string): string {
  const file = path.join(ROOT, dir, `zz-layer-probe-${randomUUID().slice(0, 8)}.ts`);
  fs.writeFileSync(file, source);
  try {
    execFileSync(BIOME, ['lint', '--max-diagnostics=20', path.relative(ROOT, file)], { cwd: ROOT, stdio: 'pipe' });
    return '';
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: Buffer; stderr?: Buffer };
    return `${stdout ?? ''}${stderr ?? ''}` || String(err);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const refused = (dir: string, specifier: string) =>
  expect(lintProbe(dir, `import * as probe from '${specifier}';\nexport const used = probe;\n`)).toContain(
    'noRestrictedImports',
  );
const accepted = (dir: string, specifier: string) =>
  expect(lintProbe(dir, `import * as probe from '${specifier}';\nexport const used = probe;\n`)).not.toContain(
    'noRestrictedImports',
  );

// Each probe starts biome (about half a second, more on a busy machine): the cases get a minute, not the default 5 s.
describe('layer rules held by lint', { timeout: 60_000 }, () => {
  it('server/platform never imports a domain', () => {
    refused('server/platform/http', '../../domains/funding');
    refused('server/platform', '../domains/account/users');
    accepted('server/platform/http', '../db/connect');
  });

  it('a domain reaches another domain, and the ledger, only through its index.ts', () => {
    refused('server/domains/funding', '../account/users');
    accepted('server/domains/funding', '../account');
    accepted('server/domains/funding', './withdrawals');
    accepted('server/domains/funding', '../../platform/db/connect');
    refused('server/domains/funding/migrations', '../../account/users');
    refused('server/ops', '../domains/funding/review');
    refused('server', './ledger/ledger');
    accepted('server', './ledger');
  });

  it('the client never imports the server, and the layers below src/ never import src/ or React', () => {
    refused('src/features/market/pages', '../../../../server/market');
    refused('core/api', '../../src/state/session');
    refused('streams', '../src/lib/format');
    refused('core', '../streams/socket');
    accepted('streams', '../core/money');
    refused('streams', 'react');
    refused('core', 'valtio');
    accepted('src/features/market/pages', 'react');
    // machines/ (XState order lifecycles) sit between streams/ and src/: no React, nothing of the app.
    refused('machines/spot', 'react');
    refused('machines/spot', '@xstate/react');
    refused('machines/spot', '../../src/lib/format');
    refused('machines/spot', 'decimal.js');
    accepted('machines/spot', 'xstate');
    accepted('machines/spot', '../../protocol/spot');
  });

  it('one place per library: ky, socket.io-client and Decimal construction', () => {
    refused('src/features/wallet/pages', 'ky');
    refused('core/api', 'ky');
    refused('src/app', 'socket.io-client');
    refused('streams', 'socket.io-client');
    refused('src/features/market/components', 'decimal.js');
    accepted('src/features/market/components', '../../../../core/money');
  });

  it('src/components/ is presentational, and protocol/ imports nothing of ours', () => {
    refused('src/components', '../../core/api/wallet');
    refused('src/components', '../state/session');
    refused('src/components', '@tanstack/react-query');
    accepted('src/components', '../../core/money');
    refused('protocol', '../server/platform/errors');
    refused('protocol', '../core/money');
    accepted('protocol', './fields');
  });
});
