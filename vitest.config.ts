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
	"test/cli/bash-output-files.test.ts",
	"test/cli/bounded-input.test.ts",
	"test/cli/compaction.test.ts",
	"test/cli/config.test.ts",
	"test/cli/double-interrupt.test.ts",
	"test/cli/file-permissions.test.ts",
	"test/cli/json-mode.test.ts",
	"test/cli/mcp.test.ts",
	"test/cli/models.test.ts",
	"test/cli/print-mode.test.ts",
	"test/cli/resources.test.ts",
	"test/cli/session-lock.test.ts",
	"test/cli/session-picker.test.ts",
	"test/cli/session-repair.test.ts",
	"test/cli/sessions.test.ts",
	"test/cli/slow-reader.test.ts",
	"test/cli/stdout-errors.test.ts",
	"test/cli/tools-option.test.ts",
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
	"test/core/session/session-run-gates.test.ts",
	"test/core/session/session-tools.test.ts",
	"test/mcp/http-servers.test.ts",
	"test/mcp/stdio-servers.test.ts",
	"test/resources/install-resources.test.ts",
	"test/support/scripted-model-server.test.ts",
	"test/tools/bash-memory.test.ts",
	"test/tools/bash.test.ts",
	"test/tools/edit-concurrent.test.ts",
	"test/tools/new-tool.test.ts",
	"test/tools/output-files.test.ts",
	"test/tools/special-files.test.ts",
	"test/tui/e2e-tmux.test.ts",
	"test/tui/escape-sequences-tmux.test.ts",
	"test/tui/mcp-tmux.test.ts",
	"test/tui/real-session.test.tsx",
	"test/tui/resources-tmux.test.ts",
	"test/tui/session-guard-tmux.test.ts",
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
