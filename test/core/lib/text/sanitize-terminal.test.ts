import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { showControls, stripCommandOutput, stripControls, stripToOneLine, unfinishedSequenceStart } from "../../../../src/core/lib/text/sanitize-terminal.js";

const ESC = "\u001b";
const BEL = "\u0007";
const ST = `${ESC}\\`;

describe("stripControls", () => {
	it("returns the very same string when there is nothing to remove", () => {
		const text = "plain text, punctuation ~!@#$%^&*()_+{}|:\"<>? and a\nsecond line";
		expect(stripControls(text)).toBe(text);
		expect(stripControls("")).toBe("");
	});

	it("keeps UTF-8 text, emoji and wide characters intact", () => {
		const text = "naïve café, Ünïcödé — “quotes” · 漢字テスト 한국어 · 👍🏽 👨‍👩‍👧 🇫🇷 · e\u0301 · ½ ∑ → ✓";
		expect(stripControls(text)).toBe(text);
		expect(stripControls(`${ESC}[1m${text}${ESC}[0m`)).toBe(text);
		expect(stringWidth(stripControls(`漢字${ESC}]2;x${BEL}👍`))).toBe(stringWidth("漢字👍"));
	});

	it("removes CSI sequences: colours, cursor moves, erases, private modes", () => {
		expect(stripControls(`${ESC}[31mred${ESC}[0m ${ESC}[38;2;1;2;3mrgb${ESC}[m`)).toBe("red rgb");
		expect(stripControls(`a${ESC}[2J${ESC}[3J${ESC}[Hb${ESC}[10;20Hc${ESC}[?25l${ESC}[?1049hd${ESC}[1 qe`)).toBe("abcde");
		expect(stripControls(`up${ESC}[Ahere${ESC}[2Kgone`)).toBe("upheregone");
	});

	it("removes OSC sequences ended by BEL or ST: title, clipboard, hyperlinks", () => {
		expect(stripControls(`a${ESC}]0;title${BEL}b`)).toBe("ab");
		expect(stripControls(`a${ESC}]2;title${ST}b`)).toBe("ab");
		expect(stripControls(`copy${ESC}]52;c;UFdORUQ=${BEL}!`)).toBe("copy!");
		expect(stripControls(`${ESC}]8;;https://evil.example${ST}click${ESC}]8;;${ST}`)).toBe("click");
	});

	it("removes DCS, SOS, PM and APC strings", () => {
		expect(stripControls(`a${ESC}P1$r0m${ST}b`)).toBe("ab");
		expect(stripControls(`a${ESC}Xsos${ST}b`)).toBe("ab");
		expect(stripControls(`a${ESC}^pm${ST}b`)).toBe("ab");
		expect(stripControls(`a${ESC}_Gf=100;AAAA${ST}b`)).toBe("ab");
	});

	it("removes the short escape sequences (save cursor, charset, reset)", () => {
		expect(stripControls(`a${ESC}7b${ESC}8c${ESC}(Bd${ESC}ce${ESC}Mf`)).toBe("abcdef");
	});

	it("removes the 8-bit C1 forms of the same sequences", () => {
		expect(stripControls("a\u009b31mred\u009b0m b")).toBe("ared b");
		expect(stripControls("a\u009d2;title\u0007b \u009d2;t\u009cc")).toBe("ab c");
		expect(stripControls("a\u0090dcs\u009cb\u0085c")).toBe("abc");
	});

	it("removes C0 controls and DEL, keeping newlines; CRLF becomes LF", () => {
		expect(stripControls("a\u0000b\u0007c\u0008d\u000be\u000cf\u007fg")).toBe("abcdefg");
		expect(stripControls("one\r\ntwo\rthree\n")).toBe("one\ntwothree\n");
	});

	it("never lets an ESC through, however the sequence is cut", () => {
		for (const text of [`${ESC}`, `a${ESC}`, `${ESC}[`, `${ESC}[31`, `${ESC}]2;unterminated`, `${ESC}P`, `${ESC}(`, `${ESC}${ESC}]0;x${BEL}`, "\u009b", "\u009d0;x"]) {
			const out = stripControls(text);
			expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
		}
	});

	it("keeps what follows an unterminated string, and ends a string at the next ESC", () => {
		expect(stripControls(`before ${ESC}]2;after`)).toBe("before 2;after");
		expect(stripControls(`a${ESC}]2;cut${ESC}[31mred`)).toBe("ared");
		expect(stripControls(`a${ESC}]2;cancel\u0018b`)).toBe("ab");
	});

	it("expands tabs to the next tab stop of their line, or keeps them when asked", () => {
		expect(stripControls("\tx\nab\tc\nabcd\te")).toBe("    x\nab  c\nabcd    e");
		expect(stripControls(`${ESC}[1ma${ESC}[0m\tb`)).toBe("a   b");
		expect(stripControls("a\tb", { keepTabs: true })).toBe("a\tb");
		expect(stripControls(`a\tb${ESC}[1m`, { keepTabs: true })).toBe("a\tb");
	});
});

