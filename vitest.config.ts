import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const TESTS = ["test/**/*.test.ts", "test/**/*.test.tsx"];

/**
 * Test files that start a process (bin/loom, bash, tmux, node) or a server (the scripted model server): the
 * "process" project. Every other test file is in the "unit" project (`npm run test:unit`), whose setup
 * (test/support/no-processes.ts) fails a test that starts either, naming this list; so the list stays true as
 * tests are added, without a naming rule that would have moved files.
 */
export const PROCESS_TESTS = [
	"test/sdk/todo-and-plan.test.ts",
	"test/sdk/subagents.test.ts",
	"test/cli/subagents-cli.test.ts",
	"test/cli/acp/acp-agent.test.ts",
	"test/sdk/background-shells.test.ts",
	"test/plugs/lsp/language-servers.test.ts",
	"test/cli/acp/acp-permissions.test.ts",
	"test/cli/acp/client-files.test.ts",
	"test/bench/smoke.test.ts",
	"test/plugs/checkpoints/files-mode.test.ts",
	"test/plugs/hooks/settings-hooks.test.ts",
	"test/plugs/checkpoints/git-output.test.ts",
	"test/plugs/checkpoints/prune.test.ts",
	"test/plugs/checkpoints/restore-deletes.test.ts",
	"test/plugs/checkpoints/restore.test.ts",
	"test/plugs/checkpoints/session-rewind.test.ts",
	"test/plugs/checkpoints/shadow-repo.test.ts",
	"test/plugs/checkpoints/lazy-checkpoints.test.ts",
	"test/tools/grep-ripgrep.test.ts",
	"test/plugs/sandbox/launcher-preload.test.ts",
	"test/cli/approval.test.ts",
	"test/cli/bash-output-files.test.ts",
	"test/cli/bounded-input.test.ts",
	"test/cli/compaction.test.ts",
	"test/cli/config.test.ts",
	"test/cli/double-interrupt.test.ts",
	"test/cli/extensions.test.ts",
	"test/cli/file-permissions.test.ts",
	"test/cli/hooks.test.ts",
	"test/cli/json-mode.test.ts",
	"test/cli/mcp.test.ts",
	"test/cli/models.test.ts",
	"test/cli/output-schema.test.ts",
	"test/cli/ephemeral.test.ts",
	"test/cli/batch/batch.test.ts",
	"test/cli/batch/queue.test.ts",
	"test/action/run-action.test.ts",
	"test/docker/dockerfile-image.test.ts",
	"test/cli/print/print-mode.test.ts",
	"test/cli/print/ask-user-print.test.ts",
	"test/cli/resources.test.ts",
	"test/cli/rpc-mode.test.ts",
	"test/cli/session-lock.test.ts",
	"test/cli/session-picker.test.ts",
	"test/cli/session-repair.test.ts",
	"test/cli/sessions.test.ts",
	"test/cli/slow-reader.test.ts",
	"test/cli/startup-signals.test.ts",
	"test/cli/stdout-errors.test.ts",
	"test/cli/tools-option.test.ts",
	"test/cli/undo.test.ts",
	"test/core/ai/providers/agent-run.test.ts",
	"test/core/lib/process/process-group-set.test.ts",
	"test/core/ai/providers/anthropic-messages.test.ts",
	"test/core/ai/providers/api-registry.test.ts",
	"test/core/ai/providers/provider-error.test.ts",
	"test/core/ai/providers/cross-provider.test.ts",
	"test/core/ai/providers/google-generative-ai.test.ts",
	"test/core/ai/providers/invalid-tool-arguments.test.ts",
	"test/core/ai/providers/malformed-chunks.test.ts",
	"test/core/ai/providers/openai-completions.test.ts",
	"test/core/ai/providers/openai-responses.test.ts",
	"test/core/ai/providers/web-search-blocks.test.ts",
	"test/core/ai/providers/provider-failures.test.ts",
	"test/core/ai/providers/slow-consumer.test.ts",
	"test/core/ai/providers/http-fetch.test.ts",
	"test/core/ai/providers/fetch-after-request.test.ts",
	"test/core/ai/transform-messages.test.ts",
	"test/core/session/agent-session.test.ts",
	"test/core/session/store/malformed-parts.test.ts",
	"test/core/session/compaction/compact.test.ts",
	"test/core/session/compaction/generate-summary.test.ts",
	"test/core/session/compaction/session-recipe.test.ts",
	"test/core/session/compaction/summary-message.test.ts",
	"test/core/session/session-compact-command.test.ts",
	"test/core/session/run/session-compaction.test.ts",
	"test/core/session/session-hooks.test.ts",
	"test/core/session/session-models.test.ts",
	"test/core/session/session-run-gates.test.ts",
	"test/core/session/session-tools.test.ts",
	"test/examples/examples.test.ts",
	"test/layers/check-layers.test.ts",
	"test/plugs/export/export-chromium.test.ts",
	"test/plugs/export/export-command.test.ts",
	"test/plugs/extensions/extension-commands.test.ts",
	"test/plugs/extensions/extension-hooks.test.ts",
	"test/plugs/extensions/extension-loading.test.ts",
	"test/plugs/mcp/http-servers.test.ts",
	"test/plugs/mcp/stdio-servers.test.ts",
	"test/plugs/sandbox/sandbox-bwrap.test.ts",
	"test/plugs/resources/install-resources.test.ts",
	"test/cli/rpc/rpc-questions.test.ts",
	"test/sdk/create-agent-session.test.ts",
	"test/sdk/package.test.ts",
	"test/support/scripted-model-server.test.ts",
	"test/tools/bash-memory.test.ts",
	"test/tools/bash.test.ts",
	"test/tools/edit-concurrent.test.ts",
	"test/tools/new-tool.test.ts",
	"test/tools/output-files.test.ts",
	"test/tools/special-files.test.ts",
	"test/tools/web-fetch.test.ts",
	"test/tui/approval-tmux.test.ts",
	"test/tui/long-tasks-tmux.test.ts",
	"test/tui/subagents-tmux.test.ts",
	"test/tui/plan-mode-tmux.test.ts",
	"test/tui/e2e-tmux.test.ts",
	"test/tui/escape-sequences-tmux.test.ts",
	"test/tui/fork-tmux.test.ts",
	"test/tui/web-sources-tmux.test.ts",
	"test/tui/initial-files-tmux.test.ts",
	"test/tui/mcp-tmux.test.ts",
	"test/tui/hangup-exit-tmux.test.ts",
	"test/tui/no-color-tmux.test.ts",
	"test/tui/project-trust-tmux.test.ts",
	"test/tui/prompt-history-concurrent.test.ts",
	"test/tui/real-session.test.tsx",
	"test/tui/early-prompt.test.tsx",
	"test/tui/resources-tmux.test.ts",
	"test/tui/rewind-tmux.test.ts",
	"test/tui/screen-terminal-tmux.test.ts",
	"test/tui/session-guard-tmux.test.ts",
	"test/tui/editor/shell-command.test.tsx",
	"test/tui/shell-secrets-tmux.test.ts",
	"test/tui/signal-exit-tmux.test.ts",
	"test/tui/typed-ahead-tmux.test.ts",
	"test/tui/first-frame-tmux.test.ts",
	"test/tui/terminal-handoff-tmux.test.ts",
	"test/tui/screen/terminal-handoff.test.ts",
	"test/core/ai/logins/plan-logins.test.ts",
	"test/cli/login.test.ts",
	"test/plugs/mcp/mcp-oauth.test.ts",
	"test/plugs/worktrees/branch-worktrees.test.ts",
	"test/plugs/mcp/mcp-sign-in.test.ts",
];

