import chalk from "chalk";
import { render } from "ink-testing-library";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Footer, type FooterProps } from "../../src/tui/components/Footer.js";
import { footerHeight } from "../../src/tui/screen/footer-text.js";
import { initialView } from "../../src/tui/transcript/view-model.js";
import { plain } from "./render-helpers.js";

const level = chalk.level;
beforeAll(() => {
	chalk.level = 1;
});
afterAll(() => {
	chalk.level = level;
});

function view(overrides: Partial<FooterProps["view"]> = {}): FooterProps["view"] {
	return {
		...initialView({ provider: "anthropic", model: "claude-sonnet", thinkingLevel: "medium", cwd: "/home/dev/project" }),
		usage: { input: 12_300, output: 1_250, cacheRead: 0, cacheWrite: 0, cost: 0.0421 },
		contextTokens: 23_000,
		...overrides,
	};
}

function footer(props: Partial<FooterProps>) {
	const { lastFrame, unmount } = render(<Footer view={view()} contextWindow={100_000} now={50_000} width={100} home="/home/dev" {...props} />);
	const raw = lastFrame() ?? "";
	unmount();
	return { raw, text: plain(raw) };
}

describe("Footer", () => {
	it("shows model, thinking level, cwd, tokens in and out, cost and context used", () => {
		const { text } = footer({});
		const lines = text.split("\n");
		expect(lines[0]).toBe("ready");
		expect(lines[1]).toBe("anthropic/claude-sonnet · thinking medium · ~/project · ↑12k ↓1.3k · $0.04 · ctx 23%");
	});

	it("while running: a spinner, the turn, the elapsed time and 'esc to interrupt'", () => {
		const { text } = footer({ view: view({ runStatus: "running", turn: 2, runStartedAt: 45_000 }) });
		expect(text.split("\n")[0]).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Working · turn 2 · 5\.0s · esc to interrupt$/);
	});

	it("names the approval mode after the run's state, in colour unless auto", () => {
		const session = { ...view().session, approvalMode: "ask" as const };
		const running = footer({ view: view({ runStatus: "running", turn: 1, runStartedAt: 45_000, session }) });
		expect(running.text.split("\n")[0]).toMatch(/ · esc to interrupt · ask \(shift\+tab\)$/);
		expect(running.raw).toContain("\u001b[33mask");
		expect(footer({ view: view({ session: { ...session, approvalMode: "auto" } }) }).text.split("\n")[0]).toBe("ready · auto (shift+tab)");
	});

	it("while a retry waits: a countdown line", () => {
		const waiting = view({ runStatus: "running", retry: { attempt: 2, maxRetries: 3, reason: "529 overloaded", until: 53_200 } });
		const { text } = footer({ view: waiting });
		expect(text.split("\n")[0]).toBe("⟳ Retry 2/3 in 4s: 529 overloaded");
		expect(footerHeight(waiting)).toBe(3);
		expect(footer({ view: waiting, now: 53_500 }).text).toContain("Retry 2/3 in 0s");
	});

	it("colours the context use when it gets high, and leaves it out when unknown", () => {
		expect(footer({ view: view({ contextTokens: 96_000 }) }).raw).toContain(`\u001b[31m · ctx 96%`);
		expect(footer({ view: view({ contextTokens: 85_000 }) }).raw).toContain(`\u001b[33m · ctx 85%`);
		expect(footer({ view: view({ contextTokens: undefined }) }).text).not.toContain("ctx");
		expect(footer({ contextWindow: undefined }).text).not.toContain("ctx");
	});

	it("at 60 columns keeps cost and context use, shortening the directory first (~ and an ellipsis in the middle)", () => {
		const deep = view({ session: { ...view().session, cwd: "/home/dev/work/clients/acme/services/billing-api" } });
		const { text } = footer({ view: deep, width: 60 });
		const info = text.split("\n")[1]!;
		expect(info.length).toBeLessThanOrEqual(60);
		expect(info).toMatch(/ · \$0\.04 · ctx 23%$/);
		expect(info).toMatch(/ · ~\/wo[^ ]*…[^ ]*-api · /);
		expect(info).toContain("anthropic/claude-sonnet");
	});

	it("when even a short directory leaves no room, gives up the thinking level, the tokens and the directory before cost or context", () => {
		const narrow = footer({ width: 40 }).text.split("\n")[1]!;
		expect(narrow.length).toBeLessThanOrEqual(40);
		expect(narrow).toMatch(/\$0\.04 · ctx 23%$/);
		const tiny = footer({ width: 24 }).text.split("\n")[1]!;
		expect(tiny).toMatch(/\$0\.04 · ctx 23%$/);
	});

	it("in 40 columns keeps the elapsed time of a run", () => {
		const { text } = footer({ view: view({ runStatus: "running", turn: 12, runStartedAt: 45_000 }), width: 40 });
		expect(text.split("\n")[0]).toMatch(/Working · turn 12 · 5\.0s/);
	});

	it("says when it is compacting", () => {
		expect(footer({ view: view({ compacting: "threshold" }) }).text).toContain("Compacting the conversation…");
	});
});
