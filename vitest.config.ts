import { configDefaults, defineConfig } from "vitest/config";

const TESTS = ["test/**/*.test.ts", "test/**/*.test.tsx"];

/**
 * Test files that start a process (bin/loom, bash, tmux, node) or a server (the scripted model server): the
 * "process" project. Every other test file is in the "unit" project (`npm run test:unit`), whose setup
 * (test/support/no-processes.ts) fails a test that starts either, naming this list; so the list stays true as
 * tests are added, without a naming rule that would have moved files.
 */
export const PROCESS_TESTS = [
	"test/bench/smoke.test.ts",
	"test/checkpoints/files-mode.test.ts",
	"test/checkpoints/prune.test.ts",
	"test/checkpoints/restore.test.ts",
	"test/checkpoints/session-rewind.test.ts",
	"test/checkpoints/shadow-repo.test.ts",
	"test/cli/approval.test.ts",
	"test/cli/bash-output-files.test.ts",
	"test/cli/bounded-input.test.ts",
	"test/cli/compaction.test.ts",
	"test/cli/config.test.ts",
	"test/cli/double-interrupt.test.ts",
	"test/cli/extensions.test.ts",
	"test/cli/file-permissions.test.ts",
	"test/cli/json-mode.test.ts",
	"test/cli/models.test.ts",
	"test/cli/print-mode.test.ts",
	"test/cli/resources.test.ts",
	"test/cli/rpc-mode.test.ts",
	"test/cli/session-lock.test.ts",
	"test/cli/session-picker.test.ts",
	"test/cli/session-repair.test.ts",
	"test/cli/sessions.test.ts",
	"test/cli/slow-reader.test.ts",
	"test/cli/stdout-errors.test.ts",
	"test/cli/tools-option.test.ts",
	"test/cli/undo.test.ts",
	"test/core/llm/agent-run.test.ts",
	"test/core/llm/anthropic-messages.test.ts",
	"test/core/llm/api-registry.test.ts",
	"test/core/llm/context-overflow.test.ts",
	"test/core/llm/cross-provider.test.ts",
	"test/core/llm/google-generative-ai.test.ts",
	"test/core/llm/invalid-tool-arguments.test.ts",
	"test/core/llm/malformed-chunks.test.ts",
	"test/core/llm/openai-completions.test.ts",
	"test/core/llm/openai-responses.test.ts",
	"test/core/llm/provider-failures.test.ts",
	"test/core/llm/transform-messages.test.ts",
	"test/core/session/agent-session.test.ts",
	"test/core/session/compaction/compact.test.ts",
	"test/core/session/compaction/generate-summary.test.ts",
	"test/core/session/compaction/session-recipe.test.ts",
	"test/core/session/compaction/summary-message.test.ts",
	"test/core/session/session-compact-command.test.ts",
	"test/core/session/session-compaction.test.ts",
	"test/core/session/session-hooks.test.ts",
	"test/core/session/session-models.test.ts",
	"test/core/session/session-tools.test.ts",
	"test/examples/examples.test.ts",
	"test/export/export-chromium.test.ts",
	"test/extensions/extension-hooks.test.ts",
	"test/extensions/extension-loading.test.ts",
	"test/resources/install-resources.test.ts",
	"test/rpc/rpc-questions.test.ts",
	"test/sdk/create-agent-session.test.ts",
	"test/sdk/package.test.ts",
	"test/support/scripted-model-server.test.ts",
	"test/tools/bash-memory.test.ts",
	"test/tools/bash.test.ts",
	"test/tools/edit-concurrent.test.ts",
	"test/tools/new-tool.test.ts",
	"test/tools/output-files.test.ts",
	"test/tools/special-files.test.ts",
	"test/tui/approval-tmux.test.ts",
	"test/tui/e2e-tmux.test.ts",
	"test/tui/escape-sequences-tmux.test.ts",
	"test/tui/no-color-tmux.test.ts",
	"test/tui/project-trust-tmux.test.ts",
	"test/tui/real-session.test.tsx",
	"test/tui/resources-tmux.test.ts",
	"test/tui/rewind-tmux.test.ts",
	"test/tui/session-guard-tmux.test.ts",
	"test/tui/shell-command.test.tsx",
	"test/tui/terminal-handoff-tmux.test.ts",
];

export default defineConfig({
	test: {
		testTimeout: 20_000,
		hookTimeout: 20_000,
		// `await expect.poll(read).toX()` retries an assertion on something still to come (a frame Ink will draw):
		// often and, on a busy machine, for long enough.
		expect: { poll: { timeout: 5000, interval: 10 } },
		projects: [
			{
				extends: true,
				test: {
					name: "unit",
					include: TESTS,
					exclude: [...configDefaults.exclude, ...PROCESS_TESTS],
					setupFiles: ["test/support/no-processes.ts"],
				},
			},
			{ extends: true, test: { name: "process", include: PROCESS_TESTS } },
		],
	},
});