/**
 * Headroom of a machine ten times slower than an idle 2-core one: a process test starts loom a few times (about a
 * second each when idle), a unit test takes well under one.
 */
const PROCESS_TIMEOUT_MS = 180_000;

/**
 * Unit test files that need modules of their own: they mock modules (vi.mock, vi.doMock) or watch how a module loads
 * (React's build, the highlighter, the file reads made once). Every other unit file shares a worker's loaded modules
 * with the files before it (isolate: false), which takes most of the unit run's time away: loading the sources.
 */
const ISOLATED_UNIT_TESTS = [
	"test/core/session/session-store-open.test.ts",
	"test/core/session/session-store-write-failure.test.ts",
	"test/sdk/shell-preload.test.ts",
	"test/tui/initial-attachments.test.tsx",
	"test/tui/render-count.test.tsx",
	"test/tui/screen-loader.test.ts",
	"test/tui/transcript-printer.test.tsx",
];

/**
 * The longest process files (20–45 s each on a loaded machine), started before the rest: without a cache of past
 * durations (a fresh clone, CI) vitest starts the largest files first, and a short file with a long test, started
 * last, leaves one core working alone at the end.
 */
const LONG_FIRST = [
	"test/bench/smoke.test.ts",
	"test/sdk/package.test.ts",
	"test/docker/dockerfile-image.test.ts",
	"test/cli/extensions.test.ts",
	"test/plugs/mcp/stdio-servers.test.ts",
	"test/tui/screen-terminal-tmux.test.ts",
	"test/plugs/lsp/language-servers.test.ts",
	"test/cli/rpc-mode.test.ts",
	"test/cli/acp/acp-agent.test.ts",
	"test/cli/mcp.test.ts",
];