describe("unfinishedSequenceStart", () => {
	it("finds the sequence a chunk of text ends inside", () => {
		expect(unfinishedSequenceStart("plain")).toBe(-1);
		expect(unfinishedSequenceStart(`a${ESC}[31mb`)).toBe(-1);
		expect(unfinishedSequenceStart(`a${ESC}`)).toBe(1);
		expect(unfinishedSequenceStart(`a${ESC}[31mb${ESC}[20`)).toBe(7);
		expect(unfinishedSequenceStart(`a${ESC}]2;title`)).toBe(1);
		expect(unfinishedSequenceStart(`a${ESC}]2;title${BEL}`)).toBe(-1);
		expect(unfinishedSequenceStart("a\u009d2;t")).toBe(1);
	});
});

describe("stripToOneLine", () => {
	it("strips the text and puts it on one line", () => {
		expect(stripToOneLine(`  quota\r\n${ESC}]2;x${BEL}exceeded\t(retry later)\n`)).toBe("quota exceeded (retry later)");
	});
});

describe("showControls", () => {
	it("returns the very same string when every character is printable", () => {
		const text = "rm -rf ./build && echo 'done' # 漢字 👍";
		expect(showControls(text)).toBe(text);
	});

	it("writes every control character out, so a row shows what will run", () => {
		expect(showControls(`echo hi ${ESC}]2;pwned${BEL}`)).toBe("echo hi \\x1b]2;pwned\\x07");
		expect(showControls("a\nb\rc\td\u0000e\u007ff\u009bg")).toBe("a\\nb\\rc\\td\\x00e\\x7ff\\x9bg");
	});

	it("writes bidirectional overrides out, so a command cannot read backwards", () => {
		expect(showControls("echo \u202eflesym\u202c")).toBe("echo \\u202eflesym\\u202c");
		expect(showControls("a\u2066b\u2069")).toBe("a\\u2066b\\u2069");
	});

	it("leaves UTF-8 text, emoji and wide characters as they are", () => {
		const text = "café 漢字 👨‍👩‍👧 🇫🇷 e\u0301";
		expect(showControls(`${text}${ESC}`)).toBe(`${text}\\x1b`);
	});
});

describe("stripCommandOutput", () => {
	it("keeps only the last redraw of a progress line, and the tabs", () => {
		expect(stripCommandOutput("get 10%\rget 50%\rget 100%\r\ndone\tok\n")).toBe("get 100%\ndone\tok\n");
	});

	it("removes colours, titles and other control characters", () => {
		expect(stripCommandOutput(`${ESC}[31mred${ESC}[0m ${ESC}]0;title${BEL}be\u0007ll\u0000`)).toBe("red bell");
	});
});
