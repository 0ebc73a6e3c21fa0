// Renders the Editor alone with recording props, for Ink tests.
import { render } from "ink-testing-library";
import { vi } from "vitest";
import { Editor, type EditorProps } from "../../src/tui/components/Editor.js";
import { normalizeKeys } from "../../src/tui/editor/paste-filter.js";
import { plain, typeKeys } from "./render-helpers.js";

/** The editor, 60 columns wide, recording what it sends; `overrides` replace any prop. */
export function mountEditor(overrides: Partial<EditorProps> = {}) {
	const sent: string[] = [];
	const props: EditorProps = {
		running: false,
		width: 60,
		maxRows: 6,
		inputActive: true,
		onSubmit: (text) => {
			sent.push(text);
			return undefined;
		},
		onInterrupt: vi.fn(() => []),
		onExit: vi.fn(),
		onToggleThinking: vi.fn(),
		...overrides,
	};
	const app = render(<Editor {...props} />);
	// Keys as a terminal sends them, rewritten as the screen's input filter does before Ink reads them (DEL, what
	// Backspace sends, becomes BS).
	const press = (...keys: string[]) => typeKeys(app.stdin, ...keys.map(normalizeKeys));
	// Assertions on the frame wait for it: `await expect.poll(frame)…` retries until Ink has drawn the keys.
	const frame = () => plain(app.lastFrame());
	return { app, props, sent, press, frame };
}