class LongFilesFirst extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const sorted = await super.sort(files);
		const rank = (file: TestSpecification) => {
			const index = LONG_FIRST.findIndex((name) => file.moduleId.endsWith(name));
			return index === -1 ? LONG_FIRST.length : index;
		};
		const position = new Map(sorted.map((file, index) => [file, index]));
		return sorted.sort((a, b) => rank(a) - rank(b) || position.get(a)! - position.get(b)!);
	}
}

export default defineConfig({
	test: {
		testTimeout: 20_000,
		hookTimeout: 20_000,
		sequence: { sequencer: LongFilesFirst },
		// Both cores (vitest's default leaves one idle): process tests mostly wait for the processes they start.
		maxWorkers: "100%",
		// `await expect.poll(read).toX()` retries an assertion on something still to come (a frame Ink will draw):
		// often and, on a busy machine, for long enough.
		expect: { poll: { timeout: 5000, interval: 10 } },
		// Tests draw the screen from the sources, with Ink as installed: it would draw nothing live with CI set. The
		// bundle's Ink never sees CI (rolldown.config.mjs; a tmux test runs it with CI set).
		env: { CI: "false" },
		projects: [
			{
				extends: true,
				test: {
					name: "unit",
					include: TESTS,
					exclude: [...configDefaults.exclude, ...PROCESS_TESTS, ...ISOLATED_UNIT_TESTS],
					setupFiles: ["test/support/remove-temp-dirs.ts", "test/support/no-processes.ts", "test/support/lazy-modules-loaded.ts"],
					isolate: false,
				},
			},
			{
				extends: true,
				test: { name: "unit-isolated", include: ISOLATED_UNIT_TESTS, setupFiles: ["test/support/remove-temp-dirs.ts", "test/support/no-processes.ts"] },
			},
			{
				extends: true,
				test: {
					name: "process",
					include: PROCESS_TESTS,
					setupFiles: ["test/support/remove-temp-dirs.ts"],
					// Shared modules here too: a fresh worker per file cost a third of the run. A process test restores
					// what it changes of its own process (environment, spies); none mocks a module.
					isolate: false,
					testTimeout: PROCESS_TIMEOUT_MS,
					hookTimeout: PROCESS_TIMEOUT_MS,
					expect: { poll: { timeout: 60_000, interval: 20 } },
				},
			},
		],
	},
});
