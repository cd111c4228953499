/**
 * The vitest configuration Stryker runs (stryker.config.mjs): one project of vite.config.ts ('api'
 * or 'web', STRYKER_VITEST_PROJECT) with only the test files named in STRYKER_TEST_FILES. The
 * files are chosen here, not with Stryker's testFiles, which activates mutants of module-level
 * code only after the modules are loaded and so counts them as survivors (stryker-js#6144).
 */
import type { Reporter, TestModule } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import base from './vite.config';

type Task = { type: string; mode: string; tasks?: Task[]; result?: { state: string; errors?: unknown[] } };

/**
 * A test file whose beforeAll failed (the app did not start with a mutant in it) has its suites and
 * tests skipped, and Stryker counts a mutant whose tests were skipped as survived: here they fail
 * with the hook's error, so that the mutant is killed.
 */
function failTestsOfFailedHooks(): Reporter {
  let files: () => Task[] = () => [];
  const mark = (suite: Task, errors?: unknown[]) => {
    const failed = suite.result?.state === 'fail' && suite.result.errors?.length ? suite.result.errors : errors;
    for (const task of suite.tasks ?? []) {
      if (failed && (!task.result || task.result.state === 'skip')) {
        task.mode = 'run';
        task.result = { ...task.result, state: 'fail', errors: failed };
      }
      if (task.type === 'suite') mark(task, failed);
    }
  };
  return {
    onInit: (vitest) => void (files = () => vitest.state.getFiles() as unknown as Task[]),
    // Before the other reporters, which then show it as it counts.
    onTestRunEnd: (_modules: ReadonlyArray<TestModule>) => files().forEach((file) => mark(file)),
  };
}

const name = process.env.STRYKER_VITEST_PROJECT ?? 'api';
const projects = (base.test?.projects ?? []) as { test: { name: string; include?: string[] } }[];
const project = projects.find((p) => p.test.name === name);
if (!project) throw new Error(`No vitest project ${name} in vite.config.ts`);
const include = (process.env.STRYKER_TEST_FILES ?? '').split(',').filter(Boolean);

export default defineConfig({
  plugins: base.plugins,
  test: {
    ...base.test,
    projects: undefined,
    ...project.test,
    include: include.length ? include : project.test.include,
    reporters: [failTestsOfFailedHooks(), 'default'],
  },
});
