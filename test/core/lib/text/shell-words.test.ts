// Paths written as shell words and @-mentions, and read back: what completion writes and a prompt's mentions read.
import { describe, expect, it } from "vitest";
import { mentions, mentionWord, shellWord } from "../../../../src/core/lib/text/shell-words.js";

describe("@ mentions and shell words", () => {
	it("read a mention plain, escaped or quoted; only at the start or after a blank", () => {
		const text = 'look at @src/a.ts and @"dir with space/file name.txt", @dir\\ two/b.md, me@example.com @"a \\"q\\".txt"';
		expect(mentions(text).map((mention) => mention.path)).toEqual(["src/a.ts", "dir with space/file name.txt", "dir two/b.md,", 'a "q".txt']);
		expect(mentions("@").length).toBe(0);
	});

	it("write a path back so that it reads the same", () => {
		for (const path of ["plain/path.ts", "dir with space/file name.txt", "it's $HOME (1).txt", 'quote " and \\ back']) {
			expect(mentions(mentionWord(path))[0]?.path).toBe(path);
			expect(mentions(`@${shellWord(path)}`)[0]?.path).toBe(path);
		}
		expect(shellWord("~/my dir")).toBe("~/my\\ dir");
	});
});
