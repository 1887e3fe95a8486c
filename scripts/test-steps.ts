/**
 * `npm test`: every check, one step after another, stopping at the first that fails, with each step's duration printed
 * when it ends and all of them in a table at the end (a failed run too), so a slow step shows in every run's output.
 */
import { spawn } from 'node:child_process';

/** A step of the suite: the command that runs it. */
interface Step {
  name: string;
  command: string;
}

const steps: readonly Step[] = [
  { name: 'typecheck', command: 'npm run typecheck' },
  { name: 'lint', command: 'npm run lint && npm run lint:electron && npm run openapi:check' },
  { name: 'unit', command: 'npm run test:unit' },
  { name: 'integration', command: 'npm run test:integration' },
  { name: 'e2e', command: 'npm run test:e2e' },
];

type Outcome = { step: Step; seconds: number; passed: boolean };

function run(step: Step): Promise<Outcome> {
  const started = performance.now();
  console.log(`\n▶ ${step.name}: ${step.command}`);
  return new Promise((resolve) => {
    const child = spawn(step.command, { stdio: 'inherit', shell: true });
    const end = (passed: boolean): void => {
      const seconds = (performance.now() - started) / 1000;
      console.log(`■ ${step.name} ${passed ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s`);
      resolve({ step, seconds, passed });
    };
    child.on('error', () => end(false));
    child.on('exit', (code) => end(code === 0));
  });
}

function summary(outcomes: readonly Outcome[]): string {
  const width = Math.max(...steps.map((step) => step.name.length));
  const lines = steps.map((step) => {
    const outcome = outcomes.find((done) => done.step === step);
    const time = outcome === undefined ? '—'.padStart(6) : `${outcome.seconds.toFixed(0).padStart(4)} s`;
    const result = outcome === undefined ? 'not run' : outcome.passed ? 'passed' : 'FAILED';
    return `  ${step.name.padEnd(width)}  ${time}  ${result}`;
  });
  const total = outcomes.reduce((sum, outcome) => sum + outcome.seconds, 0);
  return ['\nTest steps', ...lines, `  ${'total'.padEnd(width)}  ${total.toFixed(0).padStart(4)} s`].join('\n');
}

const outcomes: Outcome[] = [];
for (const step of steps) {
  const outcome = await run(step);
  outcomes.push(outcome);
  if (!outcome.passed) break;
}
console.log(summary(outcomes));
process.exit(outcomes.every((outcome) => outcome.passed) && outcomes.length === steps.length ? 0 : 1);
