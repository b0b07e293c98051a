// npm run validate: installs what is missing and builds (scripts/setup.sh, scripts/build.sh),
// runs the ctest label `validation` (the thesis runs: locking, Cusick, WAM; the dGLI held-out
// accuracy; the fit recoveries; the contact scenes run to their end; every named scene's state
// hash after its full duration, native and wasm), then prints one table of the criteria:
// measured, target, status. Each validation case prints its criteria as lines
// `VALIDATE<TAB>criterion<TAB>measured<TAB>target<TAB>holds|unmet` (tests/cpp/validation_report.h).
// A criterion that holds is asserted by its case, so the command fails (exit 1) when one stops
// holding; the criteria not met yet are listed as unmet without failing. The full ctest output
// is in build/validation.log.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

for (const script of ['scripts/setup.sh', 'scripts/build.sh']) {
  const run = spawnSync(script, { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`validate: ${script} failed`);
    process.exit(1);
  }
}

const jobs = process.env.TELA_JOBS || '2';
const logPath = path.join(root, 'build/validation.log');
const log = fs.createWriteStream(logPath);
const started = Date.now();
console.log(`validate: ctest -L validation -j${jobs} (output in build/validation.log)`);

// ctest -V prefixes each line of a test's output with the test's number
const rows = [];
const status = await new Promise((resolve) => {
  const ctest = spawn('ctest', ['--test-dir', 'build', '-L', 'validation', `-j${jobs}`, '-V'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let pending = '';
  const onText = (chunk) => {
    log.write(chunk);
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      const figure = line.match(/^(\d+): VALIDATE\t([^\t]*)\t([^\t]*)\t([^\t]*)\t(holds|unmet)\s*$/);
      if (figure) {
        const [, test, criterion, measured, target, state] = figure;
        rows.push({ test: Number(test), criterion, measured, target, state });
      } else if (/^\s*\d+\/\d+ Test\s+#\d+:|tests passed|tests failed|following tests FAILED|^\s+\d+ - .*\(/
        .test(line)) {
        console.log(line.trim());
      }
    }
  };
  ctest.stdout.on('data', onText);
  ctest.stderr.on('data', onText);
  ctest.on('close', (code) => resolve(code ?? 1));
});
log.end();

// one table, in the order of the ctest entries (the order of CMakeLists.txt)
rows.sort((a, b) => a.test - b.test);
const header = { criterion: 'criterion', measured: 'measured', target: 'target', state: 'status' };
const columns = ['criterion', 'measured', 'target', 'state'];
const width = Object.fromEntries(columns.map((c) => [c, Math.max(...[header, ...rows].map((r) => r[c].length))]));
const line = (r) => `| ${columns.map((c) => r[c].padEnd(width[c])).join(' | ')} |`;
console.log('');
console.log(line(header));
console.log(`|${columns.map((c) => '-'.repeat(width[c] + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
console.log('');

const minutes = ((Date.now() - started) / 60000).toFixed(1);
const unmet = rows.filter((r) => r.state === 'unmet');
console.log(`validate: ${rows.length} criteria, ${rows.length - unmet.length} hold, ${unmet.length} unmet ` +
  `(${minutes} min)`);
if (rows.length === 0) {
  console.error('validate: no criterion was printed (see build/validation.log)');
  process.exit(1);
}
if (status !== 0) {
  console.error('validate: FAILED: a validation case failed, a criterion that holds stopped holding ' +
    '(see build/validation.log)');
  process.exit(1);
}
if (unmet.length) console.log('validate: the unmet criteria are targets not reached yet; they do not fail the run');
