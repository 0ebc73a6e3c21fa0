// cli-highlight styles with its own chalk instance, colourless without a terminal; its theme functions share that
// instance's level. Call at the top of a test file that checks highlighted code: colours for its tests.
import { DEFAULT_THEME } from "cli-highlight/dist/theme.js";
import { afterAll, beforeAll } from "vitest";

export function withHighlightColours(): void {
	const themeChalk = DEFAULT_THEME.keyword as unknown as { level: number };
	const level = themeChalk.level;
	beforeAll(() => {
		themeChalk.level = 2;
	});
	afterAll(() => {
		themeChalk.level = level;
	});
}
